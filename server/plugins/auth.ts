/**
 * Tokens and the caller's identity. JWT with exactly one algorithm (HS256), audience and issuer
 * checked, expiry enforced; a revoked token id lives in the database so logout survives a restart
 * and is seen by every server process. Each authenticated request gets req.principal, rebuilt from
 * the account row (a locked or disabled account stops working at once, whatever its token says).
 */
import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale, Profile } from '../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { isLocale, pickLocale } from '../engine/i18n.ts';
import { AppError, forbidden, unauthorized } from '../engine/errors.ts';
import type { Principal } from '../engine/principal.ts';
import type { Db } from '../db/types.ts';

export const AUDIENCE = 'supplier-portal';
export const ISSUER = 'supplier-portal';
export const REFRESH_HEADER = 'x-refreshed-token';

/**
 * `at`: when the user authenticated (seconds); kept across refreshes so a session has an absolute end.
 * `sid`: the session (an id made at login), kept across refreshes and warehouse switches, so that
 * logging out ends every token of the chain. `ms`: when this token was issued, in milliseconds
 * (finer than `iat`), so that "every session before now ends" spares a token issued just after.
 */
interface TokenClaims {
  sub: string;
  uid: string;
  wh: string;
  lang: Locale;
  jti: string;
  sid?: string;
  ms?: number;
  exp: number;
  iat: number;
  at: number;
  aud: string;
  iss: string;
}

export interface AccountRow {
  id: number;
  userId: string;
  name: string;
  accountType: string;
  departmentId: string;
  departmentName: string | null;
  status: string;
  failedLogins: number;
  passwordHash: string | null;
  passwordChangedAt: string | null;
  email: string | null;
  mobile: string | null;
  telephone: string | null;
  version: number;
  sessionsValidFrom: string | null;
  /** two-step verification is on (SQLite 0/1, PostgreSQL boolean) */
  totpEnabled: number | boolean | null;
}
export interface WarehouseRow {
  code: string;
  nameZh: string;
  nameEn: string;
  isClaimWarehouse: number | boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    locale: Locale;
  }
  interface FastifyInstance {
    /**
     * preHandler: requires a valid token. `allowMustChange` lets 602 accounts through (and accounts
     * that must still enrol in two-step verification); `allowMfaEnrolment` lets the latter only.
     */
    authenticate: (opts?: { allowMustChange?: boolean; allowMfaEnrolment?: boolean }) => (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** whether accounts of this profile must use two-step verification (metadata app.mfa.requiredFor) */
    mfaRequired: (profile: Profile) => boolean;
    /** preHandler that sets req.principal when a valid token is present, and never refuses */
    optionalAuth: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * optionalAuth that also accepts a session which must change its password (602) or enrol a
     * second factor first: GET /api/meta, since the page that asks for it needs the session's screens
     */
    optionalSession: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    tokens: TokenService;
  }
}

export const profileOfType = (accountType: string): Profile => {
  const hit = Object.entries(metadata.access.profiles).find(([, v]) => v.accountType === accountType);
  if (!hit) throw new Error(`no profile for account type ${accountType}`);
  return hit[0] as Profile;
};

/** column -> record name of the account columns auth reads */
const ACCOUNT_FIELDS = {
  id: 'id',
  user_id: 'userId',
  name: 'name',
  account_type: 'accountType',
  department_id: 'departmentId',
  department_name: 'departmentName',
  status: 'status',
  failed_logins: 'failedLogins',
  password_hash: 'passwordHash',
  password_changed_at: 'passwordChangedAt',
  email: 'email',
  mobile: 'mobile',
  telephone: 'telephone',
  version: 'version',
  sessions_valid_from: 'sessionsValidFrom',
  totp_enabled: 'totpEnabled',
} as const;
/** The select list of an AccountRow (`alias.` before each column when given); aliases are quoted: PostgreSQL folds unquoted names to lower case. */
export const accountColumns = (alias?: string): string =>
  Object.entries(ACCOUNT_FIELDS)
    .map(([col, name]) => `${alias ? `${alias}.` : ''}${col} AS "${name}"`)
    .join(', ');
export const ACCOUNT_COLUMNS = accountColumns();

