/**
 * Excel: the xlsx reader/writer, and the consulting-fee-item import through the engine's real
 * action transaction (all rows or none, per-row errors, a non-xlsx file refused cleanly).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import type { Principal } from '../../../server/engine/principal.ts';
import { AppError } from '../../../server/engine/errors.ts';
import { messages, metadata } from '../../../server/generated/index.ts';
import { feeItemTemplate, importFeeItems, parseFeeItemWorkbook } from '../../../server/handlers/fee-import.ts';
import { columnIndex, columnName, excelSerialToDate, readFirstSheet, writeXlsx, XlsxError, type CellValue } from '../../../server/documents/xlsx.ts';
import { build, type TestApp } from '../helpers.ts';

const FEE = metadata.entities.consultingFeeItem;

describe('xlsx', () => {
  it('reads back what it writes: strings (CJK, XML specials, leading zeros), numbers, booleans, gaps', () => {
    const rows: CellValue[][] = [['原零件号', 'Fee', 'X&<>"\'', null, 'E'], ['0123', 12.5, true, null, '中文 & <b>'], [], [null, -3, false]];
    const sheet = readFirstSheet(writeXlsx([{ name: '咨询服务费', rows, header: true, columns: [{ text: true }] }]));
    expect(sheet.name).toBe('咨询服务费');
    expect(sheet.rows).toEqual([
      { row: 1, cells: ['原零件号', 'Fee', 'X&<>"\'', null, 'E'] },
      { row: 2, cells: ['0123', 12.5, true, null, '中文 & <b>'] },
      { row: 4, cells: [null, -3, false] },
    ]);
  });

  it('reads shared strings with rich-text runs, skips phonetic runs, resolves the first sheet by its relationship', () => {
    const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const zip = zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8(
        `<x:workbook xmlns:x="ns" xmlns:r="rel"><x:workbookPr date1904="1"/><x:sheets><x:sheet name="Data" sheetId="7" r:id="rId9"/></x:sheets></x:workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId9" Type="t" Target="/xl/worksheets/data.xml"/></Relationships>'),
      'xl/sharedStrings.xml': strToU8(
        `<sst ${ns}><si><t>plain</t></si><si><r><t>富</t></r><r><rPr><b/></rPr><t xml:space="preserve">文本 </t></r><rPh sb="0" eb="1"><t>フ</t></rPh></si></sst>`,
      ),
      'xl/worksheets/data.xml': strToU8(
        `<worksheet ${ns}><sheetData><row r="2"><c r="B2" t="s"><v>1</v></c><c r="D2" t="str"><f>A1</f><v>calc</v></c><c r="E2"><v>0.30000000000000004</v></c><c r="F2" t="e"><v>#N/A</v></c></row><row r="3"><c r="A3" t="s"><v>0</v></c></row></sheetData></worksheet>`,
      ),
    });
    const sheet = readFirstSheet(zip);
    expect(sheet).toEqual({
      name: 'Data',
      date1904: true,
      rows: [
        { row: 2, cells: [null, '富文本 ', null, 'calc', 0.30000000000000004, '#N/A'] },
        { row: 3, cells: ['plain'] },
      ],
    });
  });

  it('refuses bytes that are not an xlsx workbook', () => {
    expect(() => readFirstSheet(Buffer.from('orderNo,itemNo\nP1,1\n'))).toThrow(XlsxError);
    expect(() => readFirstSheet(Buffer.from('PK\u0003\u0004 truncated'))).toThrow(XlsxError);
    expect(() => readFirstSheet(zipSync({ 'word/document.xml': strToU8('<w/>') }))).toThrow(/notXlsx/);
  });

  it('converts column letters and date serials', () => {
    expect([columnName(0), columnName(25), columnName(26), columnName(701), columnName(702)]).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
    expect([columnIndex('A1'), columnIndex('AB12'), columnIndex('AAA3')]).toEqual([0, 27, 702]);
    expect(excelSerialToDate(46204)).toBe('2026-07-01');
    expect(excelSerialToDate(61)).toBe('1900-03-01');
    expect(excelSerialToDate(59)).toBe('1900-02-28');
    expect(excelSerialToDate(0)).toBeNull();
    expect(excelSerialToDate(44742, true)).toBe('2026-07-01');
  });
});

/* ------------------------------------------------------------------ the import */

const good = (over: Record<string, CellValue> = {}): Record<string, CellValue> => ({
  originalPartsCode: '0A1-100',
  feePartsCode: 'ZX-0A1-100',
  consultingFee: 120.5,
  managementRate: 0.05,
  supplierCode: 'S001',
  effectiveDate: '2026-07-01',
  ordinarySalesPrice: 300,
  ...over,
});

/** A workbook from the template writer (labels of `locale` as headers). */
const workbook = (rows: Record<string, CellValue>[], locale: 'zh-CN' | 'en-US' = 'zh-CN') => feeItemTemplate(metadata, locale, rows).body;

const errorOf = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
};

