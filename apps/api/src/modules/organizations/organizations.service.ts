// Organization use cases (read side). The route has already checked the role; here the scope is resolved and
// applied, so an organization outside it is as missing as one that does not exist.
import {
  ORGANIZATION_DEFAULT_ORDERING,
  type TOrganization,
  type TOrganizationListItem,
  type TOrganizationListQuery,
} from '@sc/shared/organizations';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { DEFAULT_LANGUAGE_ID, DEFAULT_TIMEZONE } from '@sc/shared/constants';
import {
  BASE_LANGUAGE_ISO,
  canEditOrganization,
  ORGANIZATION_MESSAGES,
  RESTRICTED_ORGANIZATION_FIELDS,
  canCreateOrganizationUnder,
  editableOrganizationFields,
  type TOrganizationInput,
  type TOrganizationSaved,
  type TOrganizationUpdate,
  type TRestrictedOrganizationField,
} from '@sc/shared/organization-input';
import { can } from '@sc/shared/permissions';
import { isPlatformAdmin, type TUserType } from '@sc/shared/roles';
import { MESSAGES } from '@sc/shared/validation';
import type { AppContext } from '../../app.ts';
import type { Database, Db, DbOrTx, Schema } from '../../db/client.ts';
import type { LocalizedConsent } from '../../db/schema/organizations.ts';
import type { Actor } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, fieldError, notFound, type FieldErrors } from '../../http/errors.ts';
import { parsePathId } from '../../http/params.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { toPageParams } from '../../http/pagination.ts';
import { requestPeriod } from '../../http/period.ts';
import { isInScope, resolveScope, type Scope } from '../../http/scope.ts';
import { auditActor, auditChanges, type AuditChange } from '../../services/audit.service.ts';
import { assertPublicUrl, webhookUrlPolicy } from '../../services/webhooks/url-guard.ts';
import { findFileByPath } from '../files/files.queries.ts';
import { assignFileToOrganization } from '../files/files.service.ts';
import * as queries from './organizations.queries.ts';
import { presentOrganization, presentOrganizationListItem } from './organizations.presenter.ts';
import { readerFor } from '../../db/replica.ts';

export type OrganizationServiceContext = { database: Database; now: () => Date };

