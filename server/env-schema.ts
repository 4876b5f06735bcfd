/**
 * Every environment variable the portal reads, in one JSON Schema: its type and range, its default
 * and what it means. server/config.ts validates the environment against it (ajv, with the values
 * coerced from strings), docs/environment.md is its table (`npx tsx server/env-docs.ts` writes it;
 * tests/server/config.test.ts checks it is current), and a start-up error names the variable, what
 * it must be and (unless it is a secret) the value it got.
 *
 * Besides JSON Schema, each variable says `expected` (the phrase of the error: "PORT must be a port
 * number") and optionally `secret` (the value is never repeated in an error) and `defaultText` (a
 * default that depends on other settings, for the docs; `default` is applied by the validator).
 */

export interface EnvVariable {
  type: 'string' | 'integer';
  description: string;
  expected: string;
  default?: string | number;
  defaultText?: string;
  secret?: boolean;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  /** the module that reads it, when not server/config.ts (which still checks it at start-up) */
  readElsewhere?: string;
}

const onOff = (what: string, dflt: 'on' | 'off'): Pick<EnvVariable, 'type' | 'enum' | 'default' | 'expected'> & { description: string } => ({
  type: 'string',
  enum: ['on', 'off'],
  default: dflt,
  expected: '"on" or "off"',
  description: what,
});