describe('fee item workbook', () => {
  it('the template has the creatable fields as labelled headers', () => {
    const zh = readFirstSheet(workbook([]));
    expect(zh.rows).toHaveLength(1);
    expect(zh.rows[0].cells).toEqual([
      '原零件号',
      '咨询服务费零件号',
      '咨询服务费',
      '管理费率',
      '供应商代码',
      '生效日期',
      '普通销售价格',
      '紧急订单价格',
      '标准成本',
      '一般咨询费',
      '紧急咨询费',
    ]);
    expect(readFirstSheet(workbook([], 'en-US')).rows[0].cells[0]).toBe('Original part number');
    expect(feeItemTemplate(metadata, 'en-US').fileName).toMatch(/\.xlsx$/);
  });

  it('maps Chinese headers, English headers or field names, and converts cells (text numbers, date serials, percent)', () => {
    const zh = parseFeeItemWorkbook(
      metadata,
      workbook([good(), good({ feePartsCode: 'ZX-2', effectiveDate: 46204, managementRate: '5%', consultingFee: '1,200.50', supplierCode: 'S001 ' })]),
    );
    expect(zh.errors).toEqual([]);
    expect(zh.rows.map((r) => r.row)).toEqual([2, 3]);
    expect(zh.rows[1].values).toEqual({ ...good(), feePartsCode: 'ZX-2', managementRate: 0.05, consultingFee: 1200.5 });

    const en = parseFeeItemWorkbook(metadata, workbook([good()], 'en-US'));
    expect(en.errors).toEqual([]);
    const byName = writeXlsx([
      {
        name: 's',
        rows: [
          ['originalPartsCode', 'feePartsCode', 'consultingFee', 'managementRate', 'supplierCode', 'effectiveDate'],
          ['P1', 'F1', 1, 0.1, 'S002', '2026/7/1'],
        ],
      },
    ]);
    expect(parseFeeItemWorkbook(metadata, byName).rows[0].values).toMatchObject({ originalPartsCode: 'P1', effectiveDate: '2026-07-01' });
  });

  it('names the Excel row and the field of every bad value, with the rule keys of the form', () => {
    const parsed = parseFeeItemWorkbook(
      metadata,
      workbook([
        good(),
        good({ feePartsCode: 'X'.repeat(21), managementRate: 1.5 }),
        good({ consultingFee: 'abc', effectiveDate: '2026-13-45' }),
        good({ supplierCode: null }),
      ]),
    );
    expect(parsed.rows.map((r) => r.row)).toEqual([2]);
    const keyed = Object.fromEntries(parsed.errors.map((e) => [`row${e.row}.${e.field}`, e.key]));
    expect(keyed).toEqual({
      'row3.feePartsCode': 'validation.maxLength',
      'row3.managementRate': 'rule.decimal01',
      'row4.consultingFee': 'validation.number',
      'row4.effectiveDate': 'validation.date',
      'row5.supplierCode': 'validation.required',
    });
  });

  it('reports header problems on row 1: unknown and repeated columns, missing required columns', () => {
    const file = writeXlsx([
      {
        name: 's',
        rows: [
          ['原零件号', '咨询服务费零件号', 'Consulting service fee part number', '备注'],
          ['P1', 'F1', 'F1', 'x'],
        ],
      },
    ]);
    const parsed = parseFeeItemWorkbook(metadata, file);
    expect(parsed.rows).toEqual([]);
    const keyed = Object.fromEntries(parsed.errors.map((e) => [`row${e.row}.${e.field}`, e.key]));
    expect(keyed['row1.feePartsCode']).toBe('validation.unique');
    expect(keyed['row1.D']).toBe('validation.unknownField');
    expect(keyed['row1.consultingFee']).toBe('validation.required');
    expect(keyed['row1.effectiveDate']).toBe('validation.required');
  });

  it('refuses a non-xlsx file with error.fileType', () => {
    const err = errorOf(() => parseFeeItemWorkbook(metadata, Buffer.from('%PDF-1.7 not a workbook')));
    expect([err.statusCode, err.code]).toEqual([400, 'error.fileType']);
  });
});

