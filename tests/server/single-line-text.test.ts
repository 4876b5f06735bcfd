/**
 * Text that cannot fool people (issue 25 point 5): every field of type string (single-line: names,
 * titles, codes, file names) refuses control characters (CR, LF, NUL, ...) and bidirectional
 * overrides and isolates (U+202A-U+202E, U+2066-U+2069), line and paragraph separators and the C1
 * controls with NEL (U+2028, U+2029, U+0080-U+009F), as a rule of the engine
 * (metadata/rules/text.json, applied by codegen/runtime/field-schema.ts); multi-line `text` fields
 * keep their line breaks. Both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, build, code, login, multipart, PDF, type TestApp } from './helpers.ts';
import { metadata, schemas } from '../../server/generated/index.ts';

let t: TestApp;
let admin: string;
let staff: string;
const RLO = '\u202E';
const HOSTILE = [
  'x\r\nBcc: a@evil.example',
  'a\u0000b',
  'tab\there',
  `x${RLO}lmth.jpg`,
  'a\u2066b',
  'a\u202Ab',
  'del\u007F',
  // issue 37 point 4: line and paragraph separators, NEL and the other C1 controls
  'a\u2028b',
  'a\u2029b',
  'a\u0085b',
  'a\u0080b',
  'a\u009Bb',
];

beforeAll(async () => {
  t = await build();
  admin = await login(t.app, 'supadmin');
  staff = await login(t.app, 'staff01');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'POST' | 'PUT', url: string, token: string, payload: unknown, lang = 'en-US') =>
  t.app.inject({ method, url, headers: { ...bearer(token), 'accept-language': lang }, payload: payload as object });

describe('single-line text', () => {
  it('every string field of every entity carries the rule, in the schemas the server and the admin share; text fields do not', () => {
    let strings = 0;
    for (const e of Object.values(metadata.entities))
      for (const [name, f] of Object.entries(e.fields)) {
        const s = (schemas[e.name].record.properties as Record<string, { allOf?: { $comment?: string }[] }>)[name];
        if (!s) continue;
        const rules = (s.allOf ?? []).map((x) => x.$comment);
        if (f.type === 'string') {
          strings++;
          expect(rules, `${e.name}.${name}`).toContain('rule:singleLine');
        } else expect(rules, `${e.name}.${name}`).not.toContain('rule:singleLine');
      }
    expect(strings).toBeGreaterThan(50);
  });

  it('a notice title with a line break, NUL or a direction override is refused in both languages; the content keeps its lines', async () => {
    for (const title of HOSTILE) {
      const r = await call('POST', '/api/notices', admin, { title, content: 'ok' });
      expect(r.statusCode, JSON.stringify(title)).toBe(400);
      expect(r.json().errors).toEqual({ title: 'rule.singleLine' });
    }
    const zh = await call('POST', '/api/notices', admin, { title: 'x\r\ny', content: 'ok' }, 'zh-CN');
    expect(zh.json().errors).toEqual({ title: 'rule.singleLine' });
    const ok = await call('POST', '/api/notices', admin, { title: '第一行 标题', content: 'line one\r\nline two' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().content).toBe('line one\r\nline two');
    const fix = await call('PUT', `/api/notices/${ok.json().id}`, admin, { version: ok.json().version, title: `a${RLO}b` });
    expect(fix.statusCode).toBe(400);
  });

  it("a saved view's name follows the same rule: direction overrides, separators and controls are refused (issue 37 point 4)", async () => {
    const sup = await login(t.app, 'sup01');
    for (const name of HOSTILE) {
      const r = await call('POST', '/api/views', sup, { screen: 'orderShip', name, state: { filter: {} } });
      expect([JSON.stringify(name), r.statusCode, r.json().code]).toEqual([JSON.stringify(name), 400, 'error.invalidView']);
    }
    const ok = await call('POST', '/api/views', sup, { screen: 'orderShip', name: '本周 urgent', state: { filter: {} } });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('a user name with a fake header line is refused (profile and account administration)', async () => {
    const own = await t.app.inject({
      method: 'POST',
      url: '/supplierApi/accountInfo/update',
      headers: bearer(staff),
      payload: { name: 'x\r\nBcc: a@evil.example' },
    });
    expect(own.statusCode).toBe(400);
    expect(own.json().errors).toMatchObject({ name: 'rule.singleLine' });
    const registered = await call('POST', '/api/accounts/actions/register', staff, {
      userId: 'newname01',
      name: 'x\r\nBcc: a@evil.example',
      accountType: code('accountType', 'supplier'),
      departmentId: 'S002',
      departmentName: 'x',
      email: 'newname01@example.com',
      language: 'en-US',
    });
    expect(registered.statusCode).toBe(400);
    expect(registered.json().errors).toMatchObject({ name: 'rule.singleLine' });
  });

  it('a file whose name hides its type behind a direction override, or holds NEL, is refused', async () => {
    const notice = (await call('POST', '/api/notices', admin, { title: 'files', content: 'x' })).json().id as number;
    for (const name of [`report${RLO}fdp.exe.pdf`, 'a\u2067b.pdf', 'x\r\ny.pdf'.replace(/\r\n/g, '\u0085')]) {
      const m = multipart({ noticeId: String(notice) }, { name, data: PDF });
      const r = await t.app.inject({ method: 'POST', url: '/api/notice-attachments/upload', headers: { ...bearer(admin), ...m.headers }, payload: m.payload });
      // NEL (a C1 control) too, since issue 37 point 4: it was accepted as a letter
      expect(r.statusCode, name).toBe(400);
      expect(r.json().code).toBe('error.fileNameCharacters');
    }
  });
});
