// Users of `organization/user/` (part 2 §2.2, §2.3, §4–§7; architecture §6, §7b "Levels"): the list, one user, create,
// edit (PUT) and the list's assign / unassign / transfer (PATCH). The scope is resolved here and applied to every
// row, so a user of an organization outside it is as missing as one that does not exist (404); who may do what to
// whom is packages/shared/src/user-permissions.ts, the same functions the console's buttons call.
import { invalidPk } from '@sc/shared/devices';
import type { TUserType } from '@sc/shared/roles';
import {
  USER_MESSAGES,
  organizationRequiredFor,
  type TUserInput,
  type TUserPatch,
  type TUserUpdate,
} from '@sc/shared/user-input';
import {
  allowedUserTypes,
  canEditUser,
  canSetTrainerFlags,
  canUser,
  isAboveActor,
  userTypeOrganizationProblem,
  type TUserAction,
  type TUserActor,
  type TUserOrganizationFacts,
} from '@sc/shared/user-permissions';
import {
  USER_DEFAULT_ORDERING,
  type TOrganizationUser,
  type TOrganizationUserListQuery,
  type TUserDetail,
  type TUserSaved,
} from '@sc/shared/users';
import { MESSAGES, parseMobile } from '@sc/shared/validation';
import type { AppContext } from '../../app.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditActor, auditChanges, type AuditChange } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, fieldError, notFound, type FieldErrors } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { toPageParams } from '../../http/pagination.ts';
import { requestPeriod } from '../../http/period.ts';
import { isInScope, resolveScope } from '../../http/scope.ts';
import { presentOrganizationUser, presentUserDetail } from './organization-users.presenter.ts';
import * as q from './organization-users.queries.ts';
import { sendPasswordLink } from './user-password-links.ts';
import { readerFor } from '../../db/replica.ts';

export type OrganizationUserServiceContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;
export type UserMeta = Pick<RequestMeta, 'ip' | 'userAgent' | 'timezone'>;

export const USER_AUDIT = {
  created: 'user.created',
  updated: 'user.updated',
  assigned: 'user.assigned',
  unassigned: 'user.unassigned',
  transferred: 'user.transferred',
  pinReset: 'user.pin_reset',
  passwordLinkSent: 'user.password_link_sent',
  certified: 'user.certified',
  reCertified: 'user.re_certified',
  organizationLinked: 'user.organization_linked',
  organizationUnlinked: 'user.organization_unlinked',
} as const;

// ---- Shared helpers of the users area ----------------------------------------------------------------------------

export const actorFacts = (actor: Actor): TUserActor => ({
  id: actor.id,
  user_type: actor.userType,
  organization: actor.organizationId,
});

export const accessDenied = () => new AppError('forbidden', USER_MESSAGES.accessDenied);

/** 403 with the generic text when the role may never do `action` (the route's guard says the same). */
export function assertCanUser(actor: Actor, action: TUserAction): void {
  if (!canUser(actor.userType, action)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

/** The user `id` when the caller's scope holds it, else 404 (read from the primary: a change must see the latest). */
export async function findVisibleUser(
  ctx: Pick<AppContext, 'database'>,
  actor: Actor,
  id: number,
  db: DbOrTx = ctx.database.db,
): Promise<q.OrganizationUserRow> {
  const scope = await resolveScope(ctx.database.db, actor);
  const row = await q.findUserInScope(db, scope, id);
  if (!row) throw notFound();
  return row;
}

export async function recordUserAudit(
  ctx: Pick<AppContext, 'services'>,
  actor: Actor,
  action: string,
  targetId: number,
  details: Record<string, unknown>,
  meta: Pick<RequestMeta, 'ip' | 'userAgent'>,
  tx?: DbOrTx,
  row: { organizationId?: number | null; changes?: AuditChange[] } = {},
): Promise<void> {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType: 'user',
      targetId,
      organizationId: row.organizationId ?? null,
      changes: row.changes ?? null,
      details,
    },
    tx,
  );
}

const orgFactsOf = (o: q.OrganizationFacts | null): TUserOrganizationFacts =>
  o ? { can_create_organization: o.canCreateOrganization } : null;

