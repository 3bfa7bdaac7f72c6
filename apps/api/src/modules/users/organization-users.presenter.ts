// User list rows → API shape (ZOrganizationUser). Only what is listed here is sent: never a password hash,
// a PIN hash or a token.
import type { TOrganizationUser, TUserDetail } from '@sc/shared/users';
import type { OrganizationUserRow } from './organization-users.queries.ts';

export function presentOrganizationUser(r: OrganizationUserRow): TOrganizationUser {
  return {
    id: r.id,
    first_name: r.firstName,
    last_name: r.lastName,
    username: r.username,
    email: r.email,
    mobile: r.mobile,
    mobile_country_code: r.mobileCountryCode,
    user_type: r.userType,
    is_trainer: r.isTrainer,
    is_available_demo: r.isAvailableDemo,
    is_valid: r.isValid,
    organization: r.organizationId,
    organization_data: r.organization
      ? {
          id: r.organization.id,
          name: r.organization.name,
          can_create_organization: r.organization.canCreateOrganization,
        }
      : null,
    ibe_training_status: r.ibeTrainingStatus,
    certificate_issue_date: r.certificateIssueDate,
    certificate_expiry_date: r.certificateExpiryDate,
    created: r.created.toISOString(),
  };
}

/** `GET organization/user/{id}/`: the row and the PIN-reset flag. */
export function presentUserDetail(r: OrganizationUserRow): TUserDetail {
  return { ...presentOrganizationUser(r), pin_reset_request: r.pinResetRequest };
}
