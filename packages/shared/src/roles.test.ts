import { describe, expect, it } from 'vitest';
import { CONSOLE_ROLES, ROLE_LABELS, ROLE_LEVEL, USER_TYPES, isConsoleRole, landingPathFor } from './roles.ts';
import { can, menuFor } from './permissions.ts';

const keys = (role: Parameters<typeof menuFor>[0], apiMode = false) =>
  menuFor(role, apiMode).flatMap((m) => [m.key, ...(m.children ?? []).map((c) => c.key)]);

describe('roles', () => {
  it('labels every user type as the spec writes it', () => {
    expect(USER_TYPES.map((t) => ROLE_LABELS[t])).toEqual([
      'Super Admin',
      'Sub Admin',
      'Distributor',
      'Manager',
      'ORG Admin',
      'C-Reviewer',
      'Technician',
    ]);
  });

  it('orders levels ADMIN > SUB_ADMIN > DISTRIBUTOR_ADMIN > MANAGER > ORG_ADMIN > reviewer = technician', () => {
    expect(ROLE_LEVEL.ADMIN).toBeGreaterThan(ROLE_LEVEL.SUB_ADMIN);
    expect(ROLE_LEVEL.SUB_ADMIN).toBeGreaterThan(ROLE_LEVEL.DISTRIBUTOR_ADMIN);
    expect(ROLE_LEVEL.DISTRIBUTOR_ADMIN).toBeGreaterThan(ROLE_LEVEL.MANAGER);
    expect(ROLE_LEVEL.MANAGER).toBeGreaterThan(ROLE_LEVEL.ORG_ADMIN);
    expect(ROLE_LEVEL.ORG_ADMIN).toBeGreaterThan(ROLE_LEVEL.CERVAICAL_REVIEWER);
    expect(ROLE_LEVEL.CERVAICAL_REVIEWER).toBe(ROLE_LEVEL.TECHNICIAN);
  });

  it('keeps technicians out of the console shell', () => {
    expect(isConsoleRole('TECHNICIAN')).toBe(false);
    expect(CONSOLE_ROLES).toHaveLength(6);
  });

  it('sends each role to its landing route after sign-in', () => {
    expect(landingPathFor('TECHNICIAN')).toBe('/user-delete');
    expect(landingPathFor('CERVAICAL_REVIEWER')).toBe('/cervaical');
    expect(landingPathFor('MANAGER')).toBe('/organization');
    expect(landingPathFor('ADMIN')).toBe('/dashboard');
    expect(landingPathFor('ORG_ADMIN')).toBe('/dashboard');
  });
});

describe('menu by role (part 1 §6)', () => {
  it('gives ADMIN language, tutorial, release notes, firmware and licences', () => {
    const k = keys('ADMIN');
    for (const key of ['language', 'tutorial', 'release-notes', 'firmware', 'license', 'device', 'patient', 'report']) {
      expect(k).toContain(key);
    }
  });

  it('shows Report Log to ADMIN only when the hidden API mode is on', () => {
    expect(keys('ADMIN')).not.toContain('report-log');
    expect(keys('ADMIN', true)).toContain('report-log');
    expect(keys('SUB_ADMIN', true)).not.toContain('report-log');
  });

  it('gives ORG_ADMIN all users and reports but no devices, patients or scans', () => {
    const k = keys('ORG_ADMIN');
    expect(k).toContain('user-all');
    expect(k).toContain('report');
    expect(k).not.toContain('user-unassign');
    expect(k).not.toContain('device');
    expect(k).not.toContain('patient');
    expect(k).not.toContain('scan');
  });

  it('gives MANAGER and DISTRIBUTOR_ADMIN all devices only, without firmware or licences', () => {
    for (const role of ['MANAGER', 'DISTRIBUTOR_ADMIN'] as const) {
      const k = keys(role);
      expect(k).toContain('device');
      expect(k).not.toContain('firmware');
      expect(k).not.toContain('license');
    }
  });

  it('gives CERVAICAL_REVIEWER organization and cervaical only', () => {
    expect(keys('CERVAICAL_REVIEWER')).toEqual(['organization', 'scans', 'cervaical']);
  });

  it('drops groups that end up empty', () => {
    expect(menuFor('ORG_ADMIN').find((m) => m.key === 'devices')).toBeUndefined();
  });

  it('lets only ADMIN impersonate and only platform admins choose a parent organization', () => {
    expect(USER_TYPES.filter((t) => can(t, 'user.impersonate'))).toEqual(['ADMIN']);
    expect(USER_TYPES.filter((t) => can(t, 'organization.chooseParent'))).toEqual(['ADMIN', 'SUB_ADMIN']);
  });
});
