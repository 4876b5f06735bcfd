/**
 * The OpenAPI description of every route that is not generated from an entity: the login and
 * session calls of the spec (with their legacy envelope), the caller's own account, the metadata,
 * this document and its page. Keyed by "METHOD url" exactly as the route is registered; the
 * request schemas come from the route itself (what it validates), this file adds what a caller
 * needs besides: summary, answers, errors. A route added to the server without an entry here (and
 * not generated from metadata) fails tests/server/openapi.test.ts.
 */
import { inboundRouteDoc } from './inbound-doc.ts';
import { homeRouteDocs } from './home-routes.ts';

export interface FixedRouteDoc {
  tag: 'session' | 'account' | 'metadata' | 'operations' | 'interfaces' | 'home';
  operationId: string;
  summary: string;
  description?: string;
  /** no token (security: none) */
  anonymous?: boolean;
  /** a token is optional: the answer depends on it */
  optionalAuth?: boolean;
  /** the request body's media type when the route's schema does not say */
  consumes?: string;
  responses: Record<string, unknown>;
  /** the request body, for a route that validates it itself */
  requestBody?: unknown;
  /** error answers in the common shape */
  errors?: number[];
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
const envelope = (data?: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['status'],
  properties: { status: { const: 200, description: 'the legacy envelope: 200 (or 1) is success' }, ...(data ? { data } : {}), ...extra },
});
const user = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    userId: { type: 'string' },
    departmentName: { type: ['string', 'null'] },
    departmentId: { type: ['string', 'null'] },
    accountType: { type: 'string', description: 'code of table accountType' },
    roleId: { enum: ['sys', 'user', 'admin'] },
    roles: { type: 'array', items: { enum: ['sys', 'user', 'admin'] } },
    admin: { type: 'boolean' },
    profile: { enum: ['internal', 'dealer', 'logistics', 'supplier', 'supplierAdmin'] },
    accountStatus: { type: 'integer', description: '0 normal, 602 must change the password' },
    warehouseCode: { type: 'string' },
    warehouseName: { type: ['string', 'null'] },
    isClaimWarehouse: { type: 'boolean' },
    email: { type: ['string', 'null'] },
    mobile: { type: ['string', 'null'] },
    telephone: { type: ['string', 'null'] },
    mfa: {
      type: 'object',
      properties: {
        enabled: { type: 'boolean' },
        required: { type: 'boolean' },
        enrolledAt: { type: ['string', 'null'] },
        recoveryCodesLeft: { type: 'integer' },
      },
    },
  },
};
const token = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'account_status'],
  properties: {
    access_token: { type: 'string' },
    token_type: { const: 'Bearer' },
    expires_in: { type: 'integer', description: 'seconds' },
    account_status: { type: 'integer', description: '0, or 602: every business call answers 403 error.passwordMustChange until the password is changed' },
    password_notice: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, days: { type: 'integer' } } },
    mfa_enrolment_required: { type: 'boolean' },
  },
};
const tokenError = {
  type: 'object',
  required: ['error', 'code', 'message'],
  properties: {
    error: { enum: ['invalid_grant', 'invalid_request', 'mfa_required'] },
    code: { type: 'string' },
    message: { type: 'string' },
    mfa_token: { type: 'string', description: 'with error mfa_required: the ticket for grant_type=mfa (5 minutes, used once)' },
    expires_in: { type: 'integer' },
  },
};
const probe = (values: string[]) => ({ type: 'object', required: ['status'], properties: { status: { enum: values } } });
const refreshed = { 'x-refreshed-token': { schema: { type: 'string' }, description: 'a fresh token for this session' } };
const text = (media: string, description: string) => ({ '200': { description, content: { [media]: { schema: { type: 'string' } } } } });

