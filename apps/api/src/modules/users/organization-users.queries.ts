// Reads of the user list (`GET organization/user/`). Every query takes the caller's scope; users without an
// organization fall outside every scope but 'all' (ADMIN and SUB_ADMIN), which orgScopeCondition guarantees.
import { and, count, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { TUserType } from '@sc/shared/roles';
import type { Db } from '../../db/client.ts';
import { organizations, users } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import { periodCondition, type PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { searchCondition } from '../../http/search.ts';

export type OrganizationUserFilters = {
  search?: string;
  userTypes?: TUserType[];
  isValid?: boolean;
  organizationId?: number;
  isUnassigned?: boolean;
  created: PeriodRange;
};

/** The columns the list presents: never a password hash, a PIN hash or anything session-related. */
const listColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  username: users.username,
  email: users.email,
  mobile: users.mobile,
  mobileCountryCode: users.mobileCountryCode,
  userType: users.userType,
  isTrainer: users.isTrainer,
  isAvailableDemo: users.isAvailableDemo,
  isValid: users.isValid,
  organizationId: users.organizationId,
  ibeTrainingStatus: users.ibeTrainingStatus,
  certificateIssueDate: users.certificateIssueDate,
  certificateExpiryDate: users.certificateExpiryDate,
  created: users.created,
  organization: {
    id: organizations.id,
    name: organizations.name,
    canCreateOrganization: organizations.canCreateOrganization,
  },
};

export type OrganizationUserRow = {
  id: number;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  mobile: string | null;
  mobileCountryCode: string | null;
  userType: TUserType;
  isTrainer: boolean;
  isAvailableDemo: boolean;
  isValid: boolean;
  organizationId: number | null;
  ibeTrainingStatus: (typeof users.$inferSelect)['ibeTrainingStatus'];
  certificateIssueDate: string | null;
  certificateExpiryDate: string | null;
  created: Date;
  organization: { id: number; name: string; canCreateOrganization: boolean } | null;
};

/** The ordering whitelist of `GET organization/user/`. */
export const organizationUserOrderingFields = {
  first_name: users.firstName,
  created: users.created,
  id: users.id,
  email: users.email,
  user_type: users.userType,
};

// Same expression as users_name_trgm_idx, so the trigram index serves the search.
const searchText = sql`(${users.firstName} || ' ' || ${users.lastName} || ' ' || coalesce(${users.email}, '') || ' ' || coalesce(${users.mobile}, ''))`;

function listConditions(scope: Scope, f: OrganizationUserFilters): SQL | undefined {
  return and(
    orgScopeCondition(scope, users.organizationId),
    // Deleted accounts are anonymised shells ('Deleted User'): not people anyone can manage or impersonate.
    isNull(users.deletedAt),
    searchCondition(f.search, [searchText]),
    f.userTypes?.length ? inArray(users.userType, f.userTypes) : undefined,
    f.isValid !== undefined ? eq(users.isValid, f.isValid) : undefined,
    f.organizationId !== undefined ? eq(users.organizationId, f.organizationId) : undefined,
    f.isUnassigned === true ? isNull(users.organizationId) : undefined,
    f.isUnassigned === false ? isNotNull(users.organizationId) : undefined,
    periodCondition(users.created, f.created),
  );
}

export async function listOrganizationUsers(
  db: Db,
  scope: Scope,
  filters: OrganizationUserFilters,
  orderBy: SQL[],
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: OrganizationUserRow[]; count: number }> {
  const where = listConditions(scope, filters);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const n = total?.n ?? 0;
  if (n === 0 || page.offset >= n) return { rows: [], count: n };
  const rows = await db
    .select(listColumns)
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(where)
    .orderBy(...orderBy)
    .limit(page.limit)
    .offset(page.offset);
  return { rows, count: n };
}
