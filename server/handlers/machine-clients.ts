/**
 * Machine clients (entity machineClient): registering one and rotating its secret. Both answer the
 * new secret this once, in the action's result; only its hash is stored (server/inbound/secrets.ts).
 * A rotation keeps the current secret valid as the previous one (until retireSecret or the next
 * rotation), so a sender can switch without a moment in which neither works. The engine audits
 * both (the hashes are private fields: the trail shows *** for them).
 */
import type { CollectionHandler } from '../engine/handler-types.ts';
import type { MachineClientRegisterInput, MachineClientRotateSecretInput } from '../generated/types.ts';
import { conflict, notFound, validationFailed } from '../engine/errors.ts';
import { newClientSecret } from '../inbound/secrets.ts';

export const register: CollectionHandler<MachineClientRegisterInput> = async (ctx) => {
  const taken = await ctx.db.get(`SELECT 1 AS x FROM machine_client WHERE LOWER(client_id) = LOWER(?)`, [ctx.input.clientId]);
  if (taken) throw conflict('error.duplicate', {}, { clientId: { key: 'validation.unique' } });
  // the grants are checked as on an update (hooks/machine-clients.ts)
  const errors = await ctx.validateRecord('machineClient', 'create', null, { ...ctx.input });
  if (errors) throw validationFailed(errors);
  const { secret, hash } = newClientSecret();
  const record = await ctx.insert('machineClient', { ...ctx.input, secretHash: hash, previousSecretValid: false, secretRotatedAt: ctx.now });
  return { ...record, secret };
};

export const rotateSecret: CollectionHandler<MachineClientRotateSecretInput> = async (ctx) => {
  const row = await ctx.db.get<{ id: number; secretHash: string }>(
    `SELECT m.id, m.secret_hash AS "secretHash" FROM machine_client m WHERE m.client_id = ?${ctx.db.dialect.forUpdate('m')}`,
    [ctx.input.clientId],
  );
  if (!row) throw notFound();
  const { secret, hash } = newClientSecret();
  const record = await ctx.update('machineClient', Number(row.id), {
    previousSecretHash: row.secretHash,
    previousSecretValid: true,
    secretHash: hash,
    secretRotatedAt: ctx.now,
  });
  return { ...record, secret };
};
