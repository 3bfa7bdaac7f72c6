// Who sees which organization button (part 1 §2.4, §6; DESIGN §7b). The API refuses the rest; these
// only keep the console from offering what would be refused.
import type { TSessionUser } from '@sc/shared/auth';
import { isPlatformAdmin, type TUserType } from '@sc/shared/roles';

/**
 * The list's Add button follows part 1 §2.4: ADMIN and DISTRIBUTOR_ADMIN; MANAGER only inside an
 * organization's Sub-Organization tab; ORG_ADMIN only when its own organization is a distributor,
 * since the API lets it create under its own organization only then (DESIGN §7b).
 */
export function canAddOrganization(user: TSessionUser, embedded: boolean): boolean {
  switch (user.user_type) {
    case 'ADMIN':
    case 'DISTRIBUTOR_ADMIN':
      return true;
    case 'MANAGER':
      return embedded;
    case 'ORG_ADMIN':
      return user.organization_data?.can_create_organization === true;
    case 'SUB_ADMIN':
    case 'CERVAICAL_REVIEWER':
    case 'TECHNICIAN':
      return false;
  }
}

/**
 * Edit (row action, detail header): the roles of part 1 §6's "edit pencil", except the cervical
 * reviewer, whose console is cervical exams and organization lists only (DESIGN §6).
 */
export const canEditOrganization = (role: TUserType): boolean => role !== 'CERVAICAL_REVIEWER' && role !== 'TECHNICIAN';

/** The filter dropdown shows to every role whose scope holds more than one organization (DESIGN §7b). */
export const hasManyOrganizations = (user: TSessionUser): boolean =>
  isPlatformAdmin(user.user_type) || user.organizations_count > 1;

/** Sub-Organization tab: ADMIN, SUB_ADMIN or MANAGER, on an organization that can create organizations. */
export const canSeeSubOrganizations = (role: TUserType, canCreateOrganization: boolean): boolean =>
  canCreateOrganization && (role === 'ADMIN' || role === 'SUB_ADMIN' || role === 'MANAGER');
