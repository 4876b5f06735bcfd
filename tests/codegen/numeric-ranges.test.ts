/**
 * The declared ranges of numeric fields (hardening round two, point 9): a copy of the real metadata
 * is broken in one place and codegen must name the file, the JSON pointer and what it expected; the
 * generated schemas, both validators and the DDL follow the declared ranges.
 */
import { describe, expect, it } from 'vitest';
import { useMetadataCopy } from './metadata-copy.ts';
import { SchemaValidator } from '../../codegen/runtime/validation.ts';
import { validateLite } from '../../codegen/runtime/validate-lite.ts';
import { decimalLimit, numericRange } from '../../codegen/runtime/field-schema.ts';
import type { JsonSchema } from '../../codegen/runtime/field-schema.ts';

const m = useMetadataCopy('codegen-ranges-');
const { edit, expectError } = m;

describe('codegen: every numeric field declares its range', () => {
  it('an integer field without a maximum', async () => {
    edit('entities/stock-adjustment.json', (j) => delete j.fields.adjustQty.maximum);
    await expectError(
      'entities/stock-adjustment.json',
      '/fields/adjustQty',
      /^.*: integer field "adjustQty" declares no "maximum": expected both, whole numbers from -9007199254740991 to 9007199254740991 \(2\^53-1\)/,
    );
  });

  it('an integer field with neither minimum nor maximum', async () => {
    edit('entities/child-part-stock.json', (j) => {
      delete j.fields.stockQty.minimum;
      delete j.fields.stockQty.maximum;
    });
    await expectError('entities/child-part-stock.json', '/fields/stockQty', /integer field "stockQty" declares no "minimum" and "maximum": expected both/);
  });

  it('an integer input of an action without a range', async () => {
    edit('entities/order.json', (j) => {
      delete j.actions.ship.input.shipQty.minimum;
      delete j.actions.ship.input.shipQty.maximum;
    });
    await expectError('entities/order.json', '/actions/ship/input/shipQty', /integer input "shipQty" of action "ship" declares no "minimum" and "maximum"/);
  });

  it('a maximum beyond 2^53-1', async () => {
    edit('entities/child-part-stock.json', (j) => (j.fields.stockQty.maximum = 2 ** 53));
    await expectError(
      'entities/child-part-stock.json',
      '/fields/stockQty/maximum',
      /maximum 9007199254740992 of integer field "stockQty" is not a safe integer: expected at most 9007199254740991/,
    );
  });

  it('a minimum below -(2^53-1)', async () => {
    edit('entities/child-part-stock.json', (j) => (j.fields.shortageQty.minimum = -(2 ** 60)));
    await expectError('entities/child-part-stock.json', '/fields/shortageQty/minimum', /is not a safe integer: expected at least -9007199254740991/);
  });

  it('a minimum above the maximum', async () => {
    edit('entities/order.json', (j) => (j.fields.itemNo.minimum = 10_000));
    await expectError(
      'entities/order.json',
      '/fields/itemNo/minimum',
      /minimum 10000 of integer field "itemNo" is greater than its maximum 9999: expected minimum <= maximum/,
    );
  });

  it('a bound of an integer field that is not a whole number', async () => {
    edit('entities/order.json', (j) => (j.fields.orderQty.maximum = 10.5));
    await expectError('entities/order.json', '/fields/orderQty/maximum', /maximum 10.5 of integer field "orderQty" is not a whole number: expected an integer/);
  });

  it('a decimal without precision and scale', async () => {
    edit('entities/claim.json', (j) => {
      delete j.fields.price.precision;
      delete j.fields.price.scale;
    });
    await expectError(
      'entities/claim.json',
      '/fields/price',
      /decimal field "price" declares no "precision" and "scale": expected both .*its range follows from them/,
    );
  });

  it('a decimal bound that does not fit its precision and scale', async () => {
    edit('entities/settlement.json', (j) => (j.fields.totalAmount.maximum = 1e12));
    await expectError(
      'entities/settlement.json',
      '/fields/totalAmount/maximum',
      /maximum 1000000000000 of decimal field "totalAmount" does not fit precision 14, scale 2: expected a value from -999999999999.99 to 999999999999.99/,
    );
  });

  it('a decimal bound with more decimals than the scale', async () => {
    edit('entities/settlement.json', (j) => (j.fields.totalAmount.minimum = 0.005));
    await expectError(
      'entities/settlement.json',
      '/fields/totalAmount/minimum',
      /minimum 0.005 of decimal field "totalAmount" has more decimals than its scale 2/,
    );
  });

  it('a decimal precision a double cannot keep, and a scale above the precision', async () => {
    edit('entities/settlement.json', (j) => (j.fields.totalAmount.precision = 18));
    await expectError(
      'entities/settlement.json',
      '/fields/totalAmount/precision',
      /precision 18 of decimal field "totalAmount" is more digits than a JavaScript number keeps exactly: expected at most 15/,
    );
    edit('entities/settlement.json', (j) => {
      j.fields.totalAmount.precision = 4;
      j.fields.totalAmount.scale = 5;
    });
    await expectError(
      'entities/settlement.json',
      '/fields/totalAmount/scale',
      /scale 5 of decimal field "totalAmount" is more than its precision 4: expected at most 4/,
    );
  });

  it('a range on a field that is not a number', async () => {
    edit('entities/stock-adjustment.json', (j) => (j.fields.reason.maximum = 5));
    await expectError('entities/stock-adjustment.json', '/fields/reason/maximum', /maximum only applies to integer and decimal fields, not to string/);
  });

  it('a default outside the range', async () => {
    edit('entities/dfs-order.json', (j) => (j.fields.sentQty.default = -1));
    await expectError(
      'entities/dfs-order.json',
      '/fields/sentQty/default',
      /default -1 of integer field "sentQty" is outside its range: expected a value from 0 to 99999999/,
    );
  });

  it('an action input wider than the entity field it is written to', async () => {
    edit('entities/order.json', (j) => (j.actions.ship.input.shipQty.maximum = 199_999_999));
    await expectError(
      'entities/order.json',
      '/actions/ship/input/shipQty',
      /input "shipQty" of action "ship" \(range 1 to 199999999\) is written to the field "shipQty", whose range is 0 to 99999999/,
    );
  });

  it('a file size that cannot hold the largest upload its rule accepts', async () => {
    edit('entities/notice-attachment.json', (j) => (j.fields.fileSize.maximum = 1024));
    await expectError(
      'entities/notice-attachment.json',
      '/fields/fileSize/maximum',
      /maximum 1024 of fileSize is below the upload limit of rule "genericUpload" \(1024 KiB\): expected at least 1048576 bytes/,
    );
  });

  it("the engine's own columns (id, version, ...) declare none and are not asked to", async () => {
    const r = await m.run();
    const order = r.model?.entities.order;
    expect(order?.fields.id).not.toHaveProperty('maximum');
    expect(order?.fields.version).not.toHaveProperty('maximum');
  });
});

