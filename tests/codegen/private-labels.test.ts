/**
 * Private names out of the public bundle (issue 25 point 7): the admin's message bundles, which
 * anybody downloads before logging in, name no private column (the password hash, the TOTP seed
 * and recovery codes, ...); the server's catalogue keeps every label.
 */
import { describe, expect, it } from 'vitest';
import en from '../../admin/src/generated/messages.en-US.json';
import zh from '../../admin/src/generated/messages.zh-CN.json';
import { messages, metadata } from '../../server/generated/index.ts';
import { bundledMessages } from '../../codegen/runtime/public-metadata.ts';

const privateLabels = Object.values(metadata.entities).flatMap((e) =>
  Object.entries(e.fields)
    .filter(([, f]) => f.private)
    .map(([name]) => `field.${e.name}.${name}`),
);

describe("the admin's message bundles", () => {
  it('hold no label of a private field, in either language', () => {
    expect(privateLabels).toEqual(expect.arrayContaining(['field.account.passwordHash', 'field.account.totpSecret', 'field.account.totpRecoveryCodes']));
    for (const bundle of [en, zh] as Record<string, string>[]) {
      expect(privateLabels.filter((k) => k in bundle)).toEqual([]);
      expect(JSON.stringify(bundle)).not.toMatch(/passwordHash|totpSecret|totpRecoveryCodes/);
    }
  });

  it('hold every other message; the server keeps the private labels', () => {
    const server = messages as unknown as Record<string, Record<string, string>>;
    const kept = Object.keys(bundledMessages(metadata, server['en-US']));
    expect(kept.filter((k) => !(k in en))).toEqual([]);
    const dropped = Object.keys(server['en-US']).filter((k) => !kept.includes(k));
    expect(dropped.sort()).toEqual(privateLabels.filter((k) => k in server['en-US']).sort());
    expect(server['zh-CN']['field.account.passwordHash']).toBeTruthy();
  });
});
