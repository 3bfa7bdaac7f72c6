// Licences (part 3 §2, §4, §5, §7; architecture §7, §7b): list, read, create, renew (a PATCH whose count is the new
// total becomes an addition), delete, and the log. ADMIN and SUB_ADMIN only (the License menu's roles); a licence
// outside the caller's scope answers 404. Key and PIN come from a cryptographic random source. Every change
// writes a licence log row and an audit row in the transaction that makes it.
import { randomInt } from 'node:crypto';
import { invalidPk } from '@sc/shared/devices';
import {
  LICENCE_MESSAGES,
  canManageLicences,
  renewalOf,
  type TLicence,
  type TLicenceApplication,
  type TLicenceInput,
  type TLicenceListQuery,
  type TLicenceLog,
  type TLicenceLogQuery,
  type TLicencePatch,
  type TLicenceSaved,
} from '@sc/shared/licences';
import type { TPaginated } from '@sc/shared/list';
import type { AppContext } from '../../app.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { auditActor, auditChanges, type AuditChange } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, fieldError, notFound, type FieldErrors } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { isInScope, resolveScope } from '../../http/scope.ts';
import { presentLicence, presentLicenceLog } from './licences.presenter.ts';
import * as q from './licences.queries.ts';
import { readerFor } from '../../db/replica.ts';

export type LicencesContext = Pick<AppContext, 'database' | 'services' | 'now'>;

export const LICENCE_AUDIT = {
  created: 'licence.created',
  renewed: 'licence.renewed',
  updated: 'licence.updated',
  deleted: 'licence.deleted',
  consumed: 'licence.consumed',
} as const;

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O or 1/I: the key is typed into the app
const CODE_PREFIX: Record<TLicenceApplication, string> = { ORCA: 'ORC', CERVAICAL: 'CRV' };
export const PIN_LENGTH = 6;

/** `ORC-7KQ2-M9XH-4TZD`: 60 random bits after the application's prefix. */
export function generateLicenceCode(application: TLicenceApplication): string {
  const group = () =>
    Array.from({ length: 4 }, () => CODE_ALPHABET.charAt(randomInt(CODE_ALPHABET.length))).join('');
  return `${CODE_PREFIX[application]}-${group()}-${group()}-${group()}`;
}

export function generatePin(): string {
  return String(randomInt(10 ** PIN_LENGTH)).padStart(PIN_LENGTH, '0');
}