/** An organization named in a body must exist and be in the caller's scope (else DRF's unknown-pk text: no leak). */
async function organizationInScope(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
): Promise<q.OrganizationFacts> {
  const { db } = ctx.database;
  const org = (await isInScope(db, await resolveScope(db, actor), id))
    ? await q.findOrganizationFacts(db, id)
    : null;
  if (!org) throw fieldError('organization', invalidPk(id));
  return org;
}

/**
 * The type rules for `type` in `organization` (part 2 §6, architecture §7b): a type the actor may never give is refused
 * first; then MANAGER and ADMIN stay out of organizations and DISTRIBUTOR_ADMIN needs a distributor; then the list
 * the actor may give for this organization.
 */
function typeProblems(
  actorType: TUserType,
  type: TUserType,
  org: q.OrganizationFacts | null,
): FieldErrors | null {
  const facts = orgFactsOf(org);
  if (!allowedUserTypes(actorType, { can_create_organization: true }).includes(type)) {
    return { user_type: [USER_MESSAGES.typeNotAllowed] };
  }
  const problem = userTypeOrganizationProblem(type, facts);
  if (problem === 'typeWithoutOrganization') return { organization: [USER_MESSAGES.typeWithoutOrganization] };
  if (problem === 'distributorNeedsDistributorOrganization') {
    return { user_type: [USER_MESSAGES.distributorNeedsDistributorOrganization] };
  }
  if (!allowedUserTypes(actorType, facts).includes(type))
    return { user_type: [USER_MESSAGES.typeNotAllowed] };
  return null;
}

/** Trainer and demo flags: a role that may not set them may only send the value already stored (part 2 §6). */
function flagProblems(
  actor: Actor,
  input: { is_trainer?: boolean; is_available_demo?: boolean },
  current: { isTrainer: boolean; isAvailableDemo: boolean },
): FieldErrors | null {
  if (canSetTrainerFlags(actor.userType)) return null;
  const fields: FieldErrors = {};
  if (input.is_trainer !== undefined && input.is_trainer !== current.isTrainer) {
    fields.is_trainer = [MESSAGES.noFieldPermission];
  }
  if (input.is_available_demo !== undefined && input.is_available_demo !== current.isAvailableDemo) {
    fields.is_available_demo = [MESSAGES.noFieldPermission];
  }
  return Object.keys(fields).length ? fields : null;
}

/** True when PostgreSQL refused a row for a unique index (SQLSTATE 23505); the constraint names the column. */
export function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const err = e as { code?: unknown; constraint?: unknown };
    if (err.code === '23505') return typeof err.constraint === 'string' ? err.constraint : '';
  }
  return null;
}

/**
 * A concurrent request taking the same e-mail or mobile: the loser gets the field error, never a 500. Two requests
 * picking the same generated username: the loser picks again (the write is retried, at most three times).
 */
async function withUniqueContacts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'users_email_uq') throw fieldError('email', USER_MESSAGES.duplicateEmail);
      if (constraint === 'users_mobile_uq') throw fieldError('mobile', USER_MESSAGES.duplicateMobile);
      if (constraint === 'users_username_uq' && attempt < 3) continue;
      throw error;
    }
  }
}