describe('the generated schemas, validators and DDL follow the ranges', () => {
  it("schemas carry minimum and maximum; a decimal's come from precision and scale", async () => {
    const r = await m.run();
    expect(r.errors.map((e) => e.message)).toEqual([]);
    const schemas = JSON.parse(r.files!.get('admin/src/generated/schemas.json')!);
    expect(schemas.stockAdjustment.create.properties.adjustQty).toMatchObject({
      type: 'integer',
      minimum: -99_999_999,
      maximum: 99_999_999,
      allOf: [{ $comment: 'rule:nonZero', not: { const: 0 } }],
    });
    expect(schemas.order.actions.ship.properties.shipQty).toMatchObject({ minimum: 1, maximum: 99_999_999 });
    expect(schemas.consultingFeeItem.create.properties.consultingFee).toMatchObject({
      type: 'number',
      minimum: 0,
      maximum: 999_999_999_999.99,
      maxDecimals: 2,
    });
    expect(schemas.settlementLine.create.properties.amount).toMatchObject({ minimum: 0, maximum: 999_999_999.99 });
    // the server's schemas are the same documents
    expect(JSON.parse(r.files!.get('server/generated/schemas.json')!).stockAdjustment.create.properties.adjustQty).toEqual(
      schemas.stockAdjustment.create.properties.adjustQty,
    );
  });

  it('decimalLimit and numericRange', () => {
    expect(decimalLimit(14, 2)).toBe(999_999_999_999.99);
    expect(decimalLimit(5, 4)).toBe(9.9999);
    expect(decimalLimit(4, 0)).toBe(9999);
    expect(decimalLimit(2, 2)).toBe(0.99);
    expect(numericRange({ type: 'decimal', precision: 12, scale: 2, minimum: 0 })).toEqual({ min: 0, max: 9_999_999_999.99 });
    expect(numericRange({ type: 'integer', minimum: 0 })).toBeNull();
    expect(numericRange({ type: 'string' })).toBeNull();
  });

  it('ajv and the browser validator both refuse zero and out-of-range values, with the same errors', async () => {
    const r = await m.run();
    const server = new SchemaValidator(r.model!);
    const create = JSON.parse(r.files!.get('admin/src/generated/schemas.json')!).stockAdjustment.create as JsonSchema;
    const body = (adjustQty: unknown) => ({ partsCode: 'P', adjustQty, reason: 'r' });
    const cases: [unknown, unknown][] = [
      [0, { adjustQty: { key: 'rule.nonZero' } }],
      [-0, { adjustQty: { key: 'rule.nonZero' } }],
      [100_000_000, { adjustQty: { key: 'validation.maximum', args: { max: 99_999_999 } } }],
      [-100_000_000, { adjustQty: { key: 'validation.minimum', args: { min: -99_999_999 } } }],
      [1.5, { adjustQty: { key: 'validation.integer' } }],
      ['0', { adjustQty: { key: 'validation.integer' } }],
      [1, null],
      [-99_999_999, null],
    ];
    for (const [v, want] of cases) {
      expect(server.validate(create, body(v)), String(v)).toEqual(want);
      expect(validateLite(create, body(v), r.model!.rules), String(v)).toEqual(want);
    }
  });

  it('new tables get a CHECK per numeric column; PostgreSQL uses INTEGER where the range fits 32 bits', async () => {
    const r = await m.run();
    const sqlite = r.files!.get('server/generated/schema.sql')!;
    const pg = r.files!.get('server/generated/schema.postgres.sql')!;
    expect(sqlite).toContain('"adjust_qty" INTEGER NOT NULL CHECK ("adjust_qty" IS NULL OR "adjust_qty" BETWEEN -99999999 AND 99999999)');
    expect(pg).toContain('"adjust_qty" INTEGER NOT NULL CHECK ("adjust_qty" IS NULL OR "adjust_qty" BETWEEN -99999999 AND 99999999)');
    expect(pg).toContain('"record_id" BIGINT CHECK ("record_id" IS NULL OR "record_id" BETWEEN 1 AND 9007199254740991)');
    expect(sqlite).toContain('"total_amount" REAL CHECK ("total_amount" IS NULL OR "total_amount" BETWEEN 0 AND 999999999999.99)');
    expect(pg).toContain('"total_amount" NUMERIC(14, 2) CHECK ("total_amount" IS NULL OR "total_amount" BETWEEN 0 AND 999999999999.99)');
    expect(pg).toContain('"shipped_qty" INTEGER DEFAULT 0 CHECK ("shipped_qty" IS NULL OR "shipped_qty" BETWEEN 0 AND 99999999)');
    // the engine's own columns and refs keep their types and have no CHECK
    expect(pg).toContain('"version" BIGINT NOT NULL DEFAULT 1,');
    expect(pg).toMatch(/"settlement_id" BIGINT,/);
    expect(pg).not.toMatch(/CHECK \("(id|version)"/);
    // every declared numeric column of every table has its CHECK
    const tables = JSON.parse(r.files!.get('server/generated/tables.json')!) as Record<
      string,
      { name: string; columns: { name: string; fieldType: string; range?: unknown }[] }[]
    >;
    for (const t of tables.sqlite)
      for (const c of t.columns)
        if (['integer', 'decimal'].includes(c.fieldType) && !['id', 'version'].includes(c.name)) expect(c.range, `${t.name}.${c.name}`).toBeTruthy();
  });
});
