/**
 * The legacy calls of spec point 7, with their own envelopes (docs/design.md section 4):
 *   POST /connect/token                  form-encoded login -> { access_token, token_type, expires_in, account_status };
 *                                        with two-step verification on, the password step answers
 *                                        400 { error: 'mfa_required', mfa_token } and a second call
 *                                        (grant_type=mfa, mfa_token, code) answers the token
 *   POST /connect/logout                 revokes the token -> { status: 200 }
 *   POST /connect/warehouse              a token for another warehouse of the same user
 *   POST /supplierApi/accountInfo/info   -> { status: 200, data: { user, serverTime } }
 *   POST /supplierApi/accountInfo/update the personal-info dialog (profile and password change)
 *   POST /supplierApi/accountInfo/totp/* two-step verification: setup, enable, disable (server/auth/totp-routes.ts)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { metadata } from '../generated/index.ts';
import { translate, isLocale } from '../engine/i18n.ts';
import { hashPassword, needsRehash, verifyPassword, PRODUCTION_PARAMS, type ScryptParams } from '../engine/passwords.ts';
import { SchemaValidator, type FieldErrors } from '../../codegen/runtime/validation.ts';
import { fieldSchema } from '../../codegen/runtime/field-schema.ts';
import { AppError, validationFailed, conflict } from '../engine/errors.ts';
import type { Locale } from '../../codegen/runtime/model.ts';
import type { Db } from '../db/types.ts';
import { REFRESH_HEADER, profileOfType, type AccountRow } from '../plugins/auth.ts';
import { signMfaToken, verifyMfaToken } from '../auth/mfa-token.ts';
import { mfaState, useSecondFactor } from '../auth/totp.ts';
import totpRoutes from '../auth/totp-routes.ts';
import { clientCredentialsGrant } from '../auth/client-credentials.ts';
import { countHit } from '../plugins/rate-limit.ts';
import { HashPool, passwordCheck, type HashPoolOptions } from '../auth/hash-pool.ts';
import { LoginFailures, clearLoginFailures, type ClaimResult } from '../auth/lockout.ts';
import { keepInHistory, newPasswordErrors, passwordReused, reusesRecentPassword } from '../auth/password-policy.ts';

export interface ConnectOptions {
  db: Db;
  hashParams?: ScryptParams;
  /** login attempts one account may make per minute, whatever the address (default 10) */
  accountAttemptsPerMinute?: number;
  /** the bound on password hashing at login (server/auth/hash-pool.ts), or a pool to share */
  hashPool?: HashPoolOptions | HashPool;
}

const days = (ms: number) => Math.floor(ms / 86_400_000);