export interface TokenService {
  /** `session`: the session the token continues (refresh, warehouse switch, password change); omitted for a new login */
  issue(
    account: AccountRow,
    warehouse: string,
    lang: Locale,
    session?: { authTime: number; sessionId: string },
  ): { token: string; expiresIn: number; jti: string };
  /** ends a whole session: every token of its refresh chain */
  endSession(p: { tokenId: string; sessionId: string; tokenExp: number; authTime: number }): Promise<void>;
  revoke(jti: string, exp: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  /** what every authenticated request needs, in one statement: is the token revoked, the account, the warehouse */
  session(
    jti: string,
    sessionId: string,
    accountId: number,
    warehouse: string,
  ): Promise<{ revoked: boolean; account: AccountRow | undefined; warehouse: WarehouseRow | undefined }>;
  account(id: number): Promise<AccountRow | undefined>;
  accountByUserId(userId: string): Promise<AccountRow | undefined>;
  warehouse(code: string): Promise<WarehouseRow | undefined>;
}

export default fp(
  async (app, opts: { db: Db; secret: string; mfaRequiredFor?: readonly Profile[] }) => {
    const { db } = opts;
    // two-step verification: optional for everyone, required for these profiles
    const mfaRequiredFor = new Set<Profile>(opts.mfaRequiredFor ?? metadata.app.mfa?.requiredFor ?? []);
    app.decorate('mfaRequired', (profile: Profile) => mfaRequiredFor.has(profile));
    await app.register(jwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', aud: AUDIENCE, iss: ISSUER },
      verify: { algorithms: ['HS256'], allowedAud: AUDIENCE, allowedIss: ISSUER, requiredClaims: ['exp', 'jti', 'sub', 'aud', 'iss'] },
    });
    await db.run(`DELETE FROM _revoked_tokens WHERE expires_at < ?`, [Math.floor(Date.now() / 1000)]);

    const ttl = metadata.app.token.expiresInSeconds;
    const tokens: TokenService = {
      issue(account, warehouse, lang, session) {
        const jti = randomUUID();
        const at = session?.authTime ?? Math.floor(Date.now() / 1000);
        // a session id of its own (not the first token's jti): revoking one token of the chain (a warehouse switch) leaves the session alone
        const sid = session?.sessionId ?? randomUUID();
        // never beyond the absolute end of the session
        const left = at + metadata.app.token.maxSessionSeconds - Math.floor(Date.now() / 1000);
        const token = app.jwt.sign(
          { sub: String(account.id), uid: account.userId, wh: warehouse, lang, jti, sid, ms: Date.now(), at },
          { expiresIn: Math.max(1, Math.min(ttl, left)) },
        );
        return { token, expiresIn: ttl, jti };
      },
      async endSession(p) {
        // the session id stays revoked until the session could have lasted at the most
        await tokens.revoke(p.sessionId, p.authTime + metadata.app.token.maxSessionSeconds);
        if (p.tokenId !== p.sessionId) await tokens.revoke(p.tokenId, p.tokenExp);
      },
      revoke: async (jti, exp) => void (await db.run(`INSERT INTO _revoked_tokens (jti, expires_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING`, [jti, exp])),
      isRevoked: async (jti) => !!(await db.get(`SELECT 1 AS x FROM _revoked_tokens WHERE jti = ?`, [jti])),
      async session(jti, sessionId, accountId, warehouse) {
        // one round trip per request (on PostgreSQL one pooled connection, not three)
        const row = await db.get<
          AccountRow & { revoked: number | boolean | null; whCode: string | null; whNameZh: string; whNameEn: string; whClaim: number | boolean }
        >(
          `SELECT ${accountColumns('a')},
            (SELECT 1 FROM _revoked_tokens r WHERE r.jti IN (?, ?) LIMIT 1) AS revoked,
            w.code AS "whCode", w.name_zh AS "whNameZh", w.name_en AS "whNameEn", w.is_claim_warehouse AS "whClaim"
           FROM account a LEFT JOIN warehouse w ON w.code = ? WHERE a.id = ?`,
          [jti, sessionId, warehouse, accountId],
        );
        if (!row) return { revoked: true, account: undefined, warehouse: undefined };
        const { revoked, whCode, whNameZh, whNameEn, whClaim, ...account } = row;
        return { revoked: !!revoked, account, warehouse: whCode ? { code: whCode, nameZh: whNameZh, nameEn: whNameEn, isClaimWarehouse: whClaim } : undefined };
      },
      account: (id) => db.get<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM account WHERE id = ?`, [id]),
      accountByUserId: (uid) => db.get<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM account WHERE user_id = ?`, [uid]),
      warehouse: (code) =>
        db.get<WarehouseRow>(`SELECT code, name_zh AS "nameZh", name_en AS "nameEn", is_claim_warehouse AS "isClaimWarehouse" FROM warehouse WHERE code = ?`, [
          code,
        ]),
    };
    app.decorate('tokens', tokens);
    app.decorateRequest('principal', null);
    app.decorateRequest('locale', metadata.app.defaultLocale);

