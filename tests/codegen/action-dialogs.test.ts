/**
 * The checks of what an action's dialog declares (codegen/action-dialogs.ts): per-record inputs,
 * read-only record fields, and the fields naming a record in messages. A copy of the real metadata
 * is broken in one place; the error names the file and the JSON pointer.
 */
import { describe, expect, it } from 'vitest';
import { useMetadataCopy } from './metadata-copy.ts';

const { edit, expectError, run } = useMetadataCopy('codegen-dialogs-');

describe('action dialog declarations', () => {
  it('compile: per-record inputs with their defaults, shown fields, identifyBy; the record input schema', async () => {
    const r = await run();
    expect(r.errors).toEqual([]);
  });

  it('perRecord names an input the action does not have', async () => {
    edit('entities/dfs-order.json', (j) => (j.actions.ship.perRecord = { shipQuantity: {} }));
    await expectError('entities/dfs-order.json', '/actions/ship/perRecord/shipQuantity', /unknown input "shipQuantity" of action "ship"/);
  });

  it('perRecord on an action that is not bulk', async () => {
    edit('entities/claim.json', (j) => (j.actions.approve.perRecord = { judgmentBasis: {} }));
    await expectError('entities/claim.json', '/actions/approve/perRecord', /needs a bulk action/);
  });

  it('a default from an unknown field, or from a field of another kind', async () => {
    edit('entities/dfs-order.json', (j) => (j.actions.ship.perRecord = { shipQty: { default: 'openQty' } }));
    await expectError('entities/dfs-order.json', '/actions/ship/perRecord/shipQty/default', /unknown field "openQty"/);
    edit('entities/dfs-order.json', (j) => (j.actions.ship.perRecord = { shipQty: { default: 'dealerName' } }));
    await expectError(
      'entities/dfs-order.json',
      '/actions/ship/perRecord/shipQty/default',
      /field "dealerName" \(string\) cannot pre-fill input "shipQty" \(integer\)/,
    );
  });

  it('supplierFields must be supplier scope fields of the entity', async () => {
    edit('entities/order.json', (j) => (j.actions.ship.supplierFields = ['warehouseCode']));
    await expectError('entities/order.json', '/actions/ship/supplierFields/0', /not one of the entity's supplier scope fields/);
  });

  it('show and identifyBy name unknown or private fields', async () => {
    edit('entities/dfs-order.json', (j) => (j.actions.ship.show = ['dealerOrderNo', 'orderQuantity']));
    await expectError('entities/dfs-order.json', '/actions/ship/show/1', /unknown field "orderQuantity"/);
    edit('entities/account.json', (j) => (j.identifyBy = ['userId', 'passwordHash']));
    await expectError('entities/account.json', '/identifyBy/1', /private/);
  });
});