export default async function connectRoutes(app: FastifyInstance, opts: ConnectOptions) {
  const { db } = opts;
  const hashParams = opts.hashParams ?? PRODUCTION_PARAMS;
  const validator = new SchemaValidator(metadata);
  const account = metadata.entities.account;
  // read when the routes are registered: the dev server registers them again after a metadata change
  const MAY_LOG_IN = new Set(metadata.codeTables.accountStatus.groups.mayLogIn);
  const STATUS = Object.fromEntries(metadata.codeTables.accountStatus.values.map((v) => [v.key, v.code])) as Record<string, string>;

  const tokenError = (req: FastifyRequest, reply: FastifyReply, status: number, code: string, args: Record<string, string | number> = {}, userId?: string) => {
    // every failed authentication is logged (ASVS 16.3.1); never the password or the code
    req.log.warn(
      { event: 'login', outcome: code, userId: (userId ?? String((req.body as Record<string, unknown> | undefined)?.username ?? '')).slice(0, 100) },
      'login refused',
    );
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .send({
        error: status === 400 ? 'invalid_grant' : status === 503 ? 'temporarily_unavailable' : 'invalid_request',
        code,
        message: translate(req.locale, code, args),
      });
  };

  // failed logins per user ID: free attempts, growing delays, then the lock (server/auth/lockout.ts)
  const failures = new LoginFailures(db, metadata.app.lockout);
  const statuses = { mayLogIn: [...MAY_LOG_IN], locked: STATUS.locked };
  /** a wrong password or code of a known account, given in a logged-in call (two-step set-up and turn-off): counts toward the lockout */
  const countFailure = async (accountId: number): Promise<void> => {
    const acc = await app.tokens.account(accountId);
    if (acc) await failures.failAccount(acc.id, acc.userId, await failures.record(acc.userId), statuses);
  };
  /** the user ID must wait: 429 with the seconds left (the same for every ID with the same history) */
  const throttled = (req: FastifyRequest, reply: FastifyReply, claim: ClaimResult, userId: string) => {
    reply.header('retry-after', String(claim.retryAfterSeconds));
    return tokenError(req, reply, 429, 'error.loginThrottled', { seconds: claim.retryAfterSeconds }, userId);
  };
  const hashPool = opts.hashPool instanceof HashPool ? opts.hashPool : new HashPool(opts.hashPool);
  const checkPassword = (password: string, hash: string | null) => passwordCheck(hashPool, password, hash);
  /** too many password checks waiting: 503 with the seconds to wait, alike for every user ID */
  const busy = (req: FastifyRequest, reply: FastifyReply, userId: string) => {
    const seconds = hashPool.retryAfterSeconds();
    reply.header('retry-after', String(seconds));
    return tokenError(req, reply, 503, 'error.loginBusy', { seconds }, userId);
  };
  const perAccount = opts.accountAttemptsPerMinute ?? 10;
  /**
   * Counts this attempt; true when the account has made too many this minute. One atomic counter
   * in the database (a fixed one-minute window), so parallel attempts through several processes
   * each count and none slips past the limit.
   */
  const tooManyAttempts = async (userId: string): Promise<boolean> => (await countHit(db, `login-account|${userId}`, 60_000)).hits > perAccount;

  app.post(
    '/connect/token',
    {
      // per address: the limit registered in app.ts (20 a minute by default)
      config: { rateLimit: {} },
      schema: {
        body: {
          type: 'object',
          properties: {
            grant_type: { type: 'string', maxLength: 20 },
            username: { type: 'string', maxLength: 100 },
            password: { type: 'string', maxLength: 200 },
            warehouse: { type: 'string', maxLength: 20 },
            client_id: { type: 'string', maxLength: 50 },
            // grant_type=client_credentials: a machine client (server/auth/client-credentials.ts)
            client_secret: { type: 'string', maxLength: 200 },
            lang: { type: 'string', maxLength: 10 },
            // the second step of a login with two-step verification (grant_type=mfa)
            mfa_token: { type: 'string', maxLength: 2000 },
            code: { type: 'string', maxLength: 64 },
          },
        },
      },
    },
    async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, string | undefined>;
      const lang: Locale = isLocale(b.lang) ? b.lang : req.locale;
      req.locale = lang;
      const grant = b.grant_type ?? 'password';
      if (grant === 'mfa') return mfaGrant(req, reply, b);
      if (grant === 'client_credentials') return clientCredentialsGrant(app, db, req, reply, b);
      if (grant !== 'password') return tokenError(req, reply, 400, 'error.badRequest');
      const username = (b.username ?? '').trim();
      const password = b.password ?? '';
      if (!username || password.length < metadata.app.password.loginMinLength || !b.warehouse) return tokenError(req, reply, 400, 'error.loginFailed');
      // per account, whatever the address (the per-address limit is the route's rateLimit)
      if (await tooManyAttempts(username.toLowerCase())) return tokenError(req, reply, 429, 'error.rateLimited');
      // counted as a failure before the password is checked, refused while the ID must wait: the
      // same for every user ID, known or not
      const claim = await failures.claim(username);
      if (!claim.ok) return throttled(req, reply, claim, username);
      const acc = await app.tokens.accountByUserId(username);
      // bounded hashing; no hash for a user ID that does not exist, the same wait (server/auth/hash-pool.ts)
      const ok = await checkPassword(password, acc?.passwordHash ?? null);
      if (ok === 'busy') return busy(req, reply, username);
      if (!acc) return tokenError(req, reply, 400, 'error.loginFailed');
      if (!ok) {
        await failures.failAccount(acc.id, acc.userId, claim.failures, statuses);
        // the same answer as for an unknown user, locked or not: only the right password learns
        // that the account is locked (otherwise the guesses would tell which user IDs exist)
        return tokenError(req, reply, 400, 'error.loginFailed');
      }
      // the right password: this attempt was no failure (with two-step verification on, the count
      // before it stands until the code is right: wrong codes add to the wrong passwords)
      await failures.refund(username);
      // the password is right: from here on the answer may say why the account cannot log in
      if (acc.status === STATUS.locked) return tokenError(req, reply, 400, 'error.userLocked');
      if (!MAY_LOG_IN.has(acc.status)) return tokenError(req, reply, 400, 'error.noRight');
      const wh = await app.tokens.warehouse(b.warehouse);
      if (!wh) return tokenError(req, reply, 400, 'error.wrongWarehouse');
      if (acc.totpEnabled) {
        // two-step verification: the code decides. The password does not reset the failure counter:
        // wrong codes add to the wrong passwords before them, up to the same lockout. Failures
        // counted during the slow password check (here or in another process) may have locked it.
        const now = await app.tokens.account(acc.id);
        if (!now || !MAY_LOG_IN.has(now.status)) return tokenError(req, reply, 400, now?.status === STATUS.locked ? 'error.userLocked' : 'error.noRight');
        if (acc.passwordHash && needsRehash(acc.passwordHash, hashParams))
          await db.run(`UPDATE account SET password_hash = ? WHERE id = ?`, [await hashPassword(password, hashParams), acc.id]);
        const t = signMfaToken(app, acc, wh.code, lang);
        req.log.info({ event: 'login', outcome: 'mfa_required', userId: acc.userId }, 'login: password right, second factor asked');
        return reply
          .status(400)
          .header('cache-control', 'no-store')
          .send({
            error: 'mfa_required',
            code: 'error.mfaRequired',
            message: translate(lang, 'error.mfaRequired'),
            mfa_token: t.token,
            expires_in: t.expiresIn,
          });
      }
      return finishLogin(req, reply, acc, wh.code, lang, { password });
    },
  );

  /**
   * The second step: the ticket of the password step and a current code of the authenticator app
   * (or a recovery code). A wrong code counts like a wrong password; a code is accepted once.
   */
  const mfaGrant = async (req: FastifyRequest, reply: FastifyReply, b: Record<string, string | undefined>) => {
    const claims = verifyMfaToken(app, b.mfa_token ?? '');
    if (!claims) return tokenError(req, reply, 400, 'error.mfaExpired');
    const uid = claims.uid;
    const lang: Locale = isLocale(b.lang) ? b.lang : isLocale(claims.lang) ? claims.lang : req.locale;
    req.locale = lang;
    if (await tooManyAttempts(uid.toLowerCase())) return tokenError(req, reply, 429, 'error.rateLimited', {}, uid);
    if (await app.tokens.isRevoked(claims.jti)) return tokenError(req, reply, 400, 'error.mfaExpired', {}, uid);
    const acc = await app.tokens.account(Number(claims.sub));
    if (!acc || acc.userId !== uid) return tokenError(req, reply, 400, 'error.mfaExpired', {}, uid);
    // a password change, ended sessions or two-step verification turned off since the password step void the ticket
    if (acc.sessionsValidFrom && claims.ms < Date.parse(acc.sessionsValidFrom)) return tokenError(req, reply, 400, 'error.mfaExpired', {}, uid);
    if (!acc.totpEnabled) return tokenError(req, reply, 400, 'error.mfaExpired', {}, uid);
    if (acc.status === STATUS.locked) return tokenError(req, reply, 400, 'error.userLocked', {}, uid);
    if (!MAY_LOG_IN.has(acc.status)) return tokenError(req, reply, 400, 'error.noRight', {}, uid);
    // a code is an attempt like a password: counted in advance, refused while the ID must wait
    const claim = await failures.claim(uid);
    if (!claim.ok) return throttled(req, reply, claim, uid);
    const factor = await useSecondFactor(db, acc.id, b.code ?? '');
    if (!factor) {
      await failures.failAccount(acc.id, acc.userId, claim.failures, statuses);
      return tokenError(req, reply, 400, 'error.mfaInvalidCode', {}, uid);
    }
    // the ticket is used up
    await app.tokens.revoke(claims.jti, claims.exp);
    const wh = await app.tokens.warehouse(claims.wh);
    if (!wh) return tokenError(req, reply, 400, 'error.wrongWarehouse', {}, uid);
    return finishLogin(req, reply, acc, wh.code, lang, { factor });
  };

  /** Every factor has been checked: the failure counter starts again, the password expiry applies, the token is issued. */
  const finishLogin = async (
    req: FastifyRequest,
    reply: FastifyReply,
    acc: AccountRow,
    warehouse: string,
    lang: Locale,
    how: { password?: string; factor?: 'totp' | 'recovery' },
  ) => {
    const uid = acc.userId;
    // the account was read before the slow password check, and failures counted meanwhile (here or
    // in another process) may have locked it: the reset happens only while it may still log in,
    // otherwise the right password would undo a lockout that parallel guesses caused
    const current = await db.get<{ status: string }>(
      `UPDATE account SET failed_logins = 0, last_login_at = ? WHERE id = ? AND status IN (${[...MAY_LOG_IN].map(() => '?').join(',')}) RETURNING status`,
      [new Date().toISOString(), acc.id, ...MAY_LOG_IN],
    );
    if (!current) {
      const now = await app.tokens.account(acc.id);
      return tokenError(req, reply, 400, now?.status === STATUS.locked ? 'error.userLocked' : 'error.noRight', {}, uid);
    }
    await clearLoginFailures(db, uid);
    if (how.password && acc.passwordHash && needsRehash(acc.passwordHash, hashParams))
      await db.run(`UPDATE account SET password_hash = ? WHERE id = ?`, [await hashPassword(how.password, hashParams), acc.id]);
    // expiry: an expired password turns the login into 602 (must change); a near one is announced
    let status = current.status;
    let notice: { code: string; message: string; days?: number } | undefined;
    const changed = acc.passwordChangedAt ? Date.parse(acc.passwordChangedAt) : NaN;
    const left = Number.isNaN(changed) ? 0 : metadata.app.password.expiryDays - days(Date.now() - changed);
    if (status === STATUS.normal && left <= 0) {
      status = STATUS.mustChangePassword;
      notice = { code: 'error.passwordExpired', message: translate(lang, 'error.passwordExpired') };
    } else if (status === STATUS.mustChangePassword) {
      notice = { code: 'error.initialPassword', message: translate(lang, 'error.initialPassword') };
    } else if (left <= metadata.app.password.expiryWarnDays) {
      notice = { code: 'error.passwordExpiresSoon', message: translate(lang, 'error.passwordExpiresSoon', { days: left }), days: left };
    }
    if (status !== current.status) await db.run(`UPDATE account SET status = ? WHERE id = ?`, [status, acc.id]);
    const t = app.tokens.issue(acc, warehouse, lang);
    req.log.info(
      { event: 'login', outcome: 'ok', userId: uid, warehouse, accountStatus: status, ...(how.factor ? { secondFactor: how.factor } : {}) },
      'login',
    );
    // an account whose type requires two-step verification and has none may only set it up
    const mustEnrol = !acc.totpEnabled && app.mfaRequired(profileOfType(acc.accountType));
    return reply.header('cache-control', 'no-store').send({
      access_token: t.token,
      token_type: 'Bearer',
      expires_in: t.expiresIn,
      account_status: Number(status),
      ...(notice ? { password_notice: notice } : {}),
      ...(mustEnrol ? { mfa_enrolment_required: true } : {}),
    });
  };

  app.post('/connect/logout', { preHandler: app.authenticate({ allowMustChange: true }) }, async (req) => {
    const p = req.principal!;
    // the whole session ends: the tokens refreshed from this one, and the one it was refreshed from
    await app.tokens.endSession(p);
    req.log.info({ event: 'logout', userId: p.userId }, 'logout');
    return { status: 200 };
  });

  app.post(
    '/connect/warehouse',
    {
      preHandler: app.authenticate(),
      schema: { body: { type: 'object', required: ['warehouse'], additionalProperties: false, properties: { warehouse: { type: 'string', maxLength: 20 } } } },
    },
    async (req) => {
      const p = req.principal!;
      const wh = await app.tokens.warehouse((req.body as { warehouse: string }).warehouse);
      if (!wh) throw new AppError(400, 'error.wrongWarehouse');
      const acc = (await app.tokens.account(p.accountId))!;
      const t = app.tokens.issue(acc, wh.code, p.locale, { authTime: p.authTime, sessionId: p.sessionId });
      await app.tokens.revoke(p.tokenId, p.tokenExp);
      return { status: 200, access_token: t.token, token_type: 'Bearer', expires_in: t.expiresIn, account_status: Number(acc.status) };
    },
  );

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

  /** Profile fields are validated by the account entity's own rules (email, mobile, telephone). */
  const profileFields = ['name', 'email', 'mobile', 'telephone'] as const;
  const profileSchema = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(profileFields.map((f) => [f, fieldSchema(account.fields[f], metadata, true)])),
  };

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
    async (req, reply) => {
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
    },
  );

  await app.register(totpRoutes, { db, countFailure });
}
