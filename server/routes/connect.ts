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
import type { FastifyInstance } from 'fastify';
import { isLocale } from '../engine/i18n.ts';
import type { Locale } from '../../codegen/runtime/model.ts';
import totpRoutes from '../auth/totp-routes.ts';
import { clientCredentialsGrant } from '../auth/client-credentials.ts';
import { createLoginGuard, type ConnectOptions } from './connect/login-guard.ts';
import { passwordGrant } from './connect/password-grant.ts';
import { mfaGrant } from './connect/mfa-grant.ts';
import { sessionRoutes } from './connect/session-routes.ts';
import { accountInfoRoutes } from './connect/account-info.ts';

export type { ConnectOptions } from './connect/login-guard.ts';

/** The connect routes, one module per route or step under server/routes/connect/. */
export default async function connectRoutes(app: FastifyInstance, opts: ConnectOptions) {
  const guard = createLoginGuard(app, opts);
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
      if (grant === 'mfa') return mfaGrant(app, guard, req, reply, b);
      if (grant === 'client_credentials') return clientCredentialsGrant(app, opts.db, req, reply, b);
      if (grant !== 'password') return guard.tokenError(req, reply, 400, 'error.badRequest');
      return passwordGrant(app, guard, req, reply, b, lang);
    },
  );
  sessionRoutes(app);
  accountInfoRoutes(app, guard);
  await app.register(totpRoutes, { db: opts.db, countFailure: guard.countFailure });
}
