/**
 * A field that holds a user ID (`"holds": "userId"`, issue 20 point 6): an action that sets a
 * field to "$user" needs the flag (screens show the person's name), the flag is for string fields
 * only, and the real metadata sets it on every field an action fills with the acting user's ID.
 */
import { describe, expect, it } from 'vitest';
import { useMetadataCopy } from './metadata-copy.ts';

const m = useMetadataCopy('codegen-person-fields-');
const { edit, expectError } = m;

describe('"holds": "userId"', () => {
  it('is required on a field an action sets to "$user"', async () => {
    let audits: string[] = [];
    edit('entities/stock-adjustment.json', (j) => {
      delete j.fields.auditor.holds;
      audits = Object.entries(j.actions as Record<string, { set?: Record<string, string> }>)
        .filter(([, a]) => a.set?.auditor === '$user')
        .map(([n]) => n);
    });
    expect(audits.length).toBeGreaterThan(0);
    await expectError(
      'entities/stock-adjustment.json',
      `/actions/${audits[0]}/set/auditor`,
      new RegExp(`action "${audits[0]}" sets "auditor" to "\\$user" \\(a user ID\\): the field needs "holds": "userId"`),
    );
  });

  it('is only for string fields', async () => {
    edit('entities/stock-adjustment.json', (j) => (j.fields.id2 = { type: 'integer', minimum: 0, maximum: 9, holds: 'userId' }));
    await expectError('entities/stock-adjustment.json', '/fields/id2/holds', /holds "userId" is only for string fields/);
  });
});

describe('the real metadata', () => {
  it('flags every field an action sets to "$user", and only string fields', async () => {
    const { model: meta, errors } = await m.run();
    expect(errors).toEqual([]);
    if (!meta) throw new Error('no model');
    const set: string[] = [];
    for (const e of Object.values(meta.entities))
      for (const a of Object.values(e.actions)) for (const [f, v] of Object.entries(a.set)) if (v === '$user') set.push(`${e.name}.${f}`);
    const flagged = Object.values(meta.entities).flatMap((e) =>
      Object.values(e.fields)
        .filter((f) => f.holds === 'userId')
        .map((f) => `${e.name}.${f.name}`),
    );
    expect(new Set(set)).toEqual(new Set(flagged));
    expect(flagged).toContain('stockAdjustment.auditor');
  });
});
