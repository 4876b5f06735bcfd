/**
 * Codegen's checks of the inbound half of metadata/interfaces.json (what machine clients may post),
 * each on a copy of the real metadata broken in one place: the error names the file and the JSON
 * pointer, with a did-you-mean for an unknown name.
 */
import { describe, expect, it } from 'vitest';
import { useMetadataCopy } from './metadata-copy.ts';

const copy = useMetadataCopy('codegen-inbound-');
const { edit, expectError, run } = copy;
const FILE = 'interfaces.json';

describe('metadata/interfaces.json inbound', () => {
  it('compiles the real declaration: interfaces by code, business keys, update states as stored codes, request schemas', async () => {
    const r = await run();
    expect(r.errors.map((e) => e.message)).toEqual([]);
    const inbound = r.model!.outbox!.inbound;
    expect(Object.keys(inbound).sort()).toEqual(['INTF0002', 'INTF0003', 'INTF0005', 'INTF0011', 'INTF0012', 'INTF0013']);
    const orders = inbound.INTF0002;
    expect(orders).toMatchObject({
      entity: 'order',
      businessKey: ['orderNo', 'itemNo'],
      batchLimit: 150,
      update: { when: { status: ['0'] } },
      actions: ['cancel'],
    });
    expect(orders.required).toEqual(expect.arrayContaining(['orderNo', 'itemNo', 'partsCode', 'orderQty', 'warehouseCode', 'directSupplierCode']));
    const props = (orders.payloadSchema as { properties: Record<string, { type: unknown; minimum?: number }> }).properties;
    // the same field schema the screens validate with
    expect(props.orderQty).toMatchObject({ minimum: 1, maximum: 99999999 });
    expect(props).toHaveProperty('childDemands');
    expect(props).not.toHaveProperty('shippedQty');
    expect(inbound.INTF0011.fixed).toEqual({ status: '1' });
  });

  it('an interface that is not a code of table interfaceCode, or one that is already outbound', async () => {
    edit(FILE, (j) => {
      j.inbound.intf0222 = j.inbound.intf0002;
      delete j.inbound.intf0002;
    });
    await expectError(FILE, '/inbound/intf0222', /unknown interface "intf0222".*did you mean "intf0022"/);
    edit(FILE, (j) => (j.inbound.intf0001 = j.inbound.intf0013));
    await expectError(FILE, '/inbound/intf0001', /already declared outbound/);
  });

  it('a business key without a unique index on exactly its fields', async () => {
    edit(FILE, (j) => (j.inbound.intf0002.businessKey = ['orderNo']));
    await expectError(FILE, '/inbound/intf0002/businessKey', /no unique index of entity "order" covers exactly orderNo/);
  });

  it('unknown or engine-written fields, with a did-you-mean', async () => {
    edit(FILE, (j) => j.inbound.intf0013.fields.push('partCode'));
    await expectError(FILE, '/inbound/intf0013/fields/6', /unknown field "partCode" of entity "hazardReceipt".*did you mean "partsCode"/);
    edit(FILE, (j) => (j.inbound.intf0013.fields[6] = 'updatedAt'));
    await expectError(FILE, '/inbound/intf0013/fields/6', /written by the engine/);
  });

  it('a business key field nobody requires (issue 35: a movement without its number was taken for another), and a child key the entity does not require', async () => {
    const r = await run();
    const movementNo = (r.model!.outbox!.inbound.INTF0012.payloadSchema as { properties: Record<string, { type: unknown; notBlank?: boolean }> }).properties
      .movementNo;
    // every message carries its key: neither null nor blank, though the entity's old movements have none
    expect(movementNo).toMatchObject({ type: 'string', notBlank: true });
    edit(FILE, (j) => delete j.inbound.intf0012.required);
    await expectError(
      FILE,
      '/inbound/intf0012/businessKey/0',
      /business key field "movementNo" is not required.*add "movementNo" to "required" of the interface/,
    );
    edit('entities/claim-attachment.json', (j) => delete j.fields.fileName.required);
    await expectError(FILE, '/inbound/intf0011/children/0/key/0', /key field "fileName" is not required in entity "claimAttachment"/);
  });

  it('a created record would lack a required field', async () => {
    edit(FILE, (j) => (j.inbound.intf0013.fields = j.inbound.intf0013.fields.filter((f: string) => f !== 'qty')));
    await expectError(FILE, '/inbound/intf0013/fields', /needs field "qty"/);
  });

  it('update fields that are part of the key, states that are no code key', async () => {
    edit(FILE, (j) => j.inbound.intf0013.update.fields.push('receiptNo'));
    await expectError(FILE, '/inbound/intf0013/update/fields/3', /part of the business key/);
    edit(FILE, (j) => (j.inbound.intf0013.update.when = { status: ['pendng'] }));
    await expectError(FILE, '/inbound/intf0013/update/when/status/0', /pendng/);
  });

  it('an unknown reference, an action that is not a transition, a child without a unique key', async () => {
    edit(FILE, (j) => (j.inbound.intf0013.references = { supplierCode: 'suplier' }));
    await expectError(FILE, '/inbound/intf0013/references/supplierCode', /unknown reference "suplier".*did you mean "supplier"/);
    edit(FILE, (j) => (j.inbound.intf0002.actions = ['ship']));
    await expectError(FILE, '/inbound/intf0002/actions/0', /not a plain transition/);
    edit(FILE, (j) => (j.inbound.intf0002.children[0].key = ['parentPartsCode']));
    await expectError(FILE, '/inbound/intf0002/children/0/key', /no unique index of entity "orderChildDemand"/);
  });
});