export async function listOrganizations(
  ctx: OrganizationServiceContext,
  actor: Actor,
  query: TOrganizationListQuery,
  /** The raw `Timezone` header, read for period filters. */
  timezoneHeader: string | string[] | undefined,
): Promise<{ count: number; results: TOrganizationListItem[] }> {
  // Validate every input before touching the database, so a bad query changes nothing and costs nothing.
  const orderBy = parseOrdering(
    query.ordering,
    queries.organizationOrderingFields,
    ORGANIZATION_DEFAULT_ORDERING,
  );
  const created = requestPeriod(query, timezoneHeader, ctx.now());
  // The scope is read from the primary: a link added a moment ago must already count.
  const scope = await resolveScope(ctx.database.db, actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const { rows, count } = await queries.listOrganizations(
    db,
    scope,
    {
      search: query.search,
      parent: query.parent,
      canCreateOrganization: query.can_create_organization,
      subOrganisation: query.sub_organisation,
      ids: query.ids,
      created,
    },
    orderBy,
    toPageParams(query),
  );
  return { count, results: rows.map(presentOrganizationListItem) };
}

export async function getOrganization(
  ctx: OrganizationServiceContext,
  actor: Actor,
  rawId: string,
  usingReadDb = false,
): Promise<TOrganization> {
  const id = parsePathId(rawId);
  if (id === undefined) throw notFound();
  const scope = await resolveScope(ctx.database.db, actor);
  const db = readerFor(ctx.database, usingReadDb);
  const row = await queries.findOrganization(db, scope, id);
  if (!row) throw notFound();
  return presentOrganization(row, actor.userType, await queries.findOrganizationFigures(db, id));
}

// ---- Write side: create and save (part 1 §2.5, §4, §5, §6; architecture §6, §7b) ---------------------------------
//
// Decisions (docs/decisions.md):
// - A parent must be a distributor (can_create_organization), and an organization with a parent is never one
//   (the form's §4 rule, enforced here): the tree is distributors and their sub-organizations.
// - DISTRIBUTOR_ADMIN and ORG_ADMIN without a parent create under their own organization (their form has no
//   parent picker); MANAGER must name one; ADMIN and SUB_ADMIN may create a top-level organization.
// - Role-restricted fields (ORG_ADMIN_FLAGS, has_web_access, parent, can_create_organization) sent with the
//   value already stored (or the default, on create) are accepted, since the form sends every field; a changed
//   value answers 400 on the field and nothing is saved.
// - PUT and PATCH both leave omitted fields as stored; PUT validates like create (name, country, company_info).

export type OrganizationWriteContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;
type WriteInput = TOrganizationUpdate;
type Meta = { ip?: string | null; userAgent?: string | null };

const INVALID_PK = (value: unknown) => `Invalid pk "${String(value).slice(0, 20)}" - object does not exist.`;

/** API field → column, for the fields stored as sent. */
const COLUMNS = {
  name: 'name',
  address_1: 'address1',
  address_2: 'address2',
  address_3: 'address3',
  country: 'country',
  country_code: 'countryCode',
  state: 'state',
  zipcode: 'zipcode',
  latitude: 'latitude',
  longitude: 'longitude',
  mobile: 'mobile',
  timezone: 'timezone',
  language: 'languageId',
  parent: 'parentId',
  has_web_access: 'hasWebAccess',
  can_create_organization: 'canCreateOrganization',
  qr_enabled_for_training: 'qrEnabledForTraining',
  is_orca_navigation_allowed: 'isOrcaNavigationAllowed',
  is_cervaical_navigation_allowed: 'isCervaicalNavigationAllowed',
  enable_send_sms_to_patient: 'enableSendSmsToPatient',
  enable_send_email_to_patient: 'enableSendEmailToPatient',
  include_consent_form_in_report: 'includeConsentFormInReport',
  automatic_tile_selection_enabled: 'automaticTileSelectionEnabled',
  is_storage_optimised: 'isStorageOptimised',
  is_booking_enabled: 'isBookingEnabled',
  allow_offline_payment: 'allowOfflinePayment',
  webhook_url: 'webhookUrl',
  webhook_auth_token: 'webhookAuthToken',
  webhook_switch: 'webhookSwitch',
  price: 'price',
  currency: 'currency',
  total_bookings_per_slot: 'totalBookingsPerSlot',
  can_be_cancel_before: 'canBeCancelBefore',
  available_days: 'availableDays',
  customized_message: 'customizedMessage',
  customized_message_qr_path: 'customizedMessageQrPath',
  ibe_consent_form: 'ibeConsentForm',
  localize: 'localize',
  company_info: 'companyInfo',
} as const satisfies Record<keyof WriteInput, keyof queries.OrganizationChanges>;

type FieldName = keyof typeof COLUMNS;

/** The stored values of a new organization, as the API names them (what "unchanged" means on create). */
const CREATE_DEFAULTS: Record<TRestrictedOrganizationField, boolean | number | null> = {
  is_orca_navigation_allowed: false,
  is_cervaical_navigation_allowed: false,
  enable_send_sms_to_patient: false,
  is_storage_optimised: false,
  has_web_access: false,
  can_create_organization: false,
  parent: null,
};

function storedRestricted(row: queries.OrganizationRow): Record<TRestrictedOrganizationField, boolean | number | null> {
  return {
    is_orca_navigation_allowed: row.isOrcaNavigationAllowed,
    is_cervaical_navigation_allowed: row.isCervaicalNavigationAllowed,
    enable_send_sms_to_patient: row.enableSendSmsToPatient,
    is_storage_optimised: row.isStorageOptimised,
    has_web_access: row.hasWebAccess,
    can_create_organization: row.canCreateOrganization,
    parent: row.parentId,
  };
}

/** Field errors for every restricted field the role may not change and the input changes. */
function restrictedFieldErrors(
  role: TUserType,
  input: Partial<Record<TRestrictedOrganizationField, boolean | number | null | undefined>>,
  current: Record<TRestrictedOrganizationField, boolean | number | null>,
  skip: readonly TRestrictedOrganizationField[] = [],
): FieldErrors {
  const editable = editableOrganizationFields(role);
  const errors: FieldErrors = {};
  for (const field of RESTRICTED_ORGANIZATION_FIELDS) {
    if (editable[field] || skip.includes(field)) continue;
    const value = input[field];
    if (value !== undefined && value !== current[field]) errors[field] = [MESSAGES.noFieldPermission];
  }
  return errors;
}

function toChanges(input: WriteInput): queries.OrganizationChanges {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = input[field as FieldName];
    if (value !== undefined) out[column] = value;
  }
  return out as queries.OrganizationChanges;
}