/** The variables, in the order docs/environment.md lists them. An empty value counts as unset. */
export const ENV_VARIABLES: Record<string, EnvVariable> = {
  PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000, expected: 'a port number', description: 'HTTP port (API and admin on the same origin)' },
  HOST: { type: 'string', default: '127.0.0.1', expected: 'a listen address', description: 'listen address' },
  PORTAL_DB: {
    type: 'string',
    default: 'data/portal.db',
    expected: 'a file path',
    description: 'SQLite file; created and filled with demo data on first start',
  },
  DATABASE_URL: {
    type: 'string',
    pattern: '^postgres(ql)?://',
    secret: true,
    expected: 'a URL that starts with postgres:// or postgresql://',
    description:
      '`postgres://user:password@host:port/db`: run on PostgreSQL instead of SQLite (tables created and filled with demo data on first start, as with SQLite); see [scaling-out.md](scaling-out.md)',
  },
  PORTAL_WORKERS: {
    type: 'integer',
    minimum: 1,
    maximum: 64,
    default: 1,
    expected: 'a whole number from 1 to 64',
    description: 'server processes on the one port; see [scaling-out.md](scaling-out.md)',
  },
  PG_POOL_MAX: {
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    default: 10,
    expected: 'a whole number from 1 to 1000',
    readElsewhere: 'server/db/postgres.ts',
    description: 'PostgreSQL connections per server process',
  },
  PORTAL_SEED: {
    type: 'string',
    enum: ['demo', 'none'],
    default: 'demo',
    expected: '"demo" or "none"',
    description: '`demo` fills an empty database, `none` leaves it empty',
  },
  JWT_SECRET: {
    type: 'string',
    minLength: 32,
    secret: true,
    defaultText: 'generated',
    expected: 'at least 32 characters',
    description:
      'the token-signing secret; when unset one is generated once and kept beside the SQLite file (`jwt-secret`, mode 600) or in the PostgreSQL database (`_settings`), shared by every process',
  },
  LOG_LEVEL: {
    type: 'string',
    enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    defaultText: '`info` (`warn` under `npm run dev`)',
    expected: 'one of fatal, error, warn, info, debug, trace, silent',
    readElsewhere: 'server/prepare.ts',
    description: 'pino log level; `debug` or `trace` adds the stack to a start-up error',
  },
  PORTAL_PUBLIC_URL: {
    type: 'string',
    pattern: '^https?://',
    defaultText: '`http://<HOST>:<PORT>` (`127.0.0.1` for `0.0.0.0`)',
    expected: 'a URL that starts with http:// or https://',
    description:
      "the portal's address as users open it (`https://portal.example.com`): the base of every link in an e-mail (login page, forgot-password page, reset links). Never taken from a request's `Host` header, which a client can forge; set it in production (the server warns when it listens beyond the loopback without it)",
  },
  SMTP_URL: {
    type: 'string',
    pattern: '^smtps?://',
    secret: true,
    expected: 'a URL that starts with smtp:// or smtps://',
    description:
      'send e-mail over SMTP with nodemailer: `smtp://user:password@host:587` (with a user name STARTTLS is required: a server that offers none gets no credentials), `smtps://user:password@host:465`',
  },
  SMTP_ALLOW_PLAINTEXT: {
    type: 'string',
    enum: ['true', 'false'],
    default: 'false',
    expected: '"true" or "false"',
    description:
      '`true` lets an `smtp://` URL with credentials go to a server without STARTTLS: a local relay on the same machine only ([security-round-three.md](security-round-three.md))',
  },
  PORTAL_MAIL_DIR: {
    type: 'string',
    defaultText: '`mail/` beside the SQLite file; `data/mail` on PostgreSQL',
    expected: 'a folder path',
    description: 'without `SMTP_URL`, each mail is written here as an `.eml` file (open it in any mail program) and its path logged',
  },
  PORTAL_MAIL_FROM: {
    type: 'string',
    defaultText: '`Supplier portal <no-reply@localhost>`',
    expected: 'a mail address',
    description: 'the From header of the mails',
  },
  PORTAL_OUTBOX: onOff('`off` stops this process from sending outbox messages (they are still written; another process sends them)', 'on'),
  PORTAL_OUTBOX_INTERVAL_MS: {
    type: 'integer',
    minimum: 50,
    maximum: 3_600_000,
    default: 2000,
    expected: 'a whole number of milliseconds from 50 to 3600000',
    description: 'pause of the outbox dispatcher between two passes when nothing was due',
  },
  PORTAL_INTERFACES_FILE: {
    type: 'string',
    expected: 'a file path',
    readElsewhere: 'server/outbox/dispatcher.ts',
    description:
      'a JSON file of endpoints, `{ "INTF0004": { "url": "...", "headers": { ... }, "timeoutSeconds": 10 } }`, read again whenever it changes; the `PORTAL_INTERFACE_<CODE>_URL` and `_TOKEN` variables (below the table) win over it',
  },
  PORTAL_METRICS_TOKEN: {
    type: 'string',
    minLength: 16,
    secret: true,
    expected: 'at least 16 characters',
    description:
      'serve Prometheus metrics on `GET /metrics` to scrapers sending `Authorization: Bearer <token>`; unset: no metrics ([operations.md](operations.md#metrics))',
  },
  PORTAL_DRAIN_MS: {
    type: 'integer',
    minimum: 0,
    maximum: 120_000,
    default: 3000,
    expected: 'a whole number of milliseconds from 0 to 120000',
    description: 'on SIGTERM, how long a process answers `/readyz` 503 while still serving, before it finishes its requests and stops',
  },
  PORTAL_TRUST_REQUEST_ID: onOff('`on`: take a well-formed `X-Request-Id` of the proxy in front as the request id of the logs', 'off'),
  PORTAL_CJK_FONT: {
    type: 'string',
    defaultText: "the npm package's Noto Sans SC, then the system's CJK fonts",
    expected: 'a font file path',
    readElsewhere: 'server/documents/fonts.ts',
    description: 'a TrueType (.ttf) font that covers Chinese, for the PDFs (delivery cards); tried first',
  },
  PG_BIN: {
    type: 'string',
    defaultText: 'the newest `/usr/lib/postgresql/*/bin`, else `PATH`',
    expected: 'a folder path',
    readElsewhere: 'server/ops/backup.ts',
    description: "`npm run backup` / `restore` on PostgreSQL: the folder of `pg_dump` and `pg_restore` (the tests' throw-away server uses it too)",
  },
  VITE_PORT: {
    type: 'integer',
    minimum: 1,
    maximum: 65535,
    default: 5173,
    expected: 'a port number',
    readElsewhere: 'codegen/dev.ts',
    description: "`npm run dev` only: the port of the admin's dev server (the API's is `PORT`)",
  },
};

/** The JSON Schema ajv checks the environment against (the extra words of EnvVariable left out). */
export function envJsonSchema(): Record<string, unknown> {
  const properties = Object.fromEntries(
    Object.entries(ENV_VARIABLES).map(([name, v]) => {
      const { expected: _e, secret: _s, defaultText: _d, readElsewhere: _r, ...schema } = v;
      return [name, schema];
    }),
  );
  return { type: 'object', properties };
}
