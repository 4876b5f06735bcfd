/**
 * The systemd unit (server/deploy/supplier-portal.service) keeps its sandbox (issue 25 point 10):
 * the unit file is parsed here, so the test runs wherever vitest does; the score itself
 * (`systemd-analyze security`, 1.2 "OK" with systemd 252) is in docs/security-round-three.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The [Service] section's settings; a key given twice keeps every value (systemd merges lists). */
function serviceSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    if (section !== 'Service') continue;
    const eq = line.indexOf('=');
    const key = line.slice(0, eq).trim();
    settings.set(key, [...(settings.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return settings;
}

const unit = serviceSettings(readFileSync(new URL('../../server/deploy/supplier-portal.service', import.meta.url), 'utf8'));
const one = (key: string) => unit.get(key)?.at(-1);

describe('the service unit', () => {
  it('runs as its own user with no capabilities and no way to gain any', () => {
    expect(one('User')).toBe('portal');
    expect(one('NoNewPrivileges')).toBe('true');
    // an empty value is the empty set; any capability named would be kept
    expect(unit.get('CapabilityBoundingSet')).toEqual(['']);
    expect(one('AmbientCapabilities') ?? '').toBe('');
    expect(one('RestrictSUIDSGID')).toBe('true');
  });

  it('sees a read-only system, no home, no devices, no kernel knobs', () => {
    for (const [key, value] of [
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'true'],
      ['PrivateTmp', 'true'],
      ['PrivateDevices', 'true'],
      ['ProtectKernelTunables', 'true'],
      ['ProtectKernelModules', 'true'],
      ['ProtectKernelLogs', 'true'],
      ['ProtectControlGroups', 'true'],
      ['ProtectClock', 'true'],
      ['ProtectHostname', 'true'],
      ['RestrictNamespaces', 'true'],
      ['RestrictRealtime', 'true'],
      ['LockPersonality', 'true'],
    ])
      expect([key, one(key)]).toEqual([key, value]);
    expect(unit.get('ReadWritePaths')).toEqual(['/opt/supplier-portal/data']);
  });

  it('creates files only its user reads, and keeps to the system calls and sockets a service needs', () => {
    expect(one('UMask')).toBe('0077');
    expect(new Set(one('RestrictAddressFamilies')!.split(/\s+/))).toEqual(new Set(['AF_INET', 'AF_INET6', 'AF_UNIX']));
    const filters = unit.get('SystemCallFilter') ?? [];
    expect(filters).toContain('@system-service');
    expect(filters.some((f) => f.startsWith('~') && f.includes('@privileged'))).toBe(true);
    expect(one('SystemCallArchitectures')).toBe('native');
  });
});
