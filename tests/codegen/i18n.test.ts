/**
 * Bilingual always: every label a screen, an entity, an action, a button or a code table can show
 * exists in zh-CN and en-US, and the Chinese catalogue really is Chinese (codegen's rule,
 * codegen/runtime/chinese-text.ts: a code value marked languageNeutral, "ISO 9001", may read the same).
 */
import { describe, expect, it } from 'vitest';
import { metadata, messages } from '../../server/generated/index.ts';
import { LOCALES, codeLabelKey, codeTableLabelKey } from '../../codegen/runtime/model.ts';
import { chineseLabelProblem } from '../../codegen/runtime/chinese-text.ts';

/** present in both languages, and Chinese in zh-CN by codegen's own rule (runtime/chinese-text.ts), which a code value may waive as language-neutral */
function expectLabel(key: string, where: string, languageNeutral = false) {
  for (const loc of LOCALES) {
    const text = messages[loc][key];
    expect(typeof text === 'string' && text.trim().length > 0, `${where}: "${key}" missing in ${loc}`).toBe(true);
  }
  expect(chineseLabelProblem(messages['zh-CN'][key], languageNeutral), `${where}: "${key}"`).toBeNull();
}

describe('every label exists in both languages', () => {
  it('code tables: the table and every value', () => {
    let n = 0;
    for (const t of Object.values(metadata.codeTables)) {
      expectLabel(codeTableLabelKey(t.name), `code table ${t.name}`);
      for (const v of t.values) {
        expectLabel(codeLabelKey(t.name, v.code), `code ${t.name}.${v.code}`, v.languageNeutral);
        n++;
      }
    }
    expect(n).toBeGreaterThan(300);
  });

  it('screens: title, columns, filters, tabs, related lists and buttons', () => {
    for (const s of metadata.screens) {
      expectLabel(s.titleKey, `screen ${s.name}`);
      for (const c of s.columns) expectLabel(c.labelKey, `screen ${s.name} column ${c.field}`);
      for (const f of s.filters) expectLabel(f.labelKey, `screen ${s.name} filter ${f.field}`);
      for (const t of s.tabs) expectLabel(t.titleKey, `screen ${s.name} tab ${t.key}`);
      for (const r of s.related) {
        expectLabel(r.titleKey, `screen ${s.name} related ${r.resource}`);
        for (const c of r.columns) expectLabel(c.labelKey, `screen ${s.name} related column ${c.field}`);
      }
      const entity = s.resource ? metadata.entities[metadata.resources[s.resource]] : undefined;
      for (const b of s.buttons) {
        const action = entity && Object.values(entity.actions).find((a) => a.button === b);
        expectLabel(metadata.access.buttons[b]?.labelKey ?? action!.labelKey, `screen ${s.name} button ${b}`);
      }
    }
  });

  it('entities: label, every field, every action and its inputs', () => {
    for (const e of Object.values(metadata.entities)) {
      expectLabel(e.labelKey, `entity ${e.name}`);
      for (const f of Object.values(e.fields)) expectLabel(f.labelKey, `field ${e.name}.${f.name}`);
      for (const a of Object.values(e.actions)) {
        expectLabel(a.labelKey, `action ${e.name}.${a.name}`);
        expectLabel(a.successKey, `action ${e.name}.${a.name} success`);
        for (const i of Object.values(a.input)) expectLabel(i.labelKey, `action ${e.name}.${a.name} input ${i.name}`);
      }
    }
  });

  it('menus, rules and the error catalogue', () => {
    expectLabel(metadata.app.titleKey, 'app title');
    for (const g of metadata.app.menuGroups) expectLabel(g.titleKey, `menu ${g.key}`);
    for (const r of Object.values(metadata.rules)) expectLabel(r.messageKey, `rule ${r.name}`);
    const errorKeys = Object.keys(messages['en-US']).filter((k) => k.startsWith('error.') || k.startsWith('message.') || k.startsWith('validation.'));
    expect(errorKeys.length).toBeGreaterThan(60);
    for (const k of errorKeys) expectLabel(k, 'message');
  });

  it('both catalogues have exactly the same keys', () => {
    expect(Object.keys(messages['zh-CN']).sort()).toEqual(Object.keys(messages['en-US']).sort());
  });

  it("the spec's messages of point 8 are there verbatim in English", () => {
    const en = messages['en-US'];
    expect(en['error.staleVersion']).toBe('The data has been modified by other user, please re-operation!');
    expect(en['error.userLocked']).toBe('The user is locked out, please contact administrator!');
    expect(en['error.sessionExpired']).toBe('Session expired!please log in again!');
    expect(en['message.shipSuccess']).toBe('Shipped successfully!');
    expect(en['message.noAnnouncement']).toBe('No Announcement!');
    expect(en['error.verificationFailed']).toBe('Verification failed, please Login again.');
  });
});
