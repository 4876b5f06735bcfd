/**
 * Codegen's checks of metadata/interfaces.json (the outbox of the external exchange), each on a
 * copy of the real metadata broken in one place: the error names the file and the JSON pointer.
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { useMetadataCopy } from './metadata-copy.ts';

const copy = useMetadataCopy('codegen-outbox-');
const { edit, expectError, run } = copy;
const FILE = 'interfaces.json';

describe('metadata/interfaces.json', () => {
  it('compiles the real declaration: interfaces by code, batch limits from app.json, emitters by action', async () => {
    const r = await run();
    expect(r.errors.map((e) => e.message)).toEqual([]);
    const o = r.model!.outbox!;
    expect(Object.fromEntries(Object.values(o.interfaces).map((i) => [i.code, [i.batchLimitConstant, i.batchLimit]]))).toEqual({
      INTF0001: ['fpInt001MaxItems', 30],
      INTF0004: ['fpInt004MaxItems', 150],
      INTF0010: ['fpInt010MaxItems', 150],
    });
    expect(Object.keys(o.emitters).sort()).toEqual(['claim.approve', 'claim.reject', 'claim.return', 'dfsOrder.ship', 'order.ship', 'settlement.agree']);
    expect(o.emitters['order.ship']).toEqual([{ interfaceCode: 'INTF0001', message: expect.objectContaining({ reference: ['orderNo', 'itemNo'] }) }]);
  });

  it('an interface that is not a code of table interfaceCode', async () => {
    edit(FILE, (j) => {
      j.interfaces.intf9999 = j.interfaces.intf0001;
      delete j.interfaces.intf0001;
    });
    await expectError(FILE, '/interfaces/intf9999', /unknown interface "intf9999"/);
  });

  it('a batch limit that names no constant, or one that is not a whole number', async () => {
    edit(FILE, (j) => (j.interfaces.intf0001.batchLimit = 'fpInt002MaxItems'));
    await expectError(FILE, '/interfaces/intf0001/batchLimit', /unknown constant "fpInt002MaxItems"/);
    edit(FILE, (j) => (j.interfaces.intf0001.batchLimit = 'defaultProjectCode'));
    await expectError(FILE, '/interfaces/intf0001/batchLimit', /not a whole number/);
  });

  it('an unknown entity, an unknown action, an action without records', async () => {
    edit(FILE, (j) => (j.interfaces.intf0001.messages[0].entity = 'purchaseOrder'));
    await expectError(FILE, '/interfaces/intf0001/messages/0/entity', /unknown entity "purchaseOrder"/);
    edit(FILE, (j) => {
      j.interfaces.intf0001.messages[0].entity = 'order';
      j.interfaces.intf0001.messages[0].action = 'deliver';
    });
    await expectError(FILE, '/interfaces/intf0001/messages/0/action', /unknown action "deliver" of entity "order"/);
    edit(
      FILE,
      (j) => (j.interfaces.intf0004.messages[0] = { entity: 'consultingFeeItem', action: 'import', reference: ['feePartsCode'], fields: ['feePartsCode'] }),
    );
    await expectError(FILE, '/interfaces/intf0004/messages/0/action', /a collection action/);
  });

  it('an action declared twice for one interface', async () => {
    edit(FILE, (j) => j.interfaces.intf0010.messages.push(j.interfaces.intf0010.messages[0]));
    await expectError(FILE, '/interfaces/intf0010/messages/3/action', /"claim.approve" is declared twice/);
  });

  it('unknown and private payload and reference fields', async () => {
    edit(FILE, (j) => (j.interfaces.intf0001.messages[0].fields[2] = 'partCode'));
    await expectError(FILE, '/interfaces/intf0001/messages/0/fields/2', /unknown field "partCode" of entity "order"/);
    edit(FILE, (j) => (j.interfaces.intf0001.messages[0].reference = ['orderNumber']));
    await expectError(FILE, '/interfaces/intf0001/messages/0/reference/0', /unknown field "orderNumber"/);
    edit(FILE, (j) => (j.interfaces.intf0004.messages[0] = { entity: 'account', action: 'unlock', reference: ['userId'], fields: ['userId', 'passwordHash'] }));
    await expectError(FILE, '/interfaces/intf0004/messages/0/fields/1', /field "passwordHash" of entity "account" is private/);
  });

  it('child rows must hang off the record by a ref field', async () => {
    edit(FILE, (j) => (j.interfaces.intf0004.messages[0].children[0].parentField = 'consultingFeeItemId'));
    await expectError(FILE, '/interfaces/intf0004/messages/0/children/0/parentField', /is not a ref to "settlement"/);
    edit(FILE, (j) => (j.interfaces.intf0004.messages[0].children[0].fields = ['period', 'amount', 'taxAmount']));
    await expectError(FILE, '/interfaces/intf0004/messages/0/children/0/fields/2', /unknown field "taxAmount" of entity "settlementLine"/);
  });

  it('the interface log must carry the fields the dispatcher writes, with their types', async () => {
    edit('entities/interface-message.json', (j) => delete j.fields.lastError);
    await expectError(FILE, '', /entity "interfaceMessage" needs a field "lastError" \(string\)/);
    edit('entities/interface-attempt.json', (j) => (j.fields.result = { type: 'string', maxLength: 1, readOnly: true }));
    await expectError(FILE, '', /field "result" of entity "interfaceAttempt" must be code of code table "interfaceSendResult"/);
  });

  it('the delivery policy: a typo, and a longest wait shorter than the first', async () => {
    edit(FILE, (j) => (j.delivery.maxAttempt = 3));
    await expectError(FILE, '/delivery', /unknown property "maxAttempt"/);
    edit(FILE, (j) => {
      delete j.delivery.maxAttempt;
      j.delivery.maxBackoffSeconds = 10;
    });
    await expectError(FILE, '/delivery/maxBackoffSeconds', /must be at least backoffSeconds/);
  });

  it('without interfaces.json there is no outbox, and nothing else changes', async () => {
    rmSync(join(copy.dir, 'metadata', FILE));
    const r = await run();
    expect(r.errors.map((e) => e.message)).toEqual([]);
    expect(r.model!.outbox).toBeUndefined();
  });
});
