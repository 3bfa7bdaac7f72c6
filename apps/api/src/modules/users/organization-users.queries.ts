// Reads and writes of users (`organization/user/`). Every read takes the caller's scope; users without an
// organization fall outside every scope but 'all' (ADMIN and SUB_ADMIN), which orgScopeCondition guarantees.
import {
  and,
  count,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  like,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { TTrainingStatus } from '@sc/shared/users';
import type { TUserType } from '@sc/shared/roles';
import type { Db, DbOrTx } from '../../db/client.ts';
import { organizations, scans, users } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import { periodCondition, type PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { escapeLike, searchCondition } from '../../http/search.ts';

export type OrganizationUserFilters = {
  search?: string;
  userTypes?: TUserType[];
  isValid?: boolean;
  organizationId?: number;
  isUnassigned?: boolean;
  trainingStatus?: TTrainingStatus;
  /** Inclusive YYYY-MM-DD bounds on certificate_expiry_date (the re-certification list). */
  expiryAfter?: string;
  expiryBefore?: string;
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
  pinResetRequest: users.pinResetRequest,
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
  pinResetRequest: boolean;
  organization: { id: number; name: string; canCreateOrganization: boolean } | null;
};

/** The ordering whitelist of `GET organization/user/`. */
export const organizationUserOrderingFields = {
  first_name: users.firstName,
  last_name: users.lastName,
  created: users.created,
  id: users.id,
  email: users.email,
  mobile: users.mobile,
  user_type: users.userType,
  ibe_training_status: users.ibeTrainingStatus,
  certificate_issue_date: users.certificateIssueDate,
  certificate_expiry_date: users.certificateExpiryDate,
  organization_name: organizations.name,
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
    f.trainingStatus !== undefined ? eq(users.ibeTrainingStatus, f.trainingStatus) : undefined,
    f.expiryAfter !== undefined ? gte(users.certificateExpiryDate, f.expiryAfter) : undefined,
    f.expiryBefore !== undefined ? lte(users.certificateExpiryDate, f.expiryBefore) : undefined,
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

/** One user in the caller's scope (deleted accounts are not), or null: the 404 of every `organization/user/{id}/`. */
export async function findUserInScope(
  db: DbOrTx,
  scope: Scope,
  id: number,
): Promise<OrganizationUserRow | null> {
  const [row] = await db
    .select(listColumns)
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(users.id, id), orgScopeCondition(scope, users.organizationId), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

export type OrganizationFacts = { id: number; name: string; canCreateOrganization: boolean };

export async function findOrganizationFacts(db: DbOrTx, id: number): Promise<OrganizationFacts | null> {
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      canCreateOrganization: organizations.canCreateOrganization,
    })
    .from(organizations)
    .where(eq(organizations.id, id))
    .limit(1);
  return row ?? null;
}

/** Which of `email` (lower-case) and `mobile` (stored form) another user already has. */
export async function findTakenContacts(
  db: DbOrTx,
  contacts: { email: string | null; mobile: string | null },
): Promise<{ email: boolean; mobile: boolean }> {
  const conditions = [
    contacts.email ? sql`lower(${users.email}) = ${contacts.email}` : undefined,
    contacts.mobile ? eq(users.mobile, contacts.mobile) : undefined,
  ].filter((c): c is SQL => c !== undefined);
  if (!conditions.length) return { email: false, mobile: false };
  const rows = await db
    .select({ email: users.email, mobile: users.mobile })
    .from(users)
    .where(or(...conditions));
  return {
    email: contacts.email !== null && rows.some((r) => r.email?.toLowerCase() === contacts.email),
    mobile: contacts.mobile !== null && rows.some((r) => r.mobile === contacts.mobile),
  };
}

/** Usernames that start with `base` (to pick a free one). */
export async function listUsernamesLike(db: DbOrTx, base: string): Promise<string[]> {
  const rows = await db
    .select({ username: users.username })
    .from(users)
    .where(like(users.username, `${escapeLike(base)}%`));
  return rows.map((r) => r.username);
}

export type NewUser = {
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  mobile: string | null;
  mobileCountryCode: string;
  userType: TUserType;
  organizationId: number | null;
  isTrainer: boolean;
  isAvailableDemo: boolean;
  createdBy: number | null;
  at: Date;
};

export async function insertUser(db: DbOrTx, u: NewUser): Promise<number> {
  const [row] = await db
    .insert(users)
    .values({
      firstName: u.firstName,
      lastName: u.lastName,
      username: u.username,
      email: u.email,
      mobile: u.mobile,
      mobileCountryCode: u.mobileCountryCode,
      userType: u.userType,
      organizationId: u.organizationId,
      isTrainer: u.isTrainer,
      isAvailableDemo: u.isAvailableDemo,
      createdBy: u.createdBy,
      modifiedBy: u.createdBy,
      created: u.at,
      modified: u.at,
    })
    .returning();
  if (!row) throw new Error('user not inserted');
  return row.id;
}

export type UserChanges = Partial<{
  firstName: string;
  lastName: string;
  userType: TUserType;
  organizationId: number | null;
  isTrainer: boolean;
  isAvailableDemo: boolean;
  pinResetRequest: boolean;
  pinHash: null;
  ibeTrainingStatus: TTrainingStatus;
  certificateIssueDate: string;
  certificateExpiryDate: string;
}>;

export async function updateUser(
  db: DbOrTx,
  id: number,
  changes: UserChanges,
  by: { modifiedBy: number; at: Date },
) {
  await db
    .update(users)
    .set({ ...changes, modifiedBy: by.modifiedBy, modified: by.at })
    .where(eq(users.id, id));
}

/** Moves the scans a user took (as technician) to `organizationId`; answers how many moved. */
export async function moveTechnicianScans(
  db: DbOrTx,
  technicianId: number,
  organizationId: number,
): Promise<number> {
  const elsewhere = and(
    eq(scans.technicianId, technicianId),
    or(isNull(scans.organizationId), ne(scans.organizationId, organizationId)),
  );
  const [row] = await db.select({ n: count() }).from(scans).where(elsewhere);
  if (!row?.n) return 0;
  await db.update(scans).set({ organizationId }).where(elsewhere);
  return row.n;
}

/** The user's training scans by type (duplicates, i.e. re-uploads with a parent, are not counted twice). */
/**
 * The user's pre-training, training and practice scans, duplicates left out, in organizations of `scope` only: the
 * same scans the training and practice report PDFs list, so the dialog never offers a report that comes out empty.
 */
export async function countTrainingScans(db: Db, scope: Scope, technicianId: number) {
  const rows = await db
    .select({ type: scans.scanType, n: count() })
    .from(scans)
    .where(
      and(
        eq(scans.technicianId, technicianId),
        isNull(scans.parentScanId),
        orgScopeCondition(scope, scans.organizationId),
        inArray(scans.scanType, ['PRE_TRAINING', 'TRAINING', 'PRACTICE']),
      ),
    )
    .groupBy(scans.scanType);
  const of = (t: string) => rows.find((r) => r.type === t)?.n ?? 0;
  return { pre_training: of('PRE_TRAINING'), training: of('TRAINING'), practice: of('PRACTICE') };
}
