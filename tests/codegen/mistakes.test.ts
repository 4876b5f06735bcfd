/**
 * Metadata mistakes the checker used to let through (issue 10, point 5), each on a broken copy of
 * the real metadata: a JSON syntax error is reported by line and column; a screen button that
 * nothing backs, and an action labelled like its own dialog's buttons, are errors; an unknown name
 * gets a "did you mean" from the valid choices.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useMetadataCopy } from './metadata-copy.ts';
import { closest, levenshtein } from '../../codegen/compile/suggest.ts';
import { jsonSyntaxError } from '../../codegen/json-syntax.ts';

const m = useMetadataCopy('codegen-mistakes-');
const { edit, errorsOf, expectError } = m;

describe('a JSON syntax error', () => {
  it('names the file, the line and the column, and what was expected there', async () => {
    const p = join(m.dir, 'metadata/screens/notice-list.json');
    const lines = readFileSync(p, 'utf8').split('\n');
    // line 3 is `  "name": "noticeList", "path": ...`: drop the comma after "noticeList"
    expect(lines[2]).toMatch(/^ {2}"name": "noticeList", "path"/);
    lines[2] = lines[2].replace('"noticeList",', '"noticeList"');
    writeFileSync(p, lines.join('\n'));
    const errs = await errorsOf();
    expect(errs).toEqual(['metadata/screens/notice-list.json:3:24: not valid JSON: expected "," or "}" after a property value, found "\\""']);
  });

  it('at the end of a cut-off file points past its last character', async () => {
    writeFileSync(join(m.dir, 'metadata/screens/notice-list.json'), '{\n  "name": ');
    expect(await errorsOf()).toEqual([
      'metadata/screens/notice-list.json:2:11: not valid JSON: expected a value (object, array, string, number, true, false or null), found the end of the file',
    ]);
  });

  it('the scanner finds the place of each kind of mistake and accepts valid JSON', () => {
    expect(jsonSyntaxError('{"a": [1, {"b": null}], "c": -1.5e3, "d": "\\u00e9\\n"}')).toBeNull();
    expect(jsonSyntaxError('{"a": 1,\n}')).toEqual({ line: 2, column: 1, message: 'expected a property name (no comma before "}"), found "}"' });
    expect(jsonSyntaxError('[1, 2,]')).toMatchObject({ line: 1, column: 7 });
    expect(jsonSyntaxError('{"a": tru}')).toMatchObject({ line: 1, column: 10, message: 'expected "true", found "}"' });
    expect(jsonSyntaxError('{"a": "x\ny"}')).toMatchObject({ line: 1, column: 9 });
    expect(jsonSyntaxError('{a: 1}')).toMatchObject({ line: 1, column: 2, message: 'expected a double-quoted property name, found "a"' });
    expect(jsonSyntaxError('{} {}')).toMatchObject({ line: 1, column: 4, message: 'expected the end of the file after the value, found "{"' });
    // whatever JSON.parse refuses, the scanner refuses too (and the reverse)
    for (const t of ['', ' ', '01', '1.', '-', '"\\x"', '{"a":1}}', 'nul', '[', '{"a"}', '1e', '"\t"', '\ufeff{}'])
      expect(jsonSyntaxError(t), JSON.stringify(t)).not.toBeNull();
    for (const t of ['0', '-0.5E+3', '"\\/"', ' [ ] ', '{"":{}}', 'true', '"日本"']) expect(jsonSyntaxError(t), JSON.stringify(t)).toBeNull();
  });
});

describe('a screen button', () => {
  it('that no action uses and that stands for no operation is an error', async () => {
    // "print" exists in access.json, but has no operation and no action of "notice" uses it
    edit('screens/notice-list.json', (j) => j.buttons.push('print'));
    await expectError(
      'screens/notice-list.json',
      '/buttons/6',
      /button "print" is backed by nothing: no action of entity "notice" has "button": "print" and metadata\/access.json gives the button no "operation"/,
    );
  });

  it('whose operation the entity grants to nobody is an error', async () => {
    edit('screens/order-search.json', (j) => j.buttons.push('add'));
    await expectError('screens/order-search.json', '/buttons/3', /button "add" performs "create", which entity "order" grants to nobody/);
  });

  it('that works on uploaded files, on an entity without any, is an error', async () => {
    edit('screens/order-search.json', (j) => j.buttons.push('upload'));
    await expectError(
      'screens/order-search.json',
      '/buttons/3',
      /button "upload" works on uploaded files, but no file entity has entity "order" as its scope.parent/,
    );
  });

  it('of an internal action backs nothing (the action has no route and no button)', async () => {
    // hazardReceipt.markUploaded is internal and uses the button "upload"; without the file child
    // that uploads go to, the screen's upload button has nothing behind it
    edit('entities/hazard-receipt-document.json', (j) => delete j.file.onUpload);
    edit('entities/hazard-receipt-document.json', (j) => (j.scope = {}));
    const errs = await errorsOf();
    expect(
      errs.some((e) => /^metadata\/screens\/rec-confirm\.json#\/buttons\/\d+: button "upload" works on uploaded files/.test(e)),
      errs.join('\n'),
    ).toBe(true);
  });

  it('inside an entity file is reported at its pointer there', async () => {
    edit('entities/notice.json', (j) => {
      j.screens = [
        {
          name: 'noticeMini',
          path: '/notice/mini',
          kind: 'list',
          titleKey: 'route.noticeList',
          roles: ['sys'],
          columns: ['title'],
          buttons: ['search', 'print'],
        },
      ];
    });
    await expectError('entities/notice.json', '/screens/0/buttons/1', /button "print" is backed by nothing/);
  });
});

describe("an action labelled like its dialog's own buttons", () => {
  it('is an error when its text equals a dialog button in one language', async () => {
    // repeal asks for confirmation: its dialog shows "Cancel" and "Confirm"
    edit('i18n/en-US/core.json', (j) => (j.action.notice.repeal = ' cancel '));
    await expectError(
      'entities/notice.json',
      '/actions/repeal',
      /action "repeal" is labelled " cancel " in en-US, like the "ui.cancel" button of its own dialog/,
    );
  });

  it('is an error in Chinese too', async () => {
    edit('i18n/zh-CN/core.json', (j) => (j.action.notice.repeal = '确认'));
    await expectError('entities/notice.json', '/actions/repeal', /action "repeal" is labelled "确认" in zh-CN, like the "ui.confirm" button/);
  });

  it('is an error when it uses the key of a dialog button', async () => {
    edit('entities/notice.json', (j) => (j.actions.repeal.labelKey = 'ui.confirm'));
    await expectError('entities/notice.json', '/actions/repeal/labelKey', /uses the label key "ui.confirm" of its dialog's own button/);
  });

  it('an upload action must not read like the file buttons of its dialog', async () => {
    edit('i18n/en-US/business.json', (j) => (j.action.consultingFeeItem.import = 'Download template'));
    await expectError('entities/consulting-fee-item.json', '/actions/import', /like the "ui.downloadTemplate" button of its own dialog/);
  });

  it('is fine for an action that opens no dialog', async () => {
    // activate has no input and no confirm: it runs at once, there is no dialog to collide with
    edit('i18n/en-US/core.json', (j) => (j.action.notice.activate = 'Confirm'));
    expect(await errorsOf()).toEqual([]);
  });
});

describe('an unknown name', () => {
  it('field: did you mean the closest field', async () => {
    edit('screens/notice-list.json', (j) => (j.columns[0] = 'titel'));
    await expectError('screens/notice-list.json', '/columns/0', /unknown field "titel" of entity "notice" \(did you mean "title"\? expected one of: title, /);
  });

  it('property the meta-schema does not know: did you mean the closest property', async () => {
    edit('entities/notice.json', (j) => (j.fields.title.requird = true));
    await expectError('entities/notice.json', '/fields/title', /unknown property "requird" \(not allowed by the meta-schema\) \(did you mean "required"\?/);
  });

  it('enum value of the meta-schema: did you mean the closest value', async () => {
    edit('screens/notice-list.json', (j) => (j.roles = ['usr']));
    await expectError('screens/notice-list.json', '/roles/0', /must be equal to one of the allowed values: .*\(did you mean "user"\?\)/);
  });

  it('code table, code key, rule, resource, button and entity: each suggests the closest valid name', async () => {
    edit('entities/notice.json', (j) => (j.fields.status.codeTable = 'noticeStatuz'));
    edit('entities/claim.json', (j) => (j.actions.approve.from = ['unaudite']));
    edit('entities/account.json', (j) => (j.fields.email.rules = ['emial']));
    edit('screens/order-search.json', (j) => (j.resource = 'order'));
    edit('screens/claim-list.json', (j) => j.buttons.push('exprot'));
    edit('entities/notice-attachment.json', (j) => (j.fields.noticeId.ref = 'notise'));
    const errs = (await errorsOf()).join('\n');
    expect(errs).toMatch(/unknown code table "noticeStatuz" \(did you mean "noticeStatus"\?/);
    expect(errs).toMatch(/unknown code key "unaudite" of table "claimStatus" \(did you mean "unaudited"\?/);
    expect(errs).toMatch(/unknown rule "emial" \(did you mean "email"\?/);
    expect(errs).toMatch(/unknown resource "order" \(did you mean "orders"\?/);
    expect(errs).toMatch(
      /unknown button "exprot" \(entity "claim" has no action with that button, and metadata\/access.json declares no such button\) \(did you mean "export"\?/,
    );
    expect(errs).toMatch(/unknown entity "notise" \(did you mean "notice"\?/);
  });

  it('table and column of a migration step that fills a column', async () => {
    mkdirSync(join(m.dir, 'metadata/migrations'), { recursive: true });
    const step = { op: 'addColumn', table: 'consulting_fee_item', column: 'managment_rate', value: 0.1 };
    writeFileSync(
      join(m.dir, 'metadata/migrations/9001-fill.json'),
      JSON.stringify({ id: '9001-fill', steps: [step, { ...step, table: 'consulting_fee_items', column: 'x' }] }),
    );
    const errs = await errorsOf();
    expect(errs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^metadata\/migrations\/9001-fill.json#\/steps\/0\/column: unknown column "managment_rate" of table "consulting_fee_item" \(did you mean "management_rate"\?/,
        ),
      ]),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^metadata\/migrations\/9001-fill.json#\/steps\/1\/table: unknown table "consulting_fee_items" of the metadata \(did you mean "consulting_fee_item"\?/,
        ),
      ]),
    );
  });

  it('far from every choice gets the list without a guess', async () => {
    edit('screens/notice-list.json', (j) => (j.columns[0] = 'xyz'));
    await expectError('screens/notice-list.json', '/columns/0', /unknown field "xyz" of entity "notice" \(expected one of: title, /);
  });

  it('distance and closeness', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(closest('titel', ['status', 'title', 'content'])).toBe('title');
    expect(closest('Title', ['title'])).toBe('title');
    expect(closest('xyz', ['title', 'status'])).toBeUndefined();
    expect(closest('a', ['b'])).toBeUndefined();
  });
});

describe("an action's own refusal message limited to states (illegalTransitionIn)", () => {
  it('naming a state the action starts from is an error: it is never refused there', async () => {
    edit('entities/hazard-receipt.json', (j) => j.actions.confirm.illegalTransitionIn.push('uploaded'));
    await expectError('entities/hazard-receipt.json', '/actions/confirm/illegalTransitionIn/1', /action "confirm" runs in state "uploaded"/);
  });

  it('without a message of its own is an error', async () => {
    edit('entities/hazard-receipt.json', (j) => delete j.actions.confirm.illegalTransitionKey);
    await expectError('entities/hazard-receipt.json', '/actions/confirm/illegalTransitionIn', /names states for its illegalTransitionKey but has none/);
  });
});
