// User types, their labels and levels (architecture §7b). The spelling CERVAICAL_REVIEWER is the spec's contract.
import { z } from 'zod';

export const USER_TYPES = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
  'CERVAICAL_REVIEWER',
  'TECHNICIAN',
] as const;
export const ZUserType = z.enum(USER_TYPES);
export type TUserType = z.infer<typeof ZUserType>;

export const ROLE_LABELS: Record<TUserType, string> = {
  ADMIN: 'Super Admin',
  SUB_ADMIN: 'Sub Admin',
  DISTRIBUTOR_ADMIN: 'Distributor',
  MANAGER: 'Manager',
  ORG_ADMIN: 'ORG Admin',
  CERVAICAL_REVIEWER: 'C-Reviewer',
  TECHNICIAN: 'Technician',
};

/** Higher number = more authority. CERVAICAL_REVIEWER and TECHNICIAN share the lowest level. */
export const ROLE_LEVEL: Record<TUserType, number> = {
  ADMIN: 60,
  SUB_ADMIN: 50,
  DISTRIBUTOR_ADMIN: 40,
  MANAGER: 30,
  ORG_ADMIN: 20,
  CERVAICAL_REVIEWER: 10,
  TECHNICIAN: 10,
};

/** Roles admitted by the console shell's second guard (part 1 §2.1). */
export const CONSOLE_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'ORG_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'CERVAICAL_REVIEWER',
];

/** Types an ADMIN may impersonate (part 1 §2.7); never another ADMIN (architecture §5). */
export const IMPERSONATION_LIST_TYPES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'ORG_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'CERVAICAL_REVIEWER',
];

export const isPlatformAdmin = (t: TUserType): boolean => t === 'ADMIN' || t === 'SUB_ADMIN';
export const isConsoleRole = (t: TUserType): boolean => CONSOLE_ROLES.includes(t);

/** Where a user lands after sign-in (part 1 §2.1, architecture §7b). */
export function landingPathFor(t: TUserType): string {
  switch (t) {
    case 'TECHNICIAN':
      return '/user-delete';
    case 'CERVAICAL_REVIEWER':
      return '/cervaical';
    case 'MANAGER':
      return '/organization';
    case 'ADMIN':
    case 'SUB_ADMIN':
    case 'DISTRIBUTOR_ADMIN':
    case 'ORG_ADMIN':
      return '/dashboard';
  }
}

/** Roles that see dashboard statistics on '/' and 'dashboard' (architecture §7b). */
export const DASHBOARD_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'ORG_ADMIN'];