/** localize keys must name known languages other than English; names come from the languages table. */
async function resolveLocalize(
  db: Db,
  localize: WriteInput['localize'],
): Promise<Record<string, LocalizedConsent> | undefined> {
  if (localize === undefined) return undefined;
  const keys = Object.keys(localize);
  const found = await queries.findLanguagesByIso(db, keys);
  const byIso = new Map(found.map((l) => [l.isoCode.toLowerCase(), l]));
  const errors: FieldErrors = {};
  const out: Record<string, LocalizedConsent> = {};
  for (const key of keys) {
    const language = byIso.get(key);
    const value = localize[key];
    if (!language || !value || language.isoCode.toLowerCase() === BASE_LANGUAGE_ISO) {
      errors[`localize.${key}`] = [MESSAGES.languageNotInList];
      continue;
    }
    out[language.isoCode] = {
      name: language.name,
      ibe_consent_form: value.ibe_consent_form,
      cervaical_consent_form: value.cervaical_consent_form,
      orca_consent_form: value.orca_consent_form,
    };
  }
  if (Object.keys(errors).length) throw badRequest(errors);
  return out;
}

/** An image path must be an upload of the right folder that the caller may read. */
async function assertUploadedFile(db: Db, actor: Actor, scope: Scope, path: string, folder: string, field: string) {
  const row = await findFileByPath(db, path);
  const readable =
    row !== null &&
    row.folder === folder &&
    (row.organizationId === null
      ? row.userId === actor.id || isPlatformAdmin(actor.userType)
      : await isInScope(db, scope, row.organizationId));
  if (!readable) throw fieldError(field, MESSAGES.invalidFilePath);
}

/** The image paths the input sets (and that differ from what is stored). */
function newFilePaths(input: WriteInput, current?: queries.OrganizationRow): { path: string; folder: string; field: string }[] {
  const out: { path: string; folder: string; field: string }[] = [];
  const logo = input.company_info?.profile_image_path;
  if (logo && logo !== current?.companyInfo.profile_image_path) {
    out.push({ path: logo, folder: 'companylogo', field: 'company_info.profile_image_path' });
  }
  const qr = input.customized_message_qr_path;
  if (qr && qr !== current?.customizedMessageQrPath) {
    out.push({ path: qr, folder: 'customized', field: 'customized_message_qr_path' });
  }
  return out;
}

async function assertWebhookUrl(ctx: OrganizationWriteContext, url: string | null | undefined, current?: string | null) {
  if (!url || url === current) return;
  // Throws a 400 on webhook_url for the server's own network ('This URL points to a private or local address.')
  // or a port other than 80, 443 and the configured ones.
  await assertPublicUrl(url, webhookUrlPolicy(ctx.config));
}

async function runInTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  // Both drivers' transaction handles are query builders of the same schema; the union type hides that.
  return (db as PgliteDatabase<Schema>).transaction((tx) => fn(tx as unknown as Db));
}

