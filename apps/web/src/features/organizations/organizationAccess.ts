// Who sees which organization button (part 1 §2.4, §6; architecture §7b). The API refuses the rest; these
// only keep the console from offering what would be refused.
import type { TSessionUser } from '@sc/shared/auth';
import { canEditOrganization as canEditOrganizationAs } from '@sc/shared/organization-input';
import { canAddOrganization as canAddOrganizationAs } from '@sc/shared/permissions';
import { isPlatformAdmin, type TUserType } from '@sc/shared/roles';

/** The list's Add button and `?create=true`: the shared rule, fed with where the list is and the user's organization. */
export const canAddOrganization = (user: TSessionUser, embedded: boolean): boolean =>
  canAddOrganizationAs(user.user_type, {
    embedded,
    ownOrganizationIsDistributor: user.organization_data?.can_create_organization === true,
  });

/**
 * Edit (row action, detail header, the user card's pencil): the shared rule the API's edit guard uses
 * (ORGANIZATION_EDIT_ROLES: not the cervical reviewer, whose console is cervical exams and organization lists only).
 */
export const canEditOrganization = (role: TUserType): boolean => canEditOrganizationAs(role);

/** The filter dropdown shows to every role whose scope holds more than one organization (architecture §7b). */
export const hasManyOrganizations = (user: TSessionUser): boolean =>
  isPlatformAdmin(user.user_type) || user.organizations_count > 1;

/** Sub-Organization tab: ADMIN, SUB_ADMIN or MANAGER, on an organization that can create organizations. */
export const canSeeSubOrganizations = (role: TUserType, canCreateOrganization: boolean): boolean =>
  canCreateOrganization && (role === 'ADMIN' || role === 'SUB_ADMIN' || role === 'MANAGER');