describe('consultingFeeItem.import action', () => {
  let t: TestApp;
  let staff: Principal;
  const count = async () => Number((await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${FEE.table}`))!.n);
  const run = (data: Buffer, fileName = 'fees.xlsx') => t.app.engine.action(staff, FEE, 'import', null, {}, { fileName, data });
  const failure = async (p: Promise<unknown>): Promise<AppError> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
    throw new Error('expected the import to fail');
  };

  beforeAll(async () => {
    t = await build();
    const acc = metadata.entities.account;
    const row = (await t.app.db.get<{ id: number }>(`SELECT id FROM ${acc.table} WHERE ${acc.fields.userId.column} = ?`, ['staff01']))!;
    staff = {
      accountId: row.id,
      userId: 'staff01',
      name: '刘强',
      profile: 'internal',
      accountType: '0',
      role: 'user',
      admin: false,
      supplierCode: null,
      departmentId: 'PD01',
      departmentName: '采购部',
      warehouse: 'PDC01',
      warehouseName: '上海配件中心',
      isClaimWarehouse: true,
      accountStatus: '0',
      locale: 'zh-CN',
      tokenId: 'test',
      sessionId: 'test',
      tokenExp: Math.floor(Date.now() / 1000) + 3600,
      authTime: 0,
    };
  });
  afterAll(async () => t?.close());

  it('inserts every row as to be confirmed, with importer and import time', async () => {
    const before = await count();
    const r = await run(workbook([good({ originalPartsCode: 'IMP-1' }), good({ originalPartsCode: 'IMP-2', supplierCode: 'S002', effectiveDate: 46204 })]));
    expect(r.result).toEqual({ imported: 2 });
    expect(await count()).toBe(before + 2);
    const rows = await t.app.db.all(`SELECT * FROM ${FEE.table} WHERE ${FEE.fields.originalPartsCode.column} LIKE 'IMP-%' ORDER BY id`);
    expect(rows.map((x) => x[FEE.fields.state.column])).toEqual(['0', '0']);
    expect(rows.map((x) => x[FEE.fields.importer.column])).toEqual(['刘强', '刘强']);
    expect(rows[1][FEE.fields.supplierCode.column]).toBe('S002');
    expect(rows[1][FEE.fields.effectiveDate.column]).toBe('2026-07-01');
    expect(String(rows[0][FEE.fields.importedAt.column])).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('imports nothing when one row is bad, and the error names every bad row and field', async () => {
    const before = await count();
    const err = await failure(
      run(
        workbook([
          good({ originalPartsCode: 'BAD-1' }),
          good({ originalPartsCode: 'BAD-2', feePartsCode: 'X'.repeat(25) }),
          good({ originalPartsCode: 'BAD-3' }),
        ]),
      ),
    );
    expect(err.statusCode).toBe(400);
    expect(err.code).toBe('error.importFailed');
    expect(err.args).toMatchObject({ count: 1, rows: '3' });
    // the message spells the error out: row, column (the template's header) and reason
    const details = err.args.details as (locale: 'en-US' | 'zh-CN') => string;
    expect(details('en-US')).toBe(`row 3, ${messages['en-US'][FEE.fields.feePartsCode.labelKey]}: At most 20 characters`);
    expect(details('zh-CN')).toBe(
      `第 3 行 ${messages['zh-CN'][FEE.fields.feePartsCode.labelKey]}：${messages['zh-CN']['validation.maxLength'].replace('%{max}', '20')}`,
    );
    expect(err.fieldErrors).toEqual({ 'row3.feePartsCode': { key: 'validation.maxLength', args: { max: 20 } } });
    expect(await count()).toBe(before);
  });

  it('refuses rows that repeat each other or a stored item (unique supplier, parts codes and date)', async () => {
    const err = await failure(
      run(workbook([good({ originalPartsCode: 'IMP-1' }), good({ originalPartsCode: 'NEW-1' }), good({ originalPartsCode: 'NEW-1' })])),
    );
    expect(err.code).toBe('error.importFailed');
    expect(Object.keys(err.fieldErrors ?? {}).filter((k) => k.endsWith('.originalPartsCode'))).toEqual(['row2.originalPartsCode', 'row4.originalPartsCode']);
    expect(err.fieldErrors?.['row2.originalPartsCode'].key).toBe('validation.unique');
  });

  it('prepare: reads and validates the upload before the transaction, and the handler uses that for the same upload', async () => {
    const before = await count();
    const file = { fileName: 'fees.xlsx', data: workbook([good({ originalPartsCode: 'PREP-1' })]) };
    importFeeItems.prepare({ meta: metadata, file });
    // what the handler would read now is no workbook: it must take what prepare read
    file.data.fill(0);
    expect((await t.app.engine.action(staff, FEE, 'import', null, {}, file)).result).toEqual({ imported: 1 });
    expect(await count()).toBe(before + 1);
    // a workbook prepare refuses is refused before any transaction, with the handler's own error
    const bad = { fileName: 'fees.xlsx', data: Buffer.from('PK\u0003\u0004 not a zip') };
    const err = (() => {
      try {
        importFeeItems.prepare({ meta: metadata, file: bad });
      } catch (e) {
        return e as AppError;
      }
      throw new Error('expected prepare to refuse the file');
    })();
    expect([err.statusCode, err.code]).toEqual([400, 'error.fileType']);
  });

  it('refuses a missing, empty, non-xlsx or header-only file cleanly', async () => {
    expect((await failure(t.app.engine.action(staff, FEE, 'import', null, {}))).code).toBe('error.fileEmpty');
    expect((await failure(run(Buffer.alloc(0)))).code).toBe('error.fileEmpty');
    const notXlsx = await failure(run(Buffer.from('originalPartsCode,feePartsCode\nP1,F1\n'), 'fees.xlsx'));
    expect([notXlsx.statusCode, notXlsx.code]).toEqual([400, 'error.fileType']);
    expect((await failure(run(workbook([])))).code).toBe('error.noData');
    expect((await failure(run(workbook([good()]), `${'n'.repeat(101)}.xlsx`))).code).toBe('error.fileNameTooLong');
  });
});