/** A readable, unique username: the e-mail's local part (or first.last), with a number when taken. */
export async function freeUsername(
  db: DbOrTx,
  input: { email: string | null; first_name: string; last_name: string },
): Promise<string> {
  const raw = input.email ? input.email.split('@')[0]! : `${input.first_name}.${input.last_name}`;
  const base =
    raw
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '')
      .replace(/^[._-]+|[._-]+$/g, '')
      .slice(0, 30) || 'user';
  const taken = new Set(await q.listUsernamesLike(db, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

// ---- Use cases --------------------------------------------------------------------------------------------------

/** GET organization/user/ */
export async function listOrganizationUsers(
  ctx: Pick<AppContext, 'database' | 'now'>,
  actor: Actor,
  query: TOrganizationUserListQuery,
  /** The raw `Timezone` header, read for period filters. */
  timezoneHeader: string | string[] | undefined,
): Promise<{ count: number; results: TOrganizationUser[] }> {
  // Validate every input before touching the database.
  const orderBy = parseOrdering(query.ordering, q.organizationUserOrderingFields, USER_DEFAULT_ORDERING);
  const created = requestPeriod(query, timezoneHeader, ctx.now());
  if (
    query.certificate_expiry_date_after &&
    query.certificate_expiry_date_before &&
    query.certificate_expiry_date_before < query.certificate_expiry_date_after
  ) {
    throw fieldError('certificate_expiry_date_before', 'The end date must not be before the start date.');
  }
  // The scope is read from the primary: a manager link added a moment ago must already count.
  const scope = await resolveScope(ctx.database.db, actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const { rows, count } = await q.listOrganizationUsers(
    db,
    scope,
    {
      search: query.search,
      userTypes: query.user_type,
      isValid: query.is_valid,
      organizationId: query.organization_id,
      isUnassigned: query.is_unassigned,
      trainingStatus: query.ibe_training_status,
      expiryAfter: query.certificate_expiry_date_after,
      expiryBefore: query.certificate_expiry_date_before,
      created,
    },
    orderBy,
    toPageParams(query),
  );
  return { count, results: rows.map(presentOrganizationUser) };
}

/** GET organization/user/{id}/ */
export async function getOrganizationUser(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
  usingReadDb = false,
): Promise<TUserDetail> {
  assertCanUser(actor, 'user.read');
  const db = readerFor(ctx.database, usingReadDb);
  return presentUserDetail(await findVisibleUser(ctx, actor, id, db));
}

export async function savedUser(
  ctx: OrganizationUserServiceContext,
  id: number,
  detail: string,
  passwordLinkMessage: string | null = null,
): Promise<TUserSaved> {
  // Read without the caller's scope: an unassigned user has just left a MANAGER's sight, yet the answer names it.
  const row = await q.findUserInScope(ctx.database.db, { kind: 'all' }, id);
  if (!row) throw notFound();
  return { ...presentUserDetail(row), detail, password_link_message: passwordLinkMessage };
}

/** POST organization/user/ */
export async function createOrganizationUser(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  input: TUserInput,
  meta: UserMeta,
): Promise<TUserSaved> {
  assertCanUser(actor, 'user.create');
  const { db } = ctx.database;
  // The organization: mandatory for MANAGER and DISTRIBUTOR_ADMIN actors (part 2 §5); an ORG_ADMIN creates in its
  // own organization (architecture §7b), which it may leave out.
  let organizationId = input.organization ?? null;
  if (actor.userType === 'ORG_ADMIN') organizationId ??= actor.organizationId;
  if (organizationId === null && organizationRequiredFor(actor.userType)) {
    throw fieldError('organization', USER_MESSAGES.selectOrganization);
  }
  if (actor.userType === 'ORG_ADMIN' && organizationId !== actor.organizationId) {
    throw fieldError('organization', invalidPk(organizationId));
  }
  const org = organizationId === null ? null : await organizationInScope(ctx, actor, organizationId);
  const problems = {
    ...typeProblems(actor.userType, input.user_type, org),
    ...flagProblems(actor, input, { isTrainer: false, isAvailableDemo: false }),
  };
  const email = input.email ?? null;
  const mobile = input.mobile ?? null;
  const taken = await q.findTakenContacts(db, { email, mobile });
  if (taken.email) problems.email = [USER_MESSAGES.duplicateEmail];
  if (taken.mobile) problems.mobile = [USER_MESSAGES.duplicateMobile];
  if (Object.keys(problems).length) throw badRequest(problems);

  const id = await withUniqueContacts(() =>
    db.transaction(async (tx) => {
      const newId = await q.insertUser(tx, {
        firstName: input.first_name,
        lastName: input.last_name,
        username: await freeUsername(tx, { email, first_name: input.first_name, last_name: input.last_name }),
        email,
        mobile,
        mobileCountryCode: input.mobile_country_code,
        userType: input.user_type,
        organizationId,
        isTrainer: input.is_trainer ?? false,
        isAvailableDemo: input.is_available_demo ?? false,
        createdBy: actor.id,
        at: ctx.now(),
      });
      await recordUserAudit(
        ctx,
        actor,
        USER_AUDIT.created,
        newId,
        {
          user_type: input.user_type,
          organization: organizationId,
          has_email: email !== null,
          has_mobile: mobile !== null,
        },
        meta,
        tx,
        {
          organizationId,
          changes: auditChanges(null, {
            first_name: input.first_name,
            last_name: input.last_name,
            email,
            mobile,
            mobile_country_code: input.mobile_country_code,
            user_type: input.user_type,
            organization: organizationId,
            is_trainer: input.is_trainer ?? false,
            is_available_demo: input.is_available_demo ?? false,
          }),
        },
      );
      return newId;
    }),
  );
  // A new user with an e-mail chooses a password through a link (architecture §5), sent after the commit.
  let linkMessage: string | null = null;
  if (email) {
    await sendPasswordLink(ctx, { id, email, firstName: input.first_name }, 'set_password');
    await recordUserAudit(
      ctx,
      actor,
      USER_AUDIT.passwordLinkSent,
      id,
      { purpose: 'set_password', email },
      meta,
    );
    linkMessage = USER_MESSAGES.passwordLinkSent(email);
  }
  return savedUser(ctx, id, USER_MESSAGES.created, linkMessage);
}

/** The locked fields (part 2 §2.3): sent values must equal the stored ones. */
function lockedProblems(input: TUserPatch, current: q.OrganizationUserRow): FieldErrors | null {
  const fields: FieldErrors = {};
  const country = input.mobile_country_code ?? current.mobileCountryCode ?? 'IN';
  if (input.email !== undefined && (input.email ?? null) !== (current.email?.toLowerCase() ?? null)) {
    fields.email = [USER_MESSAGES.locked];
  }
  if (input.mobile !== undefined) {
    const stored = input.mobile ? (parseMobileStored(input.mobile, country) ?? input.mobile) : null;
    if (stored !== current.mobile) fields.mobile = [USER_MESSAGES.locked];
  }
  if (
    input.mobile_country_code !== undefined &&
    current.mobileCountryCode !== null &&
    input.mobile_country_code !== current.mobileCountryCode
  ) {
    fields.mobile_country_code = [USER_MESSAGES.locked];
  }
  return Object.keys(fields).length ? fields : null;
}

const parseMobileStored = (raw: string, country: string): string | null =>
  parseMobile(raw, country)?.stored ?? null;

/**
 * PUT (`whole`: the edit dialog) and PATCH organization/user/{id}/. Fields left out keep their value. A changed
 * organization assigns (from none), unassigns (to null) or transfers (to another); `is_update_scan_organization`
 * moves the user's scans with them (part 2 §7). Unassigning keeps the scans where they are.
 */
export async function updateOrganizationUser(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
  input: TUserUpdate | TUserPatch,
  meta: UserMeta,
  whole: boolean,
): Promise<TUserSaved> {
  const current = await findVisibleUser(ctx, actor, id);
  if (isAboveActor(actor.userType, current.userType)) throw accessDenied();

  const nextOrgId = input.organization === undefined ? current.organizationId : input.organization;
  const orgChanged = nextOrgId !== current.organizationId;
  const nextType = input.user_type ?? current.userType;
  const typeChanged = nextType !== current.userType;
  const changed: string[] = [];
  if (input.first_name !== undefined && input.first_name !== current.firstName) changed.push('first_name');
  if (input.last_name !== undefined && input.last_name !== current.lastName) changed.push('last_name');
  if (typeChanged) changed.push('user_type');
  if (input.is_trainer !== undefined && input.is_trainer !== current.isTrainer) changed.push('is_trainer');
  if (input.is_available_demo !== undefined && input.is_available_demo !== current.isAvailableDemo) {
    changed.push('is_available_demo');
  }

  // Who may: editing fields is canEditUser; changing the organization is Assign/Unassign or Transfer.
  if (changed.length && !canEditUser(actorFacts(actor), presentOrganizationUser(current)))
    throw accessDenied();
  if (whole && !canEditUser(actorFacts(actor), presentOrganizationUser(current))) throw accessDenied();
  if (orgChanged) {
    const action: TUserAction =
      current.organizationId !== null && nextOrgId !== null ? 'user.transfer' : 'user.assign';
    if (!canUser(actor.userType, action)) throw accessDenied();
  }
  if (actor.id === current.id && (orgChanged || typeChanged)) {
    throw fieldError(typeChanged ? 'user_type' : 'organization', USER_MESSAGES.ownTypeOrOrganization);
  }

  const problems: FieldErrors = { ...lockedProblems(input, current) };
  // The edit form: MANAGER and DISTRIBUTOR_ADMIN must keep an organization (part 2 §5); the list's Unassign is a PATCH.
  if (whole && nextOrgId === null && organizationRequiredFor(actor.userType)) {
    problems.organization = [USER_MESSAGES.selectOrganization];
  }
  if (Object.keys(problems).length) throw badRequest(problems);

  const org =
    nextOrgId === null
      ? null
      : orgChanged
        ? await organizationInScope(ctx, actor, nextOrgId)
        : await q.findOrganizationFacts(ctx.database.db, nextOrgId);
  if (typeChanged) {
    Object.assign(problems, typeProblems(actor.userType, nextType, org));
  } else if (orgChanged) {
    // The type stays: it must still fit the new organization.
    const problem = userTypeOrganizationProblem(nextType, orgFactsOf(org));
    if (problem) problems.organization = [USER_MESSAGES[problem]];
  }
  Object.assign(problems, flagProblems(actor, input, current));
  if (Object.keys(problems).length) throw badRequest(problems);

  const moveScans =
    orgChanged &&
    nextOrgId !== null &&
    'is_update_scan_organization' in input &&
    input.is_update_scan_organization === true;
  const auditAction = !orgChanged
    ? USER_AUDIT.updated
    : nextOrgId === null
      ? USER_AUDIT.unassigned
      : current.organizationId === null
        ? USER_AUDIT.assigned
        : USER_AUDIT.transferred;

  await ctx.database.db.transaction(async (tx) => {
    const at = ctx.now();
    await q.updateUser(
      tx,
      id,
      {
        ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
        ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
        ...(typeChanged ? { userType: nextType } : {}),
        ...(orgChanged ? { organizationId: nextOrgId } : {}),
        ...(input.is_trainer !== undefined ? { isTrainer: input.is_trainer } : {}),
        ...(input.is_available_demo !== undefined ? { isAvailableDemo: input.is_available_demo } : {}),
      },
      { modifiedBy: actor.id, at },
    );
    const scansMoved = moveScans && nextOrgId !== null ? await q.moveTechnicianScans(tx, id, nextOrgId) : 0;
    await recordUserAudit(
      ctx,
      actor,
      auditAction,
      id,
      {
        fields: changed,
        ...(orgChanged ? { from: current.organizationId, to: nextOrgId, scans_moved: scansMoved } : {}),
      },
      meta,
      tx,
      {
        // After a transfer, the new organization (the old one is in the changes).
        organizationId: nextOrgId ?? current.organizationId,
        changes: auditChanges(
          {
            first_name: current.firstName,
            last_name: current.lastName,
            user_type: current.userType,
            organization: current.organizationId,
            is_trainer: current.isTrainer,
            is_available_demo: current.isAvailableDemo,
          },
          {
            first_name: input.first_name ?? current.firstName,
            last_name: input.last_name ?? current.lastName,
            user_type: typeChanged ? nextType : current.userType,
            organization: orgChanged ? nextOrgId : current.organizationId,
            is_trainer: input.is_trainer ?? current.isTrainer,
            is_available_demo: input.is_available_demo ?? current.isAvailableDemo,
          },
        ),
      },
    );
  });

  const detail =
    changed.length || !orgChanged
      ? USER_MESSAGES.updated
      : nextOrgId === null
        ? USER_MESSAGES.unassigned
        : current.organizationId === null
          ? USER_MESSAGES.assigned
          : USER_MESSAGES.transferred;
  return savedUser(ctx, id, detail);
}
