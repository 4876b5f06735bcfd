/**
 * The notice slice end to end through the API: create/edit with field errors in react-admin's
 * shape, unique titles, activate/repeal with illegal transitions, stale versions, discard (soft
 * delete) with "including deleted", attachments with their rules, and the notice centre's read side.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { serverSuite, bearer, listUrl, multipart, PDF, storedFiles } from './helpers.ts';

const t = serverSuite({ admin: 'supadmin', sup: 'sup02@PDC02', staff: 'staff01' });

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) });

describe('notices: create and edit', () => {
  it('missing title and content give field errors in react-admin shape, translated', async () => {
    const r = await call('POST', '/api/notices', t.tokens.admin, { title: '  ', content: '' }, { 'accept-language': 'en-US' });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.validation', errors: { title: 'validation.required', content: 'validation.required' } });
    expect(typeof r.json().message).toBe('string');
  });

  it('a field too long reports maxLength with its placeholder value', async () => {
    const r = await call('POST', '/api/notices', t.tokens.admin, { title: 'x'.repeat(201), content: 'c' });
    expect(r.statusCode).toBe(400);
    expect(r.json().errors.title).toBe('validation.maxLength');
    expect(r.json().errorArgs.title).toEqual({ max: 200 });
  });

  it('server-owned fields cannot be set, unknown fields are refused', async () => {
    const r = await call('POST', '/api/notices', t.tokens.admin, { title: 'A', content: 'B', status: '1', version: 7, hacked: true });
    expect(r.statusCode).toBe(400);
    expect(r.json().errors).toEqual({ status: 'validation.readOnly', version: 'validation.readOnly', hacked: 'validation.unknownField' });
  });

  it('creates, then the title must stay unique (409 duplicate)', async () => {
    const r = await call('POST', '/api/notices', t.tokens.admin, { title: '唯一标题', content: '内容' });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ title: '唯一标题', status: '0', deleted: false, version: 1, createdBy: 'supadmin' });
    const again = await call('POST', '/api/notices', t.tokens.admin, { title: '唯一标题', content: '另一个' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'error.duplicate', errors: { title: 'validation.unique' } });
  });

  it('edits with the whole record sent back; a stale version is a 409 with the spec message', async () => {
    const created = (await call('POST', '/api/notices', t.tokens.admin, { title: '编辑测试', content: 'v1' })).json();
    const ok = await call('PUT', `/api/notices/${created.id}`, t.tokens.admin, { ...created, content: 'v2' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ content: 'v2', version: 2 });
    const stale = await call('PUT', `/api/notices/${created.id}`, t.tokens.admin, { ...created, content: 'v3' }, { 'accept-language': 'en-US' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'error.staleVersion', message: 'The data has been modified by other user, please re-operation!' });
    const changedStatus = await call('PUT', `/api/notices/${created.id}`, t.tokens.admin, { ...(ok.json() as object), status: '1' });
    expect(changedStatus.statusCode).toBe(400);
    expect(changedStatus.json().errors).toEqual({ status: 'validation.readOnly' });
    const row = (await call('GET', `/api/notices/${created.id}`, t.tokens.admin)).json();
    expect(row).toMatchObject({ content: 'v2', version: 2, status: '0' });
  });

  it('columns the engine writes itself, sent back changed, are refused, not silently ignored', async () => {
    const rec = (await call('POST', '/api/notices', t.tokens.admin, { title: '系统字段', content: 'v1' })).json();
    for (const [field, value] of [
      ['id', rec.id + 1000],
      ['createdAt', '2000-01-01T00:00:00.000Z'],
      ['createdBy', 'mallory'],
      ['updatedAt', '2000-01-01T00:00:00.000Z'],
      ['updatedBy', 'mallory'],
    ] as const) {
      const r = await call('PUT', `/api/notices/${rec.id}`, t.tokens.admin, { ...rec, [field]: value, content: 'v2' });
      expect(r.statusCode, field).toBe(400);
      expect(r.json().errors, field).toEqual({ [field]: 'validation.readOnly' });
    }
    // sent back unchanged they are fine
    expect((await call('PUT', `/api/notices/${rec.id}`, t.tokens.admin, { ...rec, content: 'v2' })).statusCode).toBe(200);
    expect((await call('GET', `/api/notices/${rec.id}`, t.tokens.admin)).json()).toMatchObject({
      id: rec.id,
      createdBy: 'supadmin',
      content: 'v2',
      version: 2,
    });
  });

  it('only the supplier administrator writes notices', async () => {
    for (const token of [t.tokens.sup, t.tokens.staff]) {
      expect((await call('POST', '/api/notices', token, { title: 'x', content: 'y' })).statusCode).toBe(403);
    }
  });
});

describe('notices: activate, repeal, discard', () => {
  it('repeal then activate; repealing twice is an illegal transition (409)', async () => {
    const n = (await call('POST', '/api/notices', t.tokens.admin, { title: '状态测试', content: 'c' })).json();
    const rep = await call('POST', `/api/notices/${n.id}/actions/repeal`, t.tokens.admin, {});
    expect(rep.statusCode).toBe(200);
    expect(rep.json()).toMatchObject({ status: '1', version: 2 });
    const again = await call('POST', `/api/notices/${n.id}/actions/repeal`, t.tokens.admin, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('error.illegalTransition');
    const act = await call('POST', `/api/notices/${n.id}/actions/activate`, t.tokens.admin, { version: 2 });
    expect(act.statusCode).toBe(200);
    expect(act.json().status).toBe('0');
    expect(act.json().publishedAt).toBeTruthy();
    const staleAction = await call('POST', `/api/notices/${n.id}/actions/repeal`, t.tokens.admin, { version: 2 });
    expect(staleAction.statusCode).toBe(409);
    expect(staleAction.json().code).toBe('error.staleVersion');
  });

  it('a repealed notice disappears from the notice centre of suppliers', async () => {
    const n = (await call('POST', '/api/notices', t.tokens.admin, { title: '将被废止', content: 'c' })).json();
    await call('POST', `/api/notices/${n.id}/actions/repeal`, t.tokens.admin, {});
    expect((await call('GET', `/api/notices/${n.id}`, t.tokens.sup)).statusCode).toBe(404);
    const list = (await call('GET', listUrl('notices', { range: [0, 499] }), t.tokens.sup)).json() as { id: number }[];
    expect(list.some((x) => x.id === n.id)).toBe(false);
  });

  it('bulk repeal changes all or nothing', async () => {
    const a = (await call('POST', '/api/notices', t.tokens.admin, { title: '批量1', content: 'c' })).json();
    const b = (await call('POST', '/api/notices', t.tokens.admin, { title: '批量2', content: 'c' })).json();
    await call('POST', `/api/notices/${b.id}/actions/repeal`, t.tokens.admin, {});
    const bad = await call('POST', '/api/notices/actions/repeal', t.tokens.admin, { ids: [a.id, b.id] });
    expect(bad.statusCode).toBe(409);
    expect((await call('GET', `/api/notices/${a.id}`, t.tokens.admin)).json().status).toBe('0');
    const c = (await call('POST', '/api/notices', t.tokens.admin, { title: '批量3', content: 'c' })).json();
    const ok = await call('POST', '/api/notices/actions/repeal', t.tokens.admin, { ids: [a.id, c.id] });
    expect(ok.statusCode).toBe(200);
    expect((ok.json().data as { status: string }[]).map((x) => x.status)).toEqual(['1', '1']);
  });

  it('delete discards (soft delete); "including deleted" shows it again', async () => {
    const n = (await call('POST', '/api/notices', t.tokens.admin, { title: '将被删除', content: 'c' })).json();
    const del = await call('DELETE', `/api/notices/${n.id}`, t.tokens.admin);
    expect(del.statusCode).toBe(200);
    expect(del.json().id).toBe(n.id);
    const hidden = (await call('GET', listUrl('notices', { filter: { title_like: '将被删除' } }), t.tokens.admin)).json();
    expect(hidden).toHaveLength(0);
    const shown = (await call('GET', listUrl('notices', { filter: { title_like: '将被删除', includeDeleted: true } }), t.tokens.admin)).json();
    expect(shown).toHaveLength(1);
    expect(shown[0].deleted).toBe(true);
  });
});

describe('notice attachments', () => {
  let noticeId: number;
  beforeAll(async () => {
    noticeId = (await call('POST', '/api/notices', t.tokens.admin, { title: '带附件的公告', content: '请下载附件' })).json().id;
  });
  const upload = (token: string, name: string, data: Buffer, overwrite = false, fields: Record<string, string> = { noticeId: String(noticeId) }) => {
    const m = multipart(fields, { name, data });
    return t.app.inject({
      method: 'POST',
      url: `/api/notice-attachments/upload${overwrite ? '?overwrite=true' : ''}`,
      headers: { ...bearer(token), ...m.headers },
      payload: m.payload,
    });
  };

  it('uploads a PDF, lists it for the notice, a supplier downloads it with its Chinese name', async () => {
    const r = await upload(t.tokens.admin, '供货计划.pdf', PDF);
    expect(r.statusCode, r.body).toBe(201);
    const rec = r.json();
    expect(rec).toMatchObject({ fileName: '供货计划.pdf', fileSize: PDF.length, uploader: '王芳', noticeId });
    expect(rec.storageName).toBeUndefined();
    const list = (await call('GET', listUrl('notice-attachments', { filter: { noticeId } }), t.tokens.sup)).json();
    expect(list).toHaveLength(1);
    const dl = await call('GET', `/api/notice-attachments/${rec.id}/download`, t.tokens.sup);
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(PDF)).toBe(true);
    expect(dl.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('供货计划.pdf')}`);
    expect(dl.headers['content-type']).toBe('application/pdf');
  });

  it('the same name again asks whether to overwrite (409) and replaces it with overwrite=true', async () => {
    const again = await upload(t.tokens.admin, '供货计划.pdf', PDF);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('error.fileExists');
    const bigger = Buffer.concat([PDF, Buffer.from('% more\n')]);
    const ow = await upload(t.tokens.admin, '供货计划.pdf', bigger, true);
    expect(ow.statusCode).toBe(201);
    expect(ow.json().fileSize).toBe(bigger.length);
    const list = (await call('GET', listUrl('notice-attachments', { filter: { noticeId } }), t.tokens.admin)).json();
    expect(list).toHaveLength(1);
  });

  it('refuses empty files, wrong types (by content), long names and oversize files', async () => {
    expect((await upload(t.tokens.admin, 'empty.pdf', Buffer.alloc(0))).json().code).toBe('error.fileEmpty');
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]);
    expect((await upload(t.tokens.admin, 'report.pdf', exe)).json().code).toBe('error.fileType');
    expect((await upload(t.tokens.admin, 'tool.exe', exe)).json().code).toBe('error.fileType');
    expect((await upload(t.tokens.admin, `${'长'.repeat(101)}.pdf`, PDF)).json().code).toBe('error.fileNameTooLong');
    const big = await upload(t.tokens.admin, 'big.pdf', Buffer.concat([PDF, Buffer.alloc(1024 * 1024)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toMatch(/error\.(fileTooLarge|payloadTooLarge)/);
  });

  it('a path in the file name is dropped; the stored file has a server-made name inside the store', async () => {
    const r = await upload(t.tokens.admin, '../../etc/passwd.pdf', PDF);
    expect(r.statusCode).toBe(201);
    expect(r.json().fileName).toBe('passwd.pdf');
    const stored = await storedFiles(t);
    expect(stored.every((f) => /^[0-9a-f-]{36}$/.test(f))).toBe(true);
  });

  it('only the supplier administrator uploads and deletes; delete removes the stored file', async () => {
    expect((await upload(t.tokens.sup, 'x.pdf', PDF)).statusCode).toBe(403);
    const rec = (await upload(t.tokens.admin, 'remove-me.pdf', PDF)).json();
    const before = (await storedFiles(t)).length;
    expect((await call('DELETE', `/api/notice-attachments/${rec.id}`, t.tokens.sup)).statusCode).toBe(403);
    const del = await call('DELETE', `/api/notice-attachments/${rec.id}`, t.tokens.admin);
    expect(del.statusCode).toBe(200);
    expect((await storedFiles(t)).length).toBe(before - 1);
    expect((await call('GET', `/api/notice-attachments/${rec.id}/download`, t.tokens.admin)).statusCode).toBe(404);
  });

  it("attachments of a repealed notice are out of a supplier's reach", async () => {
    const n = (await call('POST', '/api/notices', t.tokens.admin, { title: '附件随公告废止', content: 'c' })).json();
    const m = multipart({ noticeId: String(n.id) }, { name: 'a.pdf', data: PDF });
    const att = (
      await t.app.inject({ method: 'POST', url: '/api/notice-attachments/upload', headers: { ...bearer(t.tokens.admin), ...m.headers }, payload: m.payload })
    ).json();
    expect((await call('GET', `/api/notice-attachments/${att.id}/download`, t.tokens.sup)).statusCode).toBe(200);
    await call('POST', `/api/notices/${n.id}/actions/repeal`, t.tokens.admin, {});
    expect((await call('GET', `/api/notice-attachments/${att.id}/download`, t.tokens.sup)).statusCode).toBe(404);
    expect((await call('GET', `/api/notice-attachments/${att.id}`, t.tokens.sup)).statusCode).toBe(404);
  });
});
