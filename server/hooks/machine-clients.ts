/**
 * machineClient.validate: a client may only be granted interfaces that metadata declares inbound
 * (metadata/interfaces.json "inbound"); an outbound or unknown code is refused on the field.
 */
import type { MachineClient } from '../generated/types.ts';
import type { MessageKey } from '../generated/hooks.ts';
import type { ValidateHook } from '../engine/hook-types.ts';

/** The codes of a grant list ("INTF0002,INTF0011"), trimmed, without empties. */
export const grantedCodes = (list: string | null | undefined): string[] =>
  String(list ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);

export const validateGrants: ValidateHook<MachineClient, MessageKey> = (ctx) => {
  const r = ctx.after;
  if (!r) return;
  const inbound = ctx.meta.outbox?.inbound ?? {};
  const unknown = grantedCodes(r.interfaces).filter((c) => !inbound[c]);
  if (unknown.length) ctx.fieldError('interfaces', 'validation.unknownInterface', { value: unknown.join(', ') });
};
