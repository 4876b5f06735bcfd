/**
 * Machine clients: systems (the supplier-relationship system, the ERP, dealer management, finance)
 * that feed the portal through the inbound interfaces. OAuth 2.0 client credentials on the same
 * `/connect/token` as people (`grant_type=client_credentials`, `client_id` + `client_secret` in the
 * form, or HTTP Basic): the answer is a short-lived JWT for an audience of its own, carrying only
 * the interfaces the client is granted. A person's token is for another audience, so it never
 * passes `authenticateClient`, and a client's token never passes the person's authentication
 * (plugins/auth.ts accepts only its own audience): no person calls an interface, no client a screen.
 *
 * The client row is read on every call, so disabling a client or taking a grant away works at once;
 * the previous secret of a rotation works until it is retired (entity machineClient).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { metadata } from '../generated/index.ts';
import { translate } from '../engine/i18n.ts';
import { AppError, forbidden, unauthorized } from '../engine/errors.ts';
import type { Principal } from '../engine/principal.ts';
import type { Db } from '../db/types.ts';
import { AUDIENCE } from '../plugins/auth.ts';
import { secretMatches } from '../inbound/secrets.ts';
import { grantedCodes } from '../hooks/machine-clients.ts';

export const CLIENT_AUDIENCE = 'supplier-portal:client';
/** a client token lives 15 minutes; the sender asks for a new one with its secret */
export const CLIENT_TOKEN_SECONDS = 900;
/** last use is written at most this often per client (a write per batch would serialise the senders) */
const LAST_USE_RESOLUTION_MS = 60_000;

interface ClientClaims {
  typ: 'client';
  sub: string;
  cid: number;
  itf: string[];
  jti: string;
  exp: number;
}

export interface ClientRow {
  id: number;
  clientId: string;
  name: string;
  interfaces: string;
  status: string;
  secretHash: string | null;
  previousSecretHash: string | null;
  previousSecretValid: number | boolean | null;
  lastUsedAt: string | null;
}

/** The caller of an inbound interface: the client and the interfaces it may call now. */
export interface ClientPrincipal {
  id: number;
  clientId: string;
  name: string;
  interfaces: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    client: ClientPrincipal | null;
  }
}

const ACTIVE = metadata.entities.machineClient ? metadata.codeTables.machineClientStatus.values.find((v) => v.key === 'active')!.code : '1';
const CLIENT_COLUMNS = `id, client_id AS "clientId", name, interfaces, status, secret_hash AS "secretHash", previous_secret_hash AS "previousSecretHash",
  previous_secret_valid AS "previousSecretValid", last_used_at AS "lastUsedAt"`;

const clientById = (db: Db, id: number) => db.get<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM machine_client WHERE id = ?`, [id]);
const clientByClientId = (db: Db, clientId: string) => db.get<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM machine_client WHERE client_id = ?`, [clientId]);

/** The granted codes that metadata declares inbound (a grant of a code no longer declared is inert). */
const usableGrants = (row: ClientRow): string[] => grantedCodes(row.interfaces).filter((c) => metadata.outbox?.inbound[c]);

/** The identity the engine writes with for a client: its client ID in audit trails and createdBy, no supplier scope. */
export function clientActor(c: ClientPrincipal, locale: Principal['locale']): Principal {
  const prof = metadata.access.profiles.internal;
  return {
    accountId: 0,
    userId: c.clientId,
    name: c.name,
    profile: 'internal',
    accountType: prof.accountType,
    role: prof.role,
    admin: false,
    supplierCode: null,
    departmentId: c.clientId,
    departmentName: c.name,
    warehouse: '',
    warehouseName: '',
    isClaimWarehouse: true,
    accountStatus: '0',
    locale,
    tokenId: '',
    sessionId: '',
    tokenExp: 0,
    authTime: 0,
  };
}

/**
 * client_id and client_secret from the form, or from `Authorization: Basic` (RFC 6749 2.3.1: each
 * form-urlencoded, then joined by ':'). null: a Basic header whose parts are not valid %-encoding
 * (`a%:b`), a malformed request (400), not a refused client.
 */
