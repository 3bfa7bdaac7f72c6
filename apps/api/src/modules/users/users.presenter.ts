// Row → API shape of the signed-in user (ZSessionUser). Only what is listed here is sent: never a password
// hash, a PIN hash or a token.
import type { TSessionUser } from '@sc/shared/auth';
import type { CardOrganization, UserRow } from './users.queries.ts';

const presentOrganization = (o: CardOrganization) => ({
  id: o.id,
  name: o.name,
  can_create_organization: o.canCreateOrganization,
});

export function presentSessionUser(input: {
  user: UserRow;
  organization: CardOrganization | null;
  organizations: CardOrganization[];
  organizationsCount: number;
  scans: { total: number; positive: number };
  impersonator: { id: number; email: string | null } | null;
}): TSessionUser {
  const { user, scans } = input;
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    username: user.username,
    email: user.email,
    mobile: user.mobile,
    mobile_country_code: user.mobileCountryCode,
    user_type: user.userType,
    is_trainer: user.isTrainer,
    is_valid: user.isValid,
    organization: user.organizationId,
    organization_data: input.organization ? presentOrganization(input.organization) : null,
    organizations: input.organizations.map(presentOrganization),
    organizations_count: input.organizationsCount,
    scans_count: scans.total,
    // Positivity with one decimal (part 1 §9).
    dynamic_positivity_percentage: scans.total ? Math.round((scans.positive / scans.total) * 1000) / 10 : 0,
    created: user.created.toISOString(),
    last_used_dashboard_path: user.lastUsedDashboardPath,
    is_impersonated: input.impersonator !== null,
    impersonator: input.impersonator,
    pin_reset_request: user.pinResetRequest,
  };
}
