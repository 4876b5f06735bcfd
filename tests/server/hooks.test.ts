/**
 * Lifecycle hooks (server/engine/hook-types.ts): the portal's one rule across fields, "a fee
 * item's urgent order price is at least its ordinary sales price", over HTTP on create, update and
 * import, with its message in both languages; then the contract itself on an engine whose notices
 * declare every hook: the order of the calls, what each gets, beforeWrite changing the values,
 * afterWrite writing in the same transaction, and a failure anywhere writing nothing.
 * The compile-time half (a declared hook must be implemented) is at the end: `tsc` checks it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, metadata, schemas } from '../../server/generated/index.ts';
import type { EntityHooks, MessageKey } from '../../server/generated/hooks.ts';
import type { ConsultingFeeItem } from '../../server/generated/types.ts';
import { Engine, type HandlerTable } from '../../server/engine/engine.ts';
import type { HookTable } from '../../server/engine/hooks.ts';
import type { ValidateHook } from '../../server/engine/hook-types.ts';
import type { Principal } from '../../server/engine/principal.ts';
import { AppError } from '../../server/engine/errors.ts';
import { handlers } from '../../server/handlers/index.ts';
import { validatePrices } from '../../server/hooks/consulting-fee-items.ts';
import { hooks as entityHooks } from '../../server/hooks/index.ts';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import { bearer, build, importFeeRows, login, type TestApp } from './helpers.ts';

let t: TestApp;
let staff: string;
beforeAll(async () => {
  t = await build();
  staff = await login(t.app, 'staff01');
});
afterAll(() => t.close());

const KEY = 'validation.urgentPriceBelowOrdinary';
const feeCount = async () => Number((await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM consulting_fee_item'))!.n);
const item = (over: Record<string, unknown> = {}) => ({
  originalPartsCode: 'HK-0001',
  feePartsCode: 'HK-F-0001',
  consultingFee: 10,
  managementRate: 0.05,
  supplierCode: 'S001',
  effectiveDate: '2027-01-01',
  ...over,
});
const send = (method: 'POST' | 'PUT', url: string, payload: unknown, lang = 'en-US') =>
  t.app.inject({ method, url, headers: { ...bearer(staff), 'accept-language': lang }, payload: payload as object });

describe('consulting fee item: urgent order price at least the ordinary sales price (validate hook)', () => {
  it("create: a lower urgent price is a field error in react-admin's shape, in the caller's language, and nothing is written", async () => {
    const before = await feeCount();
    const r = await send('POST', '/api/consulting-fee-items', item({ ordinarySalesPrice: 100, urgentOrderPrice: 99.99 }));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.validation', errors: { urgentOrderPrice: KEY }, errorArgs: { urgentOrderPrice: { min: 100 } } });
    expect(await feeCount()).toBe(before);
    // the key is translated by the client; both languages have it, with the placeholder
    expect(messages['en-US'][KEY]).toContain('%{min}');
    expect(messages['zh-CN'][KEY]).toContain('%{min}');
    const zh = await send('POST', '/api/consulting-fee-items', item({ ordinarySalesPrice: 100, urgentOrderPrice: 1 }), 'zh-CN');
    expect(zh.json().message).toBe(messages['zh-CN']['error.validation']);
  });

  it('create: an equal or higher urgent price, or either price missing, is fine', async () => {
    for (const [i, prices] of [
      { ordinarySalesPrice: 100, urgentOrderPrice: 100 },
      { ordinarySalesPrice: 100, urgentOrderPrice: 150 },
      { ordinarySalesPrice: 100 },
      { urgentOrderPrice: 5 },
    ].entries()) {
      const r = await send('POST', '/api/consulting-fee-items', item({ feePartsCode: `HK-OK-${i}`, ...prices }));
      expect(r.statusCode, r.body).toBe(201);
    }
  });

  it('update: the rule sees the stored record with the change applied, whichever price changes', async () => {
    const created = (await send('POST', '/api/consulting-fee-items', item({ feePartsCode: 'HK-UPD', ordinarySalesPrice: 50, urgentOrderPrice: 60 }))).json();
    // only the ordinary price changes, above the stored urgent price
    const r = await send('PUT', `/api/consulting-fee-items/${created.id}`, { ordinarySalesPrice: 70, version: created.version });
    expect(r.statusCode).toBe(400);
    expect(r.json().errors).toEqual({ urgentOrderPrice: KEY });
    const stored = await t.app.db.get<{ p: number; v: number }>('SELECT ordinary_sales_price AS p, version AS v FROM consulting_fee_item WHERE id = ?', [
      created.id,
    ]);
    expect(stored).toEqual({ p: 50, v: created.version });
    const ok = await send('PUT', `/api/consulting-fee-items/${created.id}`, { ordinarySalesPrice: 70, urgentOrderPrice: 70, version: created.version });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('import: every row gets the same rule, reported by row and field, and nothing is imported', async () => {
    const before = await feeCount();
    const rows = [
      {
        originalPartsCode: 'HK-IMP',
        feePartsCode: 'HK-IMP-1',
        consultingFee: 1,
        managementRate: 0.1,
        supplierCode: 'S001',
        effectiveDate: '2027-02-01',
        ordinarySalesPrice: 10,
        urgentOrderPrice: 12,
      },
      {
        originalPartsCode: 'HK-IMP',
        feePartsCode: 'HK-IMP-2',
        consultingFee: 1,
        managementRate: 0.1,
        supplierCode: 'S001',
        effectiveDate: '2027-02-01',
        ordinarySalesPrice: 10,
        urgentOrderPrice: 8,
      },
    ];
    const r = await importFeeRows(t.app, staff, rows);
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.importFailed', errors: { 'row3.urgentOrderPrice': KEY } });
    expect(Object.keys(r.json().errors)).toEqual(['row3.urgentOrderPrice']);
    expect(await feeCount()).toBe(before);
  });
});

describe('the hook contract (notices declaring every hook, on an engine of their own)', () => {
  const calls: { hook: string; operation: string; before: unknown; after: unknown; values?: unknown }[] = [];
  let failIn: string | null = null;
  let engine: Engine;
  const admin: Principal = {
    accountId: 1,
    userId: 'supadmin',
    name: 'Hook Tester',
    profile: 'supplierAdmin',
    accountType: '4',
    role: 'sys',
    admin: true,
    supplierCode: null,
    departmentId: 'S001',
    departmentName: null,
    warehouse: 'PDC01',
    warehouseName: 'PDC01',
    isClaimWarehouse: true,
    accountStatus: '0',
    locale: 'en-US',
    tokenId: 't',
    sessionId: 's',
    tokenExp: 0,
    authTime: 0,
  };
  const title = (r: unknown) => (r as { title?: string } | null)?.title ?? null;
  const table: HookTable = {
    // the real hooks of every other entity
    ...(entityHooks as unknown as HookTable),
    notice: {
      validate: (c: { operation: string; before: unknown; after: unknown; fieldError: (f: string, k: string) => void }) => {
        calls.push({ hook: 'validate', operation: c.operation, before: title(c.before), after: title(c.after) });
        if (title(c.after) === 'forbidden') c.fieldError('title', 'validation.invalid');
        if (c.operation === 'delete' && title(c.before) === 'keep me') c.fieldError('title', 'validation.invalid');
      },
      beforeWrite: (c: { operation: string; before: unknown; after: unknown; values: Record<string, unknown> }) => {
        calls.push({ hook: 'beforeWrite', operation: c.operation, before: title(c.before), after: title(c.after), values: { ...c.values } });
        if (typeof c.values.title === 'string') c.values.title = c.values.title.trim();
        if (failIn === 'beforeWrite') throw new AppError(409, 'error.generic');
      },
      afterWrite: async (c: {
        operation: string;
        before: unknown;
        after: unknown;
        db: { run(sql: string, p: unknown[]): Promise<unknown> };
        principal: Principal;
      }) => {
        calls.push({ hook: 'afterWrite', operation: c.operation, before: title(c.before), after: title(c.after) });
        // another row, in the operation's transaction
        await c.db.run(`INSERT INTO _settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, [
          `hook-${c.operation}`,
          c.principal.userId,
        ]);
        if (failIn === 'afterWrite') throw new AppError(409, 'error.generic');
      },
    },
  };
  beforeAll(() => {
    const meta = structuredClone(metadata) as CompiledMetadata;
    meta.entities.notice.hooks = ['validate', 'beforeWrite', 'afterWrite'];
    engine = new Engine(t.app.db, meta, schemas, handlers as unknown as HandlerTable, table);
  });
  const setting = async (name: string) => (await t.app.db.get<{ value: string }>('SELECT value FROM _settings WHERE name = ?', [name]))?.value ?? null;
  const notices = async () => Number((await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM notice'))!.n);
  const reset = () => {
    calls.length = 0;
    failIn = null;
  };

  it('create: validate, beforeWrite (which may change the values), the insert, afterWrite with the stored record', async () => {
    reset();
    const rec = await engine.create(admin, engine.meta.entities.notice, { title: '  Spaced  ', content: 'c' });
    expect(rec.title).toBe('Spaced');
    expect(calls).toEqual([
      { hook: 'validate', operation: 'create', before: null, after: '  Spaced  ' },
      { hook: 'beforeWrite', operation: 'create', before: null, after: '  Spaced  ', values: { title: '  Spaced  ', content: 'c' } },
      { hook: 'afterWrite', operation: 'create', before: null, after: 'Spaced' },
    ]);
    expect(await setting('hook-create')).toBe('supadmin');
  });

  it('update and delete get the record before; delete has no record after', async () => {
    const rec = await engine.create(admin, engine.meta.entities.notice, { title: 'one', content: 'c' });
    reset();
    await engine.update(admin, engine.meta.entities.notice, Number(rec.id), { title: 'two', version: rec.version });
    expect(calls.map((c) => [c.hook, c.operation, c.before, c.after])).toEqual([
      ['validate', 'update', 'one', 'two'],
      ['beforeWrite', 'update', 'one', 'two'],
      ['afterWrite', 'update', 'one', 'two'],
    ]);
    expect(calls[1].values).toEqual({ title: 'two' });
    reset();
    await engine.remove(admin, engine.meta.entities.notice, Number(rec.id));
    expect(calls.map((c) => [c.hook, c.operation, c.before, c.after])).toEqual([
      ['validate', 'delete', 'two', null],
      ['beforeWrite', 'delete', 'two', null],
      ['afterWrite', 'delete', 'two', null],
    ]);
  });

  it("a field error from validate is a 400 in react-admin's shape; beforeWrite and the write do not happen", async () => {
    reset();
    const n = await notices();
    const err = await engine.create(admin, engine.meta.entities.notice, { title: 'forbidden', content: 'c' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ statusCode: 400, code: 'error.validation', fieldErrors: { title: { key: 'validation.invalid' } } });
    expect(calls.map((c) => c.hook)).toEqual(['validate']);
    expect(await notices()).toBe(n);
    // validate may refuse a delete too
    const keep = await engine.create(admin, engine.meta.entities.notice, { title: 'keep me', content: 'c' });
    await expect(engine.remove(admin, engine.meta.entities.notice, Number(keep.id))).rejects.toMatchObject({ statusCode: 400 });
    expect((await t.app.db.get<{ d: unknown }>('SELECT deleted AS d FROM notice WHERE id = ?', [keep.id]))!.d).toBeFalsy();
  });

  it('a failure in beforeWrite or afterWrite rolls the whole operation back: no row, no other write', async () => {
    for (const where of ['beforeWrite', 'afterWrite']) {
      reset();
      await t.app.db.run(`DELETE FROM _settings WHERE name = 'hook-create'`);
      failIn = where;
      const n = await notices();
      await expect(engine.create(admin, engine.meta.entities.notice, { title: `fails in ${where}`, content: 'c' })).rejects.toMatchObject({
        code: 'error.generic',
      });
      expect(await notices()).toBe(n);
      expect(await setting('hook-create')).toBeNull();
    }
  });

  it('an engine without an implementation of a declared hook refuses to start', () => {
    const meta = structuredClone(metadata) as CompiledMetadata;
    meta.entities.notice.hooks = ['afterWrite'];
    expect(() => new Engine(t.app.db, meta, schemas, handlers as unknown as HandlerTable, entityHooks as unknown as HookTable)).toThrow(
      /lifecycle hooks missing: notice.afterWrite\. write notice.afterWrite in server\/hooks\/notice\.ts \(export const afterWriteNotice: AfterWriteHook<\.\.\.> = .*\) and add it to server\/hooks\/index\.ts: notice: \{ afterWrite: \.\.\. \}/,
    );
  });
});

// Compile-time checks (tsc, npm run typecheck): the generated EntityHooks asks for every declared
// hook, refuses undeclared ones, and a hook's error key must be a key of the catalogues.
// @ts-expect-error consultingFeeItem declares "validate": an implementation is required
export const missingHook: EntityHooks = {};
// @ts-expect-error no entity declares hooks for notice
export const undeclaredHook: EntityHooks = { consultingFeeItem: { validate: validatePrices }, notice: { validate: () => {} } };
// @ts-expect-error an error key that is in no catalogue
export const unknownKey: ValidateHook<ConsultingFeeItem, MessageKey> = (c) => c.fieldError('urgentOrderPrice', 'validation.noSuchMessage');
// @ts-expect-error a field the record does not have
export const unknownField: ValidateHook<ConsultingFeeItem, MessageKey> = (c) => c.fieldError('urgentPrice', 'validation.invalid');
