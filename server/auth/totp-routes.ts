/**
 * Two-step verification in the personal-info dialog (legacy envelope, bearer token):
 *   POST /supplierApi/accountInfo/totp/setup   { password }  -> { status: 200, data: { secret, uri, qrCode } }
 *   POST /supplierApi/accountInfo/totp/enable  { code }      -> { status: 200, message, data: { recoveryCodes } }
 *   POST /supplierApi/accountInfo/totp/disable { code }      -> { status: 200, message }
 * Setup asks for the password again (a stolen session must not be able to put its own
 * authenticator on the account, ASVS 7.5.1) and makes a pending seed: the only moment the seed
 * leaves the server. Enable proves the app has it (a current code) and turns it on with ten
 * recovery codes, shown once. Disable takes a current code or a recovery code; a wrong one
 * counts toward the lockout like a wrong password. Turning it on or off ends every other session
 * of the account (ASVS 7.4.3); this one goes on with a fresh token in `x-refreshed-token`.
 * Accounts whose type requires two-step verification and have none may call these (and only these,
 * with logout, info and update) until they have enrolled.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { metadata } from '../generated/index.ts';
import { translate } from '../engine/i18n.ts';
import { verifyPassword } from '../engine/passwords.ts';
import { conflict, validationFailed } from '../engine/errors.ts';
import type { Db, Queryable } from '../db/types.ts';
import { REFRESH_HEADER } from '../plugins/auth.ts';
import { hashRecoveryCode, matchingStep, mfaState, newRecoveryCodes, newSecret, otpauthUri, qrCodeDataUrl, useSecondFactor } from './totp.ts';

export interface TotpRouteOptions {
  db: Db;
  /** counts a wrong password or code toward the account's lockout (connect.ts) */
  countFailure: (accountId: number) => Promise<void>;
}

const body = (props: Record<string, object>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(props),
  properties: props,
});

