/**
 * Demo machine clients (entity machineClient): one per external system that feeds the portal, with
 * a published demo secret like the demo accounts' passwords, so that the curl example of
 * docs/inbound-interfaces.md works against `npm start`. Only the secrets' hashes are stored.
 */
import { hashClientSecret } from '../inbound/secrets.ts';
import type { RowWriter } from './writer.ts';

export const MACHINE_CLIENT_ENTITIES = ['machineClient'] as const;

export const DEMO_CLIENTS = [
  { clientId: 'srm-demo', name: 'Supplier relationship system (demo)', interfaces: 'INTF0002', secret: 'mcs_demo-srm-2026' },
  { clientId: 'dms-demo', name: 'Dealer management (demo)', interfaces: 'INTF0003,INTF0011', secret: 'mcs_demo-dms-2026' },
  { clientId: 'erp-demo', name: 'ERP and finance (demo)', interfaces: 'INTF0005,INTF0012,INTF0013', secret: 'mcs_demo-erp-2026' },
] as const;
/** a retired system, disabled: the screen's "enable" has a row to act on */
const DISABLED_CLIENT = { clientId: 'legacy-demo', name: 'Retired order system (demo, disabled)', interfaces: 'INTF0002', secret: 'mcs_demo-legacy-2026' };

export function seedMachineClients(w: RowWriter): void {
  for (const c of [...DEMO_CLIENTS, DISABLED_CLIENT])
    w.insert('machineClient', {
      clientId: c.clientId,
      name: c.name,
      interfaces: c.interfaces,
      status: c === DISABLED_CLIENT ? '0' : '1',
      secretHash: hashClientSecret(c.secret),
      previousSecretValid: false,
    });
}
