/**
 * Issue 20 point 4: the reason a disabled action button gives is the real one, on every list screen
 * with record actions (derived from the compiled metadata; record screens show only the actions the
 * record's state allows, so only the list toolbar disables one): for every action, every state it may
 * not start from, a user who may run it elsewhere is told the record's status (error.statusChanged
 * naming the record, the status and the action), or the action's own message where that message is
 * true (illegalTransitionIn); another supplier's line says so. The same rule answers the server's 409
 * (codegen/runtime/transition-refusal.ts; tests/server/refusal-messages.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { codeLabelKey, type CompiledAction, type CompiledEntity, type CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../../../admin/src/generated/index.ts';
import { setToken, setUser, type PortalUser } from '../../../admin/src/providers/storage.ts';
import { actionRefusal, mayAction, recordLabel } from '../../../admin/src/screens/access.ts';
import { actionsForButtons } from '../../../admin/src/screens/meta.ts';
import { resetBrowserState, supplierUser } from '../helpers.ts';

afterEach(resetBrowserState);

const supplier = { ...supplierUser, departmentId: 'S001' } as unknown as PortalUser;
const staff = { ...supplier, userId: 'staff01', accountType: '0', profile: 'internal', departmentId: 'IT' } as PortalUser;
const supAdmin = { ...supplier, userId: 'supadmin', accountType: '4', profile: 'supplierAdmin', roleId: 'sys', roles: ['sys'], admin: true } as PortalUser;
const root = { ...staff, roleId: 'admin', roles: ['admin'] } as PortalUser;
const users = [supplier, staff, supAdmin, root];
const code = (table: string, key: string) => metadata.codeTables[table].values.find((v) => v.key === key)!.code;

/** Every list screen's state actions, with their entity. */
const cases = metadata.screens.flatMap((s: CompiledScreen) => {
  const e = s.resource ? metadata.entities[metadata.resources[s.resource]] : undefined;
  if (!e || s.kind !== 'list') return [];
  return actionsForButtons(e, s.buttons)
    .filter((a) => a.statusField && a.from && !a.collection)
    .map((a) => ({ s, e, a }));
});

/** A record of the acting supplier (every supplier field names S001) in `status`. */
function recordIn(e: CompiledEntity, a: CompiledAction, status: string): Record<string, unknown> {
  const r: Record<string, unknown> = { id: 7, [a.statusField!]: status };
  for (const f of e.scope.supplierFields ?? []) r[f] = 'S001';
  for (const f of e.identifyBy ?? [e.titleField]) r[f] ??= `${f}-7`;
  return r;
}

describe('a disabled action says why, on every list screen with record actions', () => {
  it('covers the screens of every entity with a supplier scope and actions', () => {
    const scoped = new Set(cases.filter((c) => c.e.scope.supplierFields?.length).map((c) => c.e.name));
    expect([...scoped].sort()).toEqual(expect.arrayContaining(['consultingFeeItem', 'hazardReceipt', 'order', 'settlement', 'stockAdjustment']));
  });

  for (const { s, e, a } of cases) {
    it(`${s.name}: ${a.name} outside its states names the status (or its own true message)`, () => {
      const table = e.fields[a.statusField!].codeTable!;
      const user = users.find((u) => {
        setToken('t');
        setUser(u);
        return mayAction(s, e.resource, a, recordIn(e, a, a.from![0]));
      });
      expect(user, 'somebody may run it').toBeDefined();
      setUser(user!);
      for (const { code: status } of metadata.codeTables[table].values.filter((v) => !a.from!.includes(v.code))) {
        const r = recordIn(e, a, status);
        const refusal = actionRefusal(s, e, a, [r]);
        const own = a.illegalTransitionKey !== 'error.illegalTransition' && (!a.illegalTransitionIn || a.illegalTransitionIn.includes(status));
        expect(refusal, `${a.name} in ${status}`).toEqual(
          own
            ? { key: a.illegalTransitionKey }
            : { key: 'error.statusChanged', args: { record: recordLabel(e, r), statusLabel: codeLabelKey(table, status), actionLabel: a.labelKey } },
        );
      }
    });
  }
});

describe('the reasons that were wrong', () => {
  it('a confirmed hazardous-chemicals receipt is not told to upload its document', () => {
    setToken('t');
    setUser(supplier);
    const e = metadata.entities.hazardReceipt;
    const s = metadata.screens.find((x) => x.name === 'recConfirm')!;
    const confirmed = recordIn(e, e.actions.confirm, code('hazardReceiptStatus', 'confirmed'));
    expect(actionRefusal(s, e, e.actions.confirm, [confirmed])?.key).toBe('error.statusChanged');
    const pending = recordIn(e, e.actions.confirm, code('hazardReceiptStatus', 'pending'));
    expect(actionRefusal(s, e, e.actions.confirm, [pending])?.key).toBe('error.documentRequired');
  });
  it('a cancelled order line is not "already confirmed"', () => {
    setToken('t');
    setUser(supplier);
    const e = metadata.entities.order;
    const s = metadata.screens.find((x) => x.name === 'orderConfirm')!;
    const cancelled = recordIn(e, e.actions.confirm, code('purchaseOrderStatus', 'cancelled'));
    expect(actionRefusal(s, e, e.actions.confirm, [cancelled])?.key).toBe('error.statusChanged');
    const shipped = recordIn(e, e.actions.confirm, code('purchaseOrderStatus', 'shipped'));
    expect(actionRefusal(s, e, e.actions.confirm, [shipped])?.key).toBe('error.orderAlreadyConfirmed');
  });
  it("another supplier's line names the line, whatever its state", () => {
    setToken('t');
    setUser(supplier);
    const e = metadata.entities.order;
    const s = metadata.screens.find((x) => x.name === 'orderShip')!;
    const theirs = { ...recordIn(e, e.actions.ship, code('purchaseOrderStatus', 'confirmed')), directSupplierCode: 'S002' };
    expect(actionRefusal(s, e, e.actions.ship, [theirs])).toEqual({ key: 'error.notActingSupplier', args: { items: recordLabel(e, theirs) } });
  });
});
