// Role → console menu and actions (part 1 §6; architecture §6, §7b). The API guard and the button that hides use these.
// Menu labels are what the user reads: one spelling each ('Cervical', 'ORCA'), and each page's title is its
// entry's label (docs/decisions.md, "Labels"); the spec's spelling stays in keys, paths and API fields.
import type { TUserType } from './roles.ts';

export type MenuItem = {
  key: string;
  label: string;
  path?: string;
  roles: readonly TUserType[];
  children?: readonly MenuItem[];
  /** Shown only when the hidden API mode is on. */
  apiModeOnly?: boolean;
};

const ADMINS: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN'];
const SCAN_ROLES: readonly TUserType[] = ['SUB_ADMIN', 'MANAGER', 'ADMIN', 'DISTRIBUTOR_ADMIN'];

export const MENU: readonly MenuItem[] = [
  { key: 'dashboard', label: 'Dashboard', path: '/dashboard', roles: ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'ORG_ADMIN'] },
  {
    key: 'organization',
    label: 'Organization',
    path: '/organization',
    roles: ['ADMIN', 'SUB_ADMIN', 'ORG_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'CERVAICAL_REVIEWER'],
  },
  {
    key: 'scans',
    label: 'Scans',
    roles: [...SCAN_ROLES, 'CERVAICAL_REVIEWER'],
    children: [
      { key: 'scan', label: 'Breast Scans', path: '/scan', roles: SCAN_ROLES },
      { key: 'cervaical', label: 'Cervical Exams', path: '/cervaical', roles: [...SCAN_ROLES, 'CERVAICAL_REVIEWER'] },
      { key: 'orca', label: 'ORCA Exams', path: '/orca', roles: SCAN_ROLES },
      { key: 'mapreport', label: 'Scan Map', path: '/mapreport', roles: SCAN_ROLES },
    ],
  },
  {
    key: 'devices',
    label: 'Devices',
    roles: [...ADMINS, 'MANAGER', 'DISTRIBUTOR_ADMIN'],
    children: [
      { key: 'device', label: 'All Devices', path: '/device', roles: [...ADMINS, 'MANAGER', 'DISTRIBUTOR_ADMIN'] },
      { key: 'firmware', label: 'Firmware', path: '/firmware', roles: ADMINS },
      { key: 'license', label: 'License', path: '/license', roles: ADMINS },
    ],
  },
  {
    key: 'users',
    label: 'Users',
    roles: [...SCAN_ROLES, 'ORG_ADMIN'],
    children: [
      { key: 'user-all', label: 'All Users', path: '/user?all=true', roles: [...SCAN_ROLES, 'ORG_ADMIN'] },
      { key: 'user-unassign', label: 'Unassigned Users', path: '/user?unassign=true', roles: SCAN_ROLES },
      { key: 're-certification', label: 'Re-Certification', path: '/re-certification', roles: SCAN_ROLES },
    ],
  },
  { key: 'patient', label: 'Patients', path: '/patient', roles: SCAN_ROLES },
  // Issue 26: FOLLOW_UP_ROLES of follow-up.ts, written out so the menu does not bring that module's schemas along.
  { key: 'follow-up', label: 'Follow-up', path: '/follow-up', roles: ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'] },
  // Issue 27: AUDIT_ROLES of audit.ts, written out so the menu does not bring that module's schemas along.
  { key: 'audit', label: 'Audit trail', path: '/audit', roles: ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'ORG_ADMIN'] },
  { key: 'language', label: 'Languages', path: '/language', roles: ['ADMIN'] },
  { key: 'tutorial', label: 'Tutorials', path: '/tutorial/module', roles: ['ADMIN'] },
  {
    key: 'release-notes',
    label: 'Release Notes',
    roles: ['ADMIN'],
    children: [
      { key: 'app-version-ibe', label: 'IBE', path: '/app-version?ibe=true', roles: ['ADMIN'] },
      { key: 'app-version-orca', label: 'ORCA', path: '/app-version?orca=true', roles: ['ADMIN'] },
      { key: 'app-version-cervaical', label: 'Cervical', path: '/app-version?cervaical=true', roles: ['ADMIN'] },
    ],
  },
  { key: 'booking', label: 'Booking', path: '/booking', roles: ADMINS },
  { key: 'report', label: 'Scan Report', path: '/report', roles: [...SCAN_ROLES, 'ORG_ADMIN'] },
  { key: 'report-log', label: 'Report Log', path: '/report-log', roles: ['ADMIN'], apiModeOnly: true },
];

/** The menu as one role sees it; empty groups are dropped. */
export function menuFor(role: TUserType, apiMode = false): MenuItem[] {
  const visible = (m: MenuItem) => m.roles.includes(role) && (!m.apiModeOnly || apiMode);
  return MENU.filter(visible)
    .map((m) => (m.children ? { ...m, children: m.children.filter(visible) } : m))
    .filter((m) => !m.children || m.children.length > 0);
}

export const ACTIONS = {
  'organization.create': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  'organization.menuCreate': ['SUB_ADMIN', 'ADMIN', 'DISTRIBUTOR_ADMIN'],
  'organization.chooseParent': ['SUB_ADMIN', 'ADMIN'],
  'organization.editAdminFlags': ['SUB_ADMIN', 'ADMIN'],
  'organization.editWebAccess': ['SUB_ADMIN', 'ADMIN', 'MANAGER', 'DISTRIBUTOR_ADMIN'],
  'reference.manage': ['ADMIN', 'SUB_ADMIN', 'ORG_ADMIN'],
  'user.impersonate': ['ADMIN'],
  'reportLog.view': ['ADMIN'],
  // Development aids: the outbox (demo mode) and the OpenAPI page when API_DOCS=admin (production default).
  'dev.readOutbox': ['ADMIN'],
  'apiDocs.read': ['ADMIN'],
} as const satisfies Record<string, readonly TUserType[]>;
export type Action = keyof typeof ACTIONS;

export const can = (role: TUserType, action: Action): boolean =>
  (ACTIONS[action] as readonly TUserType[]).includes(role);

/**
 * The organization list's Add button and its `?create=true` link (part 1 §2.4, architecture §7b): ADMIN, SUB_ADMIN
 * and DISTRIBUTOR_ADMIN; MANAGER only inside an organization's Sub-Organization tab; ORG_ADMIN only when its
 * own organization is a distributor, since the API lets it create under its own organization only then.
 * Every role with the user card's Create Organization (`organization.menuCreate`) has it outside a tab.
 */
export function canAddOrganization(
  role: TUserType,
  where: { embedded: boolean; ownOrganizationIsDistributor: boolean },
): boolean {
  switch (role) {
    case 'ADMIN':
    case 'SUB_ADMIN':
    case 'DISTRIBUTOR_ADMIN':
      return true;
    case 'MANAGER':
      return where.embedded;
    case 'ORG_ADMIN':
      return where.ownOrganizationIsDistributor;
    case 'CERVAICAL_REVIEWER':
    case 'TECHNICIAN':
      return false;
  }
}