function assertCanManage(actor: Actor): void {
  if (!canManageLicences(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

async function findInScope(db: Db, actor: Actor, id: number): Promise<q.LicenceRow> {
  const row = await q.findLicence(db, await resolveScope(db, actor), id);
  if (!row) throw notFound();
  return row;
}

export async function listLicences(
  ctx: LicencesContext,
  actor: Actor,
  query: TLicenceListQuery,
  request: { url: string },
): Promise<TPaginated<TLicence>> {
  assertCanManage(actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count } = await q.listLicences(db, await resolveScope(db, actor), query, page);
  return paginate(request, page, count, rows.map(presentLicence));
}

export async function getLicence(
  ctx: LicencesContext,
  actor: Actor,
  id: number,
  readDb = false,
): Promise<TLicence> {
  assertCanManage(actor);
  return presentLicence(await findInScope(readerFor(ctx.database, readDb), actor, id));
}

export async function createLicence(
  ctx: LicencesContext,
  actor: Actor,
  input: TLicenceInput,
  meta: RequestMeta,
): Promise<TLicenceSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  // A body field naming an organization the caller cannot use is a field error, as DRF answers a bad pk.
  if (!(await isInScope(db, await resolveScope(db, actor), input.organization))) {
    throw fieldError('organization', invalidPk(input.organization));
  }
  const at = ctx.now();
  const id = await db.transaction(async (tx) => {
    let code = generateLicenceCode(input.application);
    // 60 random bits: a clash is all but impossible, but the unique index would turn one into a 500.
    while (await q.isLicenceCodeTaken(tx, code)) code = generateLicenceCode(input.application);
    const licenceId = await q.insertLicence(tx, {
      organizationId: input.organization,
      application: input.application,
      licenseCode: code,
      pin: generatePin(),
      count: input.count,
      isActive: input.is_active,
      by: actor.id,
      at,
    });
    await q.insertLicenceLog(tx, {
      licenseId: licenceId,
      beforeCount: 0,
      afterCount: input.count,
      by: actor.id,
      at,
    });
    await record(ctx, tx, actor, meta, LICENCE_AUDIT.created, licenceId, {
      organization: input.organization,
      application: input.application,
      count: input.count,
    }, {
      organizationId: input.organization,
      changes: auditChanges(null, {
        organization: input.organization,
        application: input.application,
        license_code: code,
        count: input.count,
        is_active: input.is_active,
      }),
    });
    return licenceId;
  });
  const row = await findInScope(db, actor, id);
  return { ...presentLicence(row), detail: LICENCE_MESSAGES.created, renewal: null };
}

/**
 * PATCH: `count` is the new total (part 3 §7); the difference from the current total is added to both counts
 * (architecture §7b), so a licence is never lowered here. Organization and application are fixed once created.
 */
export async function updateLicence(
  ctx: LicencesContext,
  actor: Actor,
  id: number,
  patch: TLicencePatch,
  meta: RequestMeta,
): Promise<TLicenceSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const current = await findInScope(db, actor, id);
  const errors: FieldErrors = {};
  if (patch.organization !== undefined && patch.organization !== current.organizationId) {
    errors.organization = [LICENCE_MESSAGES.organizationFixed];
  }
  if (patch.application !== undefined && patch.application !== current.application) {
    errors.application = [LICENCE_MESSAGES.applicationFixed];
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);

  const at = ctx.now();
  const renewal = await db.transaction(async (tx) => {
    // Locked so two renewals of one licence add up, each against the total the other left.
    const total = await q.lockLicenceTotal(tx, id);
    if (total === null) throw notFound();
    const added = patch.count === undefined ? 0 : patch.count - total;
    if (added < 0) throw fieldError('count', LICENCE_MESSAGES.countBelowTotal(total));
    const counts = await q.renewLicence(tx, id, { added, isActive: patch.is_active, by: actor.id, at });
    if (added > 0) {
      await q.insertLicenceLog(tx, {
        licenseId: id,
        beforeCount: counts.before,
        afterCount: counts.after,
        by: actor.id,
        at,
      });
    }
    await record(ctx, tx, actor, meta, added > 0 ? LICENCE_AUDIT.renewed : LICENCE_AUDIT.updated, id, {
      added,
      before_count: counts.before,
      after_count: counts.after,
      ...(patch.is_active === undefined ? {} : { is_active: patch.is_active }),
    }, {
      organizationId: current.organizationId,
      changes: auditChanges(
        { count: counts.before, is_active: current.isActive },
        { count: counts.after, is_active: patch.is_active ?? current.isActive },
      ),
    });
    return added > 0 ? renewalOf(total, added) : null;
  });
  const row = await findInScope(db, actor, id);
  return {
    ...presentLicence(row),
    detail: renewal ? LICENCE_MESSAGES.renewed : LICENCE_MESSAGES.updated,
    renewal,
  };
}

export async function deleteLicence(
  ctx: LicencesContext,
  actor: Actor,
  id: number,
  meta: RequestMeta,
): Promise<{ detail: string }> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const current = await findInScope(db, actor, id);
  await db.transaction(async (tx) => {
    // ORCA exams keep the key they were made with (licence_code); their link to the licence becomes empty.
    await q.deleteLicence(tx, id);
    await record(ctx, tx, actor, meta, LICENCE_AUDIT.deleted, id, {
      organization: current.organizationId,
      application: current.application,
      count: current.count,
      total_license_count: current.totalLicenseCount,
    }, {
      organizationId: current.organizationId,
      changes: auditChanges(
        {
          organization: current.organizationId,
          application: current.application,
          license_code: current.licenseCode,
          count: current.count,
          total_license_count: current.totalLicenseCount,
          is_active: current.isActive,
        },
        null,
      ),
    });
  });
  return { detail: LICENCE_MESSAGES.deleted };
}

export async function listLicenceLogs(
  ctx: LicencesContext,
  actor: Actor,
  query: TLicenceLogQuery,
  request: { url: string },
): Promise<TPaginated<TLicenceLog>> {
  assertCanManage(actor);
  const db = readerFor(ctx.database, query.using_read_db);
  // Another organization's licence (or none) has no log for this caller: an empty page, not its history.
  const licence = await q.findLicence(db, await resolveScope(db, actor), query.license_id);
  const page = toPageParams(query);
  if (!licence) return paginate(request, page, 0, []);
  const { rows, count } = await q.listLicenceLogs(db, licence.id, page);
  return paginate(request, page, count, rows.map(presentLicenceLog));
}

async function record(
  ctx: LicencesContext,
  tx: DbOrTx,
  actor: Actor,
  meta: RequestMeta,
  action: string,
  id: number,
  details: Record<string, unknown>,
  row: { organizationId: number; changes: AuditChange[] },
): Promise<void> {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType: 'licence',
      targetId: id,
      organizationId: row.organizationId,
      changes: row.changes,
      details,
    },
    tx,
  );
}