export default async function totpRoutes(app: FastifyInstance, opts: TotpRouteOptions) {
  const { db, countFailure } = opts;
  // an account that must still enrol may call these; a 602 account changes its password first
  const guard = app.authenticate({ allowMfaEnrolment: true });

  const audit = (q: Queryable, req: FastifyRequest, operation: string, changes: object, now: string) =>
    q.run(`INSERT INTO audit_entry (at, user_id, warehouse_code, resource, record_id, operation, changes) VALUES (?, ?, ?, 'accounts', ?, ?, ?)`, [
      now,
      req.principal!.userId,
      req.principal!.warehouse,
      req.principal!.accountId,
      operation,
      JSON.stringify(changes),
    ]);

  /** This session goes on after its other sessions were ended: a token issued after the cut. */
  const refreshSession = async (req: FastifyRequest, reply: { header(k: string, v: string): unknown }) => {
    const p = req.principal!;
    const fresh = (await app.tokens.account(p.accountId))!;
    const t = app.tokens.issue(fresh, p.warehouse, p.locale, { authTime: p.authTime, sessionId: p.sessionId });
    reply.header(REFRESH_HEADER, t.token);
  };

  app.post(
    '/supplierApi/accountInfo/totp/setup',
    {
      preHandler: guard,
      config: { rateLimit: {} },
      schema: { body: body({ password: { type: 'string', maxLength: 200 } }) },
    },
    async (req) => {
      const p = req.principal!;
      const { password } = req.body as { password: string };
      const acc = (await app.tokens.account(p.accountId))!;
      if ((await mfaState(db, acc.id))?.enabled) throw conflict('error.mfaAlreadyEnabled');
      if (!(await verifyPassword(password, acc.passwordHash))) {
        await countFailure(acc.id);
        req.log.warn({ event: 'mfa', outcome: 'wrongPassword', userId: p.userId }, 'two-step set-up refused');
        throw validationFailed({ password: { key: 'error.wrongPassword' } });
      }
      const secret = newSecret();
      // a pending seed, replacing any earlier pending one; never the seed of an enabled account
      const r = await db.run(`UPDATE account SET totp_secret = ? WHERE id = ? AND (totp_enabled IS NULL OR totp_enabled = ?)`, [
        secret,
        acc.id,
        db.dialect.bool(false),
      ]);
      if (r.changes !== 1) throw conflict('error.mfaAlreadyEnabled');
      const uri = otpauthUri(secret, translate(req.locale, metadata.app.titleKey), acc.userId);
      req.log.info({ event: 'mfa', outcome: 'setup', userId: p.userId }, 'two-step set-up started');
      return { status: 200, data: { secret, uri, qrCode: await qrCodeDataUrl(uri) } };
    },
  );

  /** enable and disable both take one code, behind the same guard and per-address limit */
  const codeRoute = { preHandler: guard, config: { rateLimit: {} }, schema: { body: body({ code: { type: 'string', maxLength: 64 } }) } };

  app.post('/supplierApi/accountInfo/totp/enable', codeRoute, async (req, reply) => {
    const p = req.principal!;
    const { code } = req.body as { code: string };
    const s = await mfaState(db, p.accountId);
    if (s?.enabled) throw conflict('error.mfaAlreadyEnabled');
    if (!s?.secret) throw conflict('error.mfaNoSetup');
    const step = matchingStep(s.secret, code);
    if (step === null) throw validationFailed({ code: { key: 'error.mfaInvalidCode' } });
    const recoveryCodes = newRecoveryCodes();
    const now = new Date().toISOString();
    await db.transaction(async (tx) => {
      // the code proves the app holds this seed: turned on only if it is still the pending one
      const r = await tx.run(
        `UPDATE account SET totp_enabled = ?, totp_enrolled_at = ?, totp_last_step = ?, totp_recovery_codes = ?, sessions_valid_from = ?, version = version + 1, updated_at = ?, updated_by = ?
         WHERE id = ? AND totp_secret = ? AND (totp_enabled IS NULL OR totp_enabled = ?)`,
        [
          tx.dialect.bool(true),
          now,
          step,
          JSON.stringify(recoveryCodes.map(hashRecoveryCode)),
          now,
          now,
          p.userId,
          p.accountId,
          s.secret,
          tx.dialect.bool(false),
        ],
      );
      if (r.changes !== 1) throw conflict('error.mfaNoSetup');
      await audit(tx, req, 'totpEnable', { totpEnabled: [false, true], totpSecret: ['***', '***'], totpRecoveryCodes: ['***', '***'] }, now);
    });
    await refreshSession(req, reply);
    req.log.info({ event: 'mfa', outcome: 'enabled', userId: p.userId }, 'two-step verification on');
    return { status: 200, message: translate(req.locale, 'message.mfaEnabled'), data: { recoveryCodes } };
  });

  app.post('/supplierApi/accountInfo/totp/disable', codeRoute, async (req, reply) => {
    const p = req.principal!;
    const { code } = req.body as { code: string };
    const s = await mfaState(db, p.accountId);
    if (!s?.enabled) throw conflict('error.mfaNotEnabled');
    const factor = await useSecondFactor(db, p.accountId, code);
    if (!factor) {
      await countFailure(p.accountId);
      req.log.warn({ event: 'mfa', outcome: 'wrongCode', userId: p.userId }, 'two-step turn-off refused');
      throw validationFailed({ code: { key: 'error.mfaInvalidCode' } });
    }
    const now = new Date().toISOString();
    await db.transaction(async (tx) => {
      await tx.run(
        `UPDATE account SET totp_enabled = ?, totp_secret = NULL, totp_enrolled_at = NULL, totp_last_step = NULL, totp_recovery_codes = NULL, sessions_valid_from = ?, version = version + 1, updated_at = ?, updated_by = ? WHERE id = ?`,
        [tx.dialect.bool(false), now, now, p.userId, p.accountId],
      );
      await audit(tx, req, 'totpDisable', { totpEnabled: [true, false], totpSecret: ['***', '***'], totpRecoveryCodes: ['***', '***'] }, now);
    });
    await refreshSession(req, reply);
    req.log.info({ event: 'mfa', outcome: 'disabled', userId: p.userId, with: factor }, 'two-step verification off');
    return { status: 200, message: translate(req.locale, 'message.mfaDisabled') };
  });
}