function assertCanWrite(actor: Actor, action: 'create' | 'edit'): void {
  const allowed = action === 'create' ? can(actor.userType, 'organization.create') : canEditOrganization(actor.userType);
  if (!allowed) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

/** The parent an organization is created under, checked against the caller's role and scope. */
async function resolveCreateParent(db: Db, actor: Actor, scope: Scope, requested: number | null | undefined) {
  let parentId = requested ?? null;
  if (parentId === null) {
    if (actor.userType === 'DISTRIBUTOR_ADMIN' || actor.userType === 'ORG_ADMIN') parentId = actor.organizationId;
    else if (!isPlatformAdmin(actor.userType)) throw fieldError('parent', MESSAGES.parentRequired);
  }
  if (parentId === null) {
    if (!isPlatformAdmin(actor.userType)) throw fieldError('parent', MESSAGES.parentRequired);
    return null;
  }
  // ORG_ADMIN's scope is its own organization, so it can only create under that one.
  const parent = await queries.findOrganization(db, scope, parentId);
  if (!parent) throw fieldError('parent', INVALID_PK(parentId));
  if (!canCreateOrganizationUnder(actor.userType, { id: parent.id, can_create_organization: parent.canCreateOrganization }, actor.organizationId)) {
    throw fieldError('parent', MESSAGES.parentNotDistributor);
  }
  return parent;
}

export async function createOrganization(
  ctx: OrganizationWriteContext,
  actor: Actor,
  input: TOrganizationInput,
  meta: Meta = {},
): Promise<TOrganizationSaved> {
  assertCanWrite(actor, 'create');
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const parent = await resolveCreateParent(db, actor, scope, input.parent);

  // A sub-organization is never a distributor (part 1 §4).
  const canCreate = parent ? false : (input.can_create_organization ?? false);
  // Checked as sent: a role that may not make distributors and sends can_create_organization: true gets a 400 on
  // the field, even where the parent would have forced it off anyway (it is never dropped silently).
  const restricted = restrictedFieldErrors(
    actor.userType,
    input,
    CREATE_DEFAULTS,
    // The parent was checked above: DISTRIBUTOR_ADMIN, MANAGER and ORG_ADMIN name the one they create under.
    ['parent'],
  );
  if (Object.keys(restricted).length) throw badRequest(restricted);

  if (input.language != null && !(await queries.languageExists(db, input.language))) {
    throw fieldError('language', INVALID_PK(input.language));
  }
  const language =
    input.language !== undefined
      ? input.language
      : (await queries.languageExists(db, DEFAULT_LANGUAGE_ID))
        ? DEFAULT_LANGUAGE_ID
        : null;
  const localize = await resolveLocalize(db, input.localize);
  const files = newFilePaths(input);
  for (const f of files) await assertUploadedFile(db, actor, scope, f.path, f.folder, f.field);
  await assertWebhookUrl(ctx, input.webhook_url);

  const at = ctx.now();
  const row = await runInTransaction(db, async (tx) => {
    let parentPath = '/';
    if (parent) {
      // Lock the parent so a concurrent move cannot leave this organization with a stale path.
      const paths = await queries.lockOrganizations(tx, [parent.id]);
      const path = paths.get(parent.id);
      if (!path) throw fieldError('parent', INVALID_PK(parent.id));
      parentPath = path;
    }
    const created = await queries.insertOrganization(
      tx,
      {
        ...toChanges(input),
        name: input.name,
        timezone: input.timezone ?? DEFAULT_TIMEZONE,
        languageId: language,
        parentId: parent?.id ?? null,
        canCreateOrganization: canCreate,
        ...(localize ? { localize } : {}),
        created: at,
        modified: at,
        createdBy: actor.id,
        modifiedBy: actor.id,
      },
      parentPath,
    );
    // The organization's users may now read its logo and QR image.
    for (const f of files) await assignFileToOrganization(tx, f.path, created.id);
    await recordAudit(ctx, tx, actor, 'organization.created', created.id, auditChanges(null, auditView(created)), meta);
    return created;
  });

  const figures = await queries.findOrganizationFigures(ctx.database.db, row.id);
  return { ...presentOrganization(row, actor.userType, figures), detail: ORGANIZATION_MESSAGES.created };
}

export async function updateOrganization(
  ctx: OrganizationWriteContext,
  actor: Actor,
  rawId: string,
  input: WriteInput,
  meta: Meta = {},
): Promise<TOrganizationSaved> {
  assertCanWrite(actor, 'edit');
  const id = parsePathId(rawId);
  if (id === undefined) throw notFound();
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const current = await queries.findOrganization(db, scope, id);
  if (!current) throw notFound();

  const parentChanges = input.parent !== undefined && input.parent !== current.parentId;
  const parentId = input.parent !== undefined ? input.parent : current.parentId;
  // Choosing a parent forces the distributor flag off (part 1 §4), and a sub-organization cannot be switched on.
  // An edit that keeps the parent keeps a stored flag: distributors nested under a distributor (the regional
  // hubs of the demo programme, or data imported from the original product) stay editable.
  const requested = input.can_create_organization ?? current.canCreateOrganization;
  const canCreate =
    parentId === null ? requested : parentChanges ? false : requested && current.canCreateOrganization;
  // Checked as sent, against the stored values: a role that may not change `parent` or `can_create_organization`
  // gets a 400 on the field it changes (re-sending the stored value is accepted: the form sends every field).
  const restricted = restrictedFieldErrors(actor.userType, input, storedRestricted(current));
  if (Object.keys(restricted).length) throw badRequest(restricted);

  let parent: queries.OrganizationRow | undefined;
  if (parentChanges && parentId !== null) {
    if (parentId === id) throw fieldError('parent', MESSAGES.ownParent);
    parent = await queries.findOrganization(db, scope, parentId);
    if (!parent) throw fieldError('parent', INVALID_PK(parentId));
    if (parent.treePath.startsWith(current.treePath)) throw fieldError('parent', MESSAGES.ownParent);
    if (!parent.canCreateOrganization) throw fieldError('parent', MESSAGES.parentNotDistributor);
  }
  if (current.canCreateOrganization && !canCreate && (await queries.hasSubOrganizations(db, id))) {
    throw fieldError('can_create_organization', MESSAGES.hasSubOrganizations);
  }
  const webhookUrl = input.webhook_url !== undefined ? input.webhook_url : current.webhookUrl;
  if ((input.webhook_switch ?? current.webhookSwitch) && !webhookUrl) {
    throw fieldError('webhook_url', MESSAGES.webhookUrlRequired);
  }
  if (input.language != null && input.language !== current.languageId && !(await queries.languageExists(db, input.language))) {
    throw fieldError('language', INVALID_PK(input.language));
  }
  const localize = await resolveLocalize(db, input.localize);
  const files = newFilePaths(input, current);
  for (const f of files) await assertUploadedFile(db, actor, scope, f.path, f.folder, f.field);
  await assertWebhookUrl(ctx, input.webhook_url, current.webhookUrl);

  const at = ctx.now();
  const row = await runInTransaction(db, async (tx) => {
    if (parentChanges) {
      const locked = await queries.lockOrganizations(tx, parentId === null ? [id] : [id, parentId]);
      const ownPath = locked.get(id);
      const parentPath = parentId === null ? '/' : locked.get(parentId);
      if (!ownPath) throw notFound();
      if (parentPath === undefined) throw fieldError('parent', INVALID_PK(parentId));
      // Checked again under the lock: a concurrent move may have put the new parent inside this subtree.
      if (parentPath.startsWith(ownPath)) throw fieldError('parent', MESSAGES.ownParent);
      await queries.rewriteTreePaths(tx, ownPath, `${parentPath}${id}/`);
    }
    const saved = await queries.updateOrganizationRow(tx, id, {
      ...toChanges(input),
      parentId,
      canCreateOrganization: canCreate,
      ...(localize ? { localize } : {}),
      modified: at,
      modifiedBy: actor.id,
    });
    for (const f of files) await assignFileToOrganization(tx, f.path, id);
    await recordAudit(ctx, tx, actor, 'organization.updated', id, auditChanges(auditView(current), auditView(saved)), meta);
    return saved;
  });

  const figures = await queries.findOrganizationFigures(ctx.database.db, id);
  const after = presentOrganization(row, actor.userType, figures);
  return { ...after, detail: ORGANIZATION_MESSAGES.updated };
}

/** The organization as the API shows it to an ADMIN, without the figures and stamps a write does not change. */
function auditView(row: queries.OrganizationRow): Record<string, unknown> {
  const { modified: _m, modified_by: _mb, scans_count: _s, positive_scans: _p, stats_last_sync: _l, ...rest } = presentOrganization(
    row,
    'ADMIN',
    { scansCount: 0, positiveScans: 0, statsLastSync: null },
  ) as TOrganization & Record<string, unknown>;
  return rest;
}

/** Before and after of the changed fields, in the write's transaction (the webhook token is written redacted). */
async function recordAudit(
  ctx: OrganizationWriteContext,
  tx: DbOrTx,
  actor: Actor,
  action: string,
  id: number,
  changes: AuditChange[],
  meta: Meta,
): Promise<void> {
  await ctx.services.audit.record(
    { action, ...auditActor(actor, meta), targetType: 'organization', targetId: id, organizationId: id, changes },
    tx,
  );
}