export function fixedRouteDocs(): Record<string, FixedRouteDoc> {
  return {
    'POST /api/interfaces/:code': inboundRouteDoc(),
    ...homeRouteDocs(),
    'POST /connect/token': {
      tag: 'session',
      operationId: 'session.token',
      anonymous: true,
      consumes: 'application/x-www-form-urlencoded',
      summary: 'Log in: a bearer token for a user, password and warehouse (or the second step of two-step verification)',
      description:
        '`grant_type=password` with `username`, `password`, `warehouse` (PDC code) and optionally `lang`; or `grant_type=mfa` with `mfa_token` and `code` (a current TOTP code or a recovery code); or, for a machine client, `grant_type=client_credentials` with `client_id` and `client_secret` (or HTTP Basic): a 15-minute token for its granted inbound interfaces, `401 invalid_client` otherwise. A wrong password answers alike for unknown, existing and locked accounts; failures count toward the lockout. Limited per address and per account.',
      responses: {
        '200': { description: 'logged in', content: json(token) },
        '400': {
          description:
            'refused: `invalid_grant` with the code (error.loginFailed, error.userLocked, error.noRight, error.mfaInvalidCode, error.mfaExpired), or `mfa_required` with the ticket for the second step',
          content: json(tokenError),
        },
        '429': { description: 'too many attempts (error.rateLimited)', content: json(tokenError) },
        '503': {
          description: 'password checks are busy (error.loginBusy, `temporarily_unavailable`): try again after `Retry-After` seconds',
          content: json(tokenError),
        },
      },
    },
    'POST /connect/logout': {
      tag: 'session',
      operationId: 'session.logout',
      summary: 'Log out: the session ends (every token refreshed from this one stops working)',
      responses: { '200': { description: 'logged out', content: json(envelope()) } },
      errors: [401],
    },
    'POST /connect/warehouse': {
      tag: 'session',
      operationId: 'session.warehouse',
      summary: 'Switch warehouse: a token of the same session for another PDC; the old one is revoked',
      responses: { '200': { description: 'the new token', content: json({ ...envelope(), properties: { ...envelope().properties, ...token.properties } }) } },
      errors: [400, 401, 403],
    },
    'POST /supplierApi/accountInfo/info': {
      tag: 'account',
      operationId: 'me.info',
      summary: "The caller's user info and the server time",
      responses: {
        '200': {
          description: 'the user',
          headers: refreshed,
          content: json(envelope({ type: 'object', properties: { user, serverTime: { type: 'string', format: 'date-time' } } })),
        },
      },
      errors: [401],
    },
    'POST /supplierApi/accountInfo/update': {
      tag: 'account',
      operationId: 'me.update',
      summary: "Change the caller's name, e-mail, phone numbers and password (the personal-info dialog; a 602 account must send a new password)",
      responses: {
        '200': {
          description: 'saved',
          content: json(envelope({ type: 'object', properties: { accountStatus: { type: 'integer' } } }, { message: { type: 'string' } })),
        },
      },
      errors: [400, 401, 429],
    },
    'POST /supplierApi/accountInfo/totp/setup': {
      tag: 'account',
      operationId: 'me.totpSetup',
      summary: 'Two-step verification, step 1: a new pending secret with its otpauth:// URI and QR code (asks for the password again)',
      responses: {
        '200': {
          description: 'the pending secret',
          content: json(
            envelope({
              type: 'object',
              properties: { secret: { type: 'string' }, uri: { type: 'string' }, qrCode: { type: 'string', description: 'an SVG data: URL' } },
            }),
          ),
        },
      },
      errors: [400, 401, 409, 429],
    },
    'POST /supplierApi/accountInfo/totp/enable': {
      tag: 'account',
      operationId: 'me.totpEnable',
      summary: 'Two-step verification, step 2: turn it on with a current code of the pending secret; answers the recovery codes, once',
      responses: {
        '200': {
          description: "on; the account's other sessions ended",
          headers: refreshed,
          content: json(
            envelope({ type: 'object', properties: { recoveryCodes: { type: 'array', items: { type: 'string' } } } }, { message: { type: 'string' } }),
          ),
        },
      },
      errors: [400, 401, 409, 429],
    },
    'POST /supplierApi/accountInfo/totp/disable': {
      tag: 'account',
      operationId: 'me.totpDisable',
      summary: 'Turn two-step verification off with a current code or a recovery code',
      responses: {
        '200': {
          description: "off; the account's other sessions ended",
          headers: refreshed,
          content: json(envelope(undefined, { message: { type: 'string' } })),
        },
      },
      errors: [400, 401, 409, 429],
    },
    'POST /api/auth/forgot': {
      tag: 'session',
      operationId: 'session.forgotPassword',
      anonymous: true,
      summary: 'Forgot password: mails a one-time link to set a new one, when the user ID (and the e-mail, when given) names an account with an address',
      description:
        'Always the same 202 answer after the same minimum time, whatever the user ID: it never tells whether an account exists or a mail was sent. Limited per address (429) and per user ID (no more mails; the answer stays the same).',
      responses: {
        '202': {
          description: 'asked (message.resetRequested)',
          content: json({ type: 'object', properties: { status: { const: 202 }, code: { type: 'string' }, message: { type: 'string' } } }),
        },
      },
      errors: [400, 429],
    },
    'POST /api/auth/reset/check': {
      tag: 'session',
      operationId: 'session.checkResetLink',
      anonymous: true,
      summary: "Whether a reset link (its token) is still good: the account's user ID and when the link expires",
      responses: {
        '200': {
          description: 'the link is good',
          content: json(envelope({ type: 'object', properties: { userId: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } } })),
        },
      },
      errors: [400, 429],
    },
    'POST /api/auth/reset': {
      tag: 'session',
      operationId: 'session.resetPassword',
      anonymous: true,
      summary: 'Set a new password with a reset link: the password rules and history apply; every session of the account ends; a locked account is unlocked',
      responses: { '200': { description: 'the password is set', content: json(envelope(undefined, { message: { type: 'string' } })) } },
      errors: [400, 409, 429],
    },
    'GET /api/meta': {
      tag: 'metadata',
      operationId: 'metadata.get',
      optionalAuth: true,
      summary:
        "The compiled metadata: without a token only the login screen's constants; with one the screens, entities, code tables and rules, and of the permission matrix the caller's own part",
      responses: {
        '200': {
          description: 'the metadata (ETag: hash and profile)',
          content: json({ type: 'object', required: ['hash', 'app'], properties: { hash: { type: 'string' }, app: { type: 'object' } } }),
        },
        '304': { description: 'unchanged (If-None-Match)' },
      },
    },
    'GET /api/openapi.json': {
      tag: 'metadata',
      operationId: 'metadata.openapi',
      summary: 'This document: the OpenAPI 3.1 description of every route, generated from the metadata and the routes the server registers',
      responses: { '200': { description: 'the document', content: json({ type: 'object', required: ['openapi', 'paths'] }) } },
      errors: [401],
    },
    'GET /api/docs': {
      tag: 'metadata',
      operationId: 'metadata.docs',
      anonymous: true,
      summary: "A page that shows this document (it reads the portal's session of the same browser to fetch it)",
      responses: text('text/html', 'the page'),
    },
    'GET /api/docs/docs.js': {
      tag: 'metadata',
      operationId: 'metadata.docsScript',
      anonymous: true,
      summary: 'The script of the documentation page',
      responses: text('text/javascript', 'the script'),
    },
    'GET /api/docs/docs.css': {
      tag: 'metadata',
      operationId: 'metadata.docsStyle',
      anonymous: true,
      summary: 'The style sheet of the documentation page',
      responses: text('text/css', 'the style sheet'),
    },
    'GET /healthz': {
      tag: 'operations',
      operationId: 'operations.health',
      anonymous: true,
      summary: 'Liveness: the process answers (no database call); a supervisor restarts a process that does not',
      responses: { '200': { description: 'alive', content: json(probe(['ok'])) } },
    },
    'GET /readyz': {
      tag: 'operations',
      operationId: 'operations.ready',
      anonymous: true,
      summary: 'Readiness: the database answers within a short timeout, every migration is applied and the process is not shutting down',
      description:
        'A load balancer sends requests only to processes that answer 200. A process that is shutting down answers 503 `draining` while it finishes its requests.',
      responses: {
        '200': { description: 'ready', content: json(probe(['ready'])) },
        '503': { description: 'not ready (the reason is logged, not told)', content: json(probe(['unavailable', 'draining'])) },
      },
    },
    'GET /metrics': {
      tag: 'operations',
      operationId: 'operations.metrics',
      anonymous: true,
      summary:
        'Prometheus metrics of the answering process (text format 0.0.4), for a scraper that sends `Authorization: Bearer <PORTAL_METRICS_TOKEN>`; 404 when that variable is unset',
      responses: text('text/plain', 'the metrics'),
      errors: [401, 404],
    },
  };
}