    app.addHook('onRequest', async (req) => {
      req.locale = pickLocale(req.headers['accept-language']) ?? metadata.app.defaultLocale;
    });

    /**
     * Verifies the bearer token and builds the principal; throws 401 on any problem. `mfaPending`:
     * the account's profile requires two-step verification and the account has not enrolled yet.
     */
    const identify = async (req: FastifyRequest, reply: FastifyReply): Promise<{ principal: Principal; mfaPending: boolean }> => {
      const h = req.headers.authorization;
      if (!h || !/^Bearer [A-Za-z0-9._-]+$/.test(h)) throw unauthorized();
      let claims: TokenClaims;
      try {
        claims = await req.jwtVerify<TokenClaims>();
      } catch {
        throw unauthorized('error.sessionExpired');
      }
      // tokens made before sessions had ids are their own session
      const sessionId = claims.sid ?? claims.jti;
      const { revoked, account, warehouse: wh } = await tokens.session(claims.jti, sessionId, Number(claims.sub), String(claims.wh));
      if (revoked) throw unauthorized('error.sessionExpired');
      if (!account || account.userId !== claims.uid) throw unauthorized('error.sessionExpired');
      if (account.sessionsValidFrom && (claims.ms ?? claims.iat * 1000) < Date.parse(account.sessionsValidFrom)) throw unauthorized('error.sessionExpired');
      if (account.status === '601') throw unauthorized('error.userLocked');
      if (account.status === '603') throw unauthorized('error.noRight');
      if (!wh) throw unauthorized('error.sessionExpired');
      const profile = profileOfType(account.accountType);
      const prof = metadata.access.profiles[profile];
      const lang: Locale = isLocale(claims.lang) ? claims.lang : metadata.app.defaultLocale;
      if (!req.headers['accept-language']) req.locale = lang;
      // a token close to its end is replaced: the client stores what comes back in this header
      const now = Math.floor(Date.now() / 1000);
      const sessionLeft = (claims.at ?? claims.iat) + metadata.app.token.maxSessionSeconds - now;
      if (claims.exp - now < metadata.app.token.refreshBeforeSeconds && sessionLeft > claims.exp - now) {
        const fresh = tokens.issue(account, claims.wh, lang, { authTime: claims.at ?? claims.iat, sessionId });
        reply.header(REFRESH_HEADER, fresh.token);
      }
      const principal: Principal = {
        accountId: account.id,
        userId: account.userId,
        name: account.name,
        profile,
        accountType: account.accountType,
        role: prof.role,
        admin: prof.admin,
        supplierCode: prof.supplierScoped ? account.departmentId : null,
        departmentId: account.departmentId,
        departmentName: account.departmentName,
        warehouse: wh.code,
        warehouseName: req.locale === 'en-US' ? wh.nameEn : wh.nameZh,
        isClaimWarehouse: !!wh.isClaimWarehouse,
        accountStatus: account.status,
        locale: req.locale,
        tokenId: claims.jti,
        sessionId,
        tokenExp: claims.exp,
        authTime: claims.at ?? claims.iat,
      };
      return { principal, mfaPending: mfaRequiredFor.has(profile) && !account.totpEnabled };
    };

    app.decorate('authenticate', (o: { allowMustChange?: boolean; allowMfaEnrolment?: boolean } = {}) => async (req: FastifyRequest, reply: FastifyReply) => {
      const { principal: p, mfaPending } = await identify(req, reply);
      // 602: the password must be changed before anything else
      if (p.accountStatus === '602' && !o.allowMustChange) throw forbidden('error.passwordMustChange');
      // then an account whose type requires two-step verification must set it up
      if (mfaPending && !o.allowMustChange && !o.allowMfaEnrolment) throw forbidden('error.mfaEnrolmentRequired');
      req.principal = p;
    });
    const optional = (acceptPending: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
      if (!req.headers.authorization) return;
      try {
        const { principal: p, mfaPending } = await identify(req, reply);
        if (acceptPending || (p.accountStatus !== '602' && !mfaPending)) req.principal = p;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
      }
    };
    app.decorate('optionalAuth', optional(false));
    app.decorate('optionalSession', optional(true));
  },
  { name: 'auth' },
);
