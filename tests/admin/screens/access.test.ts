/** Buttons: declared by the screen AND granted AND (with a record) allowed by its state. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../../../admin/src/generated/index.ts';
import { setToken, setUser, type PortalUser } from '../../../admin/src/providers/storage.ts';
import { mayAction, mayButton } from '../../../admin/src/screens/access.ts';
import { actionsForButtons } from '../../../admin/src/screens/meta.ts';
import { resetBrowserState, supplierUser } from '../helpers.ts';

const screen = (name: string) => metadata.screens.find((s) => s.name === name) as CompiledScreen;
const order = metadata.entities.order;
const code = (table: string, key: string) => metadata.codeTables[table].values.find((v) => v.key === key)!.code;

beforeEach(() => {
  setToken('t');
  setUser({ ...supplierUser } as unknown as PortalUser);
});
afterEach(resetBrowserState);

describe('screen buttons', () => {
  it('an action appears on a row only in a state it may leave', () => {
    const s = screen('orderConfirm');
    const confirm = order.actions.confirm;
    expect(mayAction(s, 'orders', confirm)).toBe(true);
    expect(mayAction(s, 'orders', confirm, { id: 1, status: code('purchaseOrderStatus', 'released') })).toBe(true);
    expect(mayAction(s, 'orders', confirm, { id: 1, status: code('purchaseOrderStatus', 'confirmed') })).toBe(false);
  });
  it('an action the screen does not declare is never shown', () => {
    expect(mayAction(screen('orderSearch'), 'orders', order.actions.ship, { id: 1, status: code('purchaseOrderStatus', 'confirmed') })).toBe(false);
  });
  it('a button the user does not hold is not rendered', () => {
    expect(mayButton(screen('orderConfirm'), 'export', 'orders', 'export')).toBe(true);
    expect(mayButton(screen('noticeList'), 'add', 'notices', 'create')).toBe(false);
  });
  it('internal actions (applied by the engine after an upload) get no button', () => {
    const names = actionsForButtons(metadata.entities.hazardReceipt, screen('recConfirm').buttons).map((a) => a.name);
    expect(names).toContain('confirm');
    expect(names.every((n) => !metadata.entities.hazardReceipt.actions[n].internal)).toBe(true);
  });
});
