import { describe, expect, it } from 'vitest';
import { compareVersions, deviceRowActions, isVersionOutdated, latestVersion, parseVersion } from './devices.ts';

describe('firmware versions', () => {
  it('reads v-prefixed and dotted versions, and nothing else', () => {
    expect(parseVersion('v2.14')).toEqual([2, 14]);
    expect(parseVersion(' 2.14.0 ')).toEqual([2, 14, 0]);
    expect(parseVersion('V3')).toEqual([3]);
    for (const bad of ['', 'beta', '2..1', 'v2.14-rc1', null, undefined]) expect(parseVersion(bad)).toBeNull();
  });

  it('orders numerically: v2.9 < v2.10 < v2.14, and 2.14 equals 2.14.0', () => {
    expect(compareVersions('v2.9', 'v2.14')).toBe(-1);
    expect(compareVersions('v2.10', 'v2.9')).toBe(1);
    expect(compareVersions('2.14', 'v2.14.0')).toBe(0);
    expect(latestVersion(['v2.9', 'v2.14', 'v2.10', 'junk'])).toBe('v2.14');
    expect(latestVersion([])).toBeNull();
  });

  it('calls a device out of date only when both versions are known', () => {
    expect(isVersionOutdated('v2.9', 'v2.14')).toBe(true);
    expect(isVersionOutdated('3.0.2', 'v2.14')).toBe(false);
    expect(isVersionOutdated(null, 'v2.14')).toBeNull();
    expect(isVersionOutdated('v2.9', null)).toBeNull();
  });
});

describe('device row actions (part 2 §6)', () => {
  const linked = { organization: 5 };
  const unlinked = { organization: null };
  it('offers Link Organization on an unlinked device in the global view to SUB_ADMIN, MANAGER and ADMIN only', () => {
    expect(deviceRowActions('MANAGER', unlinked, { embedded: false })).toEqual(['details', 'link']);
    expect(deviceRowActions('ADMIN', unlinked, { embedded: true })).toEqual(['details']);
    expect(deviceRowActions('DISTRIBUTOR_ADMIN', unlinked, { embedded: false })).toEqual(['details']);
  });

  it('offers Unassign to SUB_ADMIN, MANAGER, ADMIN and Transfer to those plus DISTRIBUTOR_ADMIN', () => {
    expect(deviceRowActions('SUB_ADMIN', linked, { embedded: true })).toEqual(['details', 'unassign', 'transfer']);
    expect(deviceRowActions('DISTRIBUTOR_ADMIN', linked, { embedded: false })).toEqual(['details', 'transfer']);
    expect(deviceRowActions('ORG_ADMIN', linked, { embedded: true })).toEqual(['details']);
  });
});
