/**
 * POST /supplierApi/accountInfo/info (the signed-in user, with two-step verification's state) and
 * POST /supplierApi/accountInfo/update (the personal-info dialog: profile fields and a password change).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { metadata } from '../../generated/index.ts';
import { translate } from '../../engine/i18n.ts';
import { hashPassword, verifyPassword } from '../../engine/passwords.ts';
import { SchemaValidator, type FieldErrors } from '../../../codegen/runtime/validation.ts';
import { fieldSchema } from '../../../codegen/runtime/field-schema.ts';
import { validationFailed, conflict } from '../../engine/errors.ts';
import { REFRESH_HEADER, type AccountRow } from '../../plugins/auth.ts';
import { mfaState } from '../../auth/totp.ts';
import { keepInHistory, newPasswordErrors, passwordReused, reusesRecentPassword } from '../../auth/password-policy.ts';
import type { LoginGuard } from './login-guard.ts';

export function accountInfoRoutes(app: FastifyInstance, g: LoginGuard) {
  const { db } = g;
  const checks = profileChecks();
  app.post('/supplierApi/accountInfo/info', { preHandler: app.authenticate({ allowMustChange: true }) }, async (req) => {
    const p = req.principal!;
    const acc = (await app.tokens.account(p.accountId))!;
    const mfa = await mfaState(db, acc.id);
    return {
      status: 200,
      data: {
        user: {
          name: p.name,
          userId: p.userId,
          departmentName: p.departmentName,
          departmentId: p.departmentId,
          accountType: p.accountType,
          roleId: p.role,
          roles: [p.role],
          admin: p.admin,
          profile: p.profile,
          accountStatus: Number(p.accountStatus),
          warehouseCode: p.warehouse,
          warehouseName: p.warehouseName,
          isClaimWarehouse: p.isClaimWarehouse,
          email: acc.email,
          mobile: acc.mobile,
          telephone: acc.telephone,
          // two-step verification: on or off, required for the account's type, recovery codes left
          mfa: {
            enabled: !!mfa?.enabled,
            required: app.mfaRequired(p.profile),
            enrolledAt: mfa?.enabled ? mfa.enrolledAt : null,
            recoveryCodesLeft: mfa?.enabled ? mfa.recoveryHashes.length : 0,
          },
        },
        serverTime: new Date().toISOString(),
      },
    };
  });

  app.post(
    '/supplierApi/accountInfo/update',
    {
      preHandler: app.authenticate({ allowMustChange: true }),
      config: { rateLimit: {} },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            userId: { type: 'string', maxLength: 30 },
            name: { type: ['string', 'null'], maxLength: 200 },
            email: { type: ['string', 'null'], maxLength: 200 },
            mobile: { type: ['string', 'null'], maxLength: 50 },
            telephone: { type: ['string', 'null'], maxLength: 50 },
            oldPassword: { type: ['string', 'null'], maxLength: 200 },
            newPassword: { type: ['string', 'null'], maxLength: 200 },
            confirmPassword: { type: ['string', 'null'], maxLength: 200 },
          },
        },
      },
    },
    (req, reply) => updateProfile(app, g, checks, req, reply),
  );
}

/** Profile fields are validated by the account entity's own rules (email, mobile, telephone). */
const profileFields = ['name', 'email', 'mobile', 'telephone'] as const;

/** Read when the routes are registered: the dev server registers them again after a metadata change. */
function profileChecks() {
  const account = metadata.entities.account;
  const schema = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(profileFields.map((f) => [f, fieldSchema(account.fields[f], metadata, true)])),
  };
  return { account, schema, validator: new SchemaValidator(metadata) };
}
type ProfileChecks = ReturnType<typeof profileChecks>;

/** Profile fields and, optionally, a new password: validated together, written in one transaction with its audit row. */
async function updateProfile(app: FastifyInstance, g: LoginGuard, checks: ProfileChecks, req: FastifyRequest, reply: FastifyReply) {
  const { db, hashParams, STATUS } = g;
  const { account, schema: profileSchema, validator } = checks;
  const p = req.principal!;
  const b = req.body as Record<string, string | null | undefined>;
  const acc = (await app.tokens.account(p.accountId)) as AccountRow;
  const profile: Record<string, unknown> = {};
  for (const f of profileFields) if (b[f] !== undefined) profile[f] = b[f] === '' && f !== 'name' ? null : b[f];
  const errors: FieldErrors = { ...(validator.validate(profileSchema, profile) ?? {}) };
  const wantsPassword = !!(b.newPassword || b.confirmPassword || b.oldPassword);
  // a 602 account must change its password before it may do anything else
  if (p.accountStatus === STATUS.mustChangePassword && !wantsPassword) errors.newPassword = { key: 'validation.required' };
  let newHash: string | null = null;
  if (wantsPassword) {
    if (!b.oldPassword) errors.oldPassword = { key: 'validation.required' };
    Object.assign(errors, newPasswordErrors(validator, b.newPassword, b.confirmPassword));
    if (Object.keys(errors).length) throw validationFailed(errors);
    if (!(await verifyPassword(b.oldPassword!, acc.passwordHash))) throw validationFailed({ oldPassword: { key: 'error.wrongOldPassword' } });
    if (await reusesRecentPassword(db, acc, b.newPassword!)) throw passwordReused();
    newHash = await hashPassword(b.newPassword!, hashParams);
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
  const now = new Date().toISOString();
  const before = { name: acc.name, email: acc.email, mobile: acc.mobile, telephone: acc.telephone };
  await db.transaction(async (tx) => {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [f, v] of Object.entries(profile)) {
      sets.push(`${account.fields[f].column} = ?`);
      params.push(v);
    }
    if (newHash) {
      await keepInHistory(tx, acc, now);
      // a new password ends every other session of the account (this one gets a fresh token below)
      sets.push('password_hash = ?', 'password_changed_at = ?', 'sessions_valid_from = ?');
      params.push(newHash, now, now);
      if (acc.status === STATUS.mustChangePassword) sets.push(`status = '${STATUS.normal}'`);
    }
    if (!sets.length) return;
    sets.push('version = version + 1', 'updated_at = ?', 'updated_by = ?');
    const info = await tx.run(`UPDATE account SET ${sets.join(', ')} WHERE id = ? AND version = ?`, [...params, now, p.userId, acc.id, acc.version]);
    if (info.changes === 0) throw conflict('error.staleVersion');
    const changes = Object.fromEntries(
      Object.entries(profile)
        .filter(([f, v]) => (before as Record<string, unknown>)[f] !== v)
        .map(([f, v]) => [f, [(before as Record<string, unknown>)[f], v]]),
    );
    if (newHash) changes.password = ['***', '***'];
    await tx.run(
      `INSERT INTO audit_entry (at, user_id, warehouse_code, resource, record_id, operation, changes) VALUES (?, ?, ?, 'accounts', ?, 'profile', ?)`,
      [now, p.userId, p.warehouse, acc.id, JSON.stringify(changes)],
    );
  });
  const fresh = (await app.tokens.account(acc.id))!;
  if (newHash) {
    // this session goes on: its token was issued before the change, so it gets a new one,
    // which the client adopts from the header as it adopts any refreshed token
    const t = app.tokens.issue(fresh, p.warehouse, p.locale, { authTime: p.authTime, sessionId: p.sessionId });
    reply.header(REFRESH_HEADER, t.token);
  }
  return { status: 200, message: translate(req.locale, 'message.saveSuccess'), data: { accountStatus: Number(fresh.status) } };
}