function credentialsOf(req: FastifyRequest, b: Record<string, string | undefined>): { id: string; secret: string } | null {
  const h = req.headers.authorization;
  if (h && /^Basic [A-Za-z0-9+/=]+$/.test(h)) {
    const decoded = Buffer.from(h.slice(6), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) {
      try {
        return { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
      } catch (err) {
        if (err instanceof URIError) return null;
        throw err;
      }
    }
  }
  return { id: (b.client_id ?? '').trim(), secret: b.client_secret ?? '' };
}

/** A refused token request: the OAuth error (RFC 6749 5.2) beside the usual code and message, never cached. */
function tokenRefusal(req: FastifyRequest, reply: FastifyReply, status: number, error: string, code: string) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .send({ error, code, message: translate(req.locale, code) });
}

/** POST /connect/token with grant_type=client_credentials (called by routes/connect.ts). */
export async function clientCredentialsGrant(app: FastifyInstance, db: Db, req: FastifyRequest, reply: FastifyReply, b: Record<string, string | undefined>) {
  const credentials = credentialsOf(req, b);
  if (!credentials) {
    // RFC 6749 5.2: a malformed request
    return tokenRefusal(req, reply, 400, 'invalid_request', 'error.badRequest');
  }
  const { id, secret } = credentials;
  const row = id && secret ? await clientByClientId(db, id) : undefined;
  const ok = !!row && (secretMatches(secret, row.secretHash) || (!!row.previousSecretValid && secretMatches(secret, row.previousSecretHash)));
  if (!row || !ok || row.status !== ACTIVE) {
    // one answer for an unknown client, a wrong secret and a disabled client (RFC 6749 5.2: 401 invalid_client)
    req.log.warn({ event: 'clientToken', outcome: 'refused', clientId: id.slice(0, 50) }, 'client token refused');
    return tokenRefusal(req, reply.header('www-authenticate', 'Basic realm="supplier-portal"'), 401, 'invalid_client', 'error.invalidClient');
  }
  const itf = usableGrants(row);
  const token = app.jwt.sign(
    { typ: 'client', sub: row.clientId, cid: row.id, itf, jti: randomUUID() },
    { aud: CLIENT_AUDIENCE, expiresIn: CLIENT_TOKEN_SECONDS },
  );
  await db.run(`UPDATE machine_client SET last_used_at = ? WHERE id = ?`, [new Date().toISOString(), row.id]);
  req.log.info({ event: 'clientToken', outcome: 'ok', clientId: row.clientId }, 'client token');
  return reply.header('cache-control', 'no-store').send({ access_token: token, token_type: 'Bearer', expires_in: CLIENT_TOKEN_SECONDS, scope: itf.join(' ') });
}

/**
 * preHandler of the inbound interfaces: a valid client token of an active client, else 401; a
 * person's (valid) token is a 403 error.clientOnly. Sets req.client with the interfaces both the
 * token and the client's current grant allow.
 */
export function authenticateClient(app: FastifyInstance, db: Db) {
  return async (req: FastifyRequest): Promise<void> => {
    const h = req.headers.authorization;
    if (!h || !/^Bearer [A-Za-z0-9._-]+$/.test(h)) throw unauthorized();
    const token = h.slice(7);
    let claims: ClientClaims;
    try {
      claims = app.jwt.verify<ClientClaims>(token, { allowedAud: CLIENT_AUDIENCE });
    } catch {
      let person = false;
      try {
        app.jwt.verify(token, { allowedAud: AUDIENCE });
        person = true;
      } catch {
        // neither: expired or forged
      }
      if (person) throw forbidden('error.clientOnly');
      throw unauthorized('error.sessionExpired');
    }
    if (claims.typ !== 'client' || typeof claims.cid !== 'number' || !Array.isArray(claims.itf)) throw unauthorized('error.sessionExpired');
    const row = await clientById(db, claims.cid);
    if (!row || row.clientId !== claims.sub || row.status !== ACTIVE) throw unauthorized('error.sessionExpired');
    const now = Date.now();
    if (!row.lastUsedAt || now - Date.parse(row.lastUsedAt) > LAST_USE_RESOLUTION_MS)
      await db.run(`UPDATE machine_client SET last_used_at = ? WHERE id = ?`, [new Date(now).toISOString(), row.id]);
    const current = new Set(usableGrants(row));
    req.client = { id: row.id, clientId: row.clientId, name: row.name, interfaces: claims.itf.filter((c) => current.has(c)) };
  };
}

/** 403 unless the client may call interface `code` now. */
export function assertGranted(client: ClientPrincipal, code: string): void {
  if (!client.interfaces.includes(code)) throw new AppError(403, 'error.interfaceNotGranted', { interface: code });
}
