// The console's cervical exams (part 3 §2, §6, §7, §9; architecture §6, §7): list (JSON or CSV), by ids, one exam, the
// review documents, reviews (add: CERVAICAL_REVIEWER, its own, where it has none; edit: ADMIN), reviewer 1/2 and
// their statuses recomputed in the same transaction, an ADMIN's final read of a disagreement, reviewer agreement.
// A review or final read that makes the exam's final read positive opens its patient's follow-up case (issue 26).
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import {
  CERVICAL_CSV_COLUMNS,
  CERVICAL_CSV_TIME_COLUMNS,
  CERVICAL_DEFAULT_ORDERING,
  CERVICAL_LIST_ROLES,
  CERVICAL_MESSAGES,
  CERVICAL_REVIEWERS_PER_EXAM,
  canAddReview,
  canAdjudicate,
  canEditReview,
  canOpenReview,
  computeReviewerSlots,
  isDisagreement,
  missingRequiredAnswer,
  type TAdjudicationInput,
  type TCervicalListQuery,
  type TReviewInput,
  type TReviewerAgreement,
  type TReviewOptions,
} from '@sc/shared/cervical';
import type { TPaginated } from '@sc/shared/list';
import { invalidPk } from '@sc/shared/devices';
import type { AppContext } from '../../app.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { cervicalDocumentReviews, cervicalExams } from '../../db/schema/index.ts';
import { auditActor, auditChanges } from '../../services/audit.service.ts';
import type { Actor } from '../../http/actor.ts';
import { csvDateTime, csvFromBatches, csvHeaderIn, type NewestFirstKey } from '../../http/csv-stream.ts';
import { AppError, fieldError, nonFieldError, notFound } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { requestPeriod, timezoneFromHeader } from '../../http/period.ts';
import { assertInScope, isInScope, resolveScope, type Scope } from '../../http/scope.ts';
import { openCervicalCase } from '../follow-up/follow-up-opening.ts';
import { insertReportLog } from '../scans/scan-list.queries.ts';
import { queueWebhookDelivery } from '../scans/scans.service.ts';
import * as q from './cervical.queries.ts';
import {
  cervicalCsvRecord,
  presentCervicalDetail,
  presentCervicalRow,
  presentDocument,
  presentReview,
  viewerOf,
} from './cervical.presenter.ts';
import { readerFor } from '../../db/replica.ts';

export type CervicalContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;
export type ListRequest = { url: string; timezone: string | string[] | undefined };
export type Meta = { ip: string; userAgent: string | null };

export const CERVICAL_CSV_BATCH = 1000;

const forbidden = (detail: string) => new AppError('forbidden', detail);
const dbOf = (ctx: CervicalContext, usingReadDb: boolean | undefined): Db =>
  readerFor(ctx.database, usingReadDb);

async function readerScope(ctx: CervicalContext, actor: Actor): Promise<Scope> {
  if (!CERVICAL_LIST_ROLES.includes(actor.userType)) throw forbidden(CERVICAL_MESSAGES.listRole);
  return resolveScope(ctx.database.db, actor);
}

async function filtersOf(
  ctx: CervicalContext,
  scope: Scope,
  query: TCervicalListQuery,
  timezone: string | string[] | undefined,
  ids?: number[],
): Promise<q.CervicalFilters> {
  if (
    query.device !== undefined &&
    query.device_serial_number !== undefined &&
    query.device.toLowerCase() !== query.device_serial_number.toLowerCase()
  ) {
    throw fieldError('device', 'Send device or device_serial_number, not two different ones.');
  }
  if (query.organization !== undefined) await assertInScope(ctx.database.db, scope, query.organization);
  return {
    range: requestPeriod(query, timezone, ctx.now()),
    search: query.search,
    organizationId: query.organization,
    deviceSerialNumber: query.device_serial_number ?? query.device,
    technicianId: query.technician,
    isSurvivor: query.survivor,
    isPositive: query.is_positive,
    leftFinding: query.left_breast_finding,
    rightFinding: query.right_breast_finding,
    hasSymptoms: query.symptoms,
    hasFamilyHistory: query.family_history,
    ageMin: query.age_min,
    ageMax: query.age_max,
    patientId: query.patient,
    reviewerOneStatus: query.reviewer_one_status,
    reviewerTwoStatus: query.reviewer_two_status,
    disagreement: query.disagreement,
    adjudicated: query.adjudicated,
    ids,
  };
}

/** GET cervaical/ and POST cervaical/ids/. */
export async function listCervical(
  ctx: CervicalContext,
  actor: Actor,
  query: TCervicalListQuery,
  request: ListRequest,
  ids?: number[],
): Promise<TPaginated<ReturnType<typeof presentCervicalRow>>> {
  const scope = await readerScope(ctx, actor);
  const viewer = viewerOf(actor);
  const orderBy = parseOrdering(query.ordering, q.orderingFields(viewer), CERVICAL_DEFAULT_ORDERING);
  const where = q.cervicalConditions(scope, await filtersOf(ctx, scope, query, request.timezone, ids), viewer);
  const db = dbOf(ctx, query.using_read_db);
  const page = toPageParams(query);
  const count = await q.countCervical(db, where);
  const rows =
    page.offset < count || page.page === 1
      ? await q.listCervicalRows(db, where, orderBy, page.limit, page.offset)
      : [];
  return paginate(request, page, count, rows.map((r) => presentCervicalRow(r, viewer)));
}

/** GET cervaical/?format=csv: cervaical.csv with every row the filters select, newest first, in batches. */
export async function streamCervicalCsv(
  ctx: CervicalContext,
  actor: Actor,
  query: TCervicalListQuery,
  request: ListRequest & { path: string; meta: Meta },
  ids?: number[],
): Promise<Readable> {
  const scope = await readerScope(ctx, actor);
  const viewer = viewerOf(actor);
  parseOrdering(query.ordering, q.orderingFields(viewer), CERVICAL_DEFAULT_ORDERING);
  const where = q.cervicalConditions(scope, await filtersOf(ctx, scope, query, request.timezone, ids), viewer);
  const timezone = timezoneFromHeader(request.timezone);
  const db = dbOf(ctx, query.using_read_db);
  await insertReportLog(ctx.database.db, {
    api: request.path,
    apiQp: { ...query },
    userAgent: request.meta.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: ctx.now(),
  });
  return csvFromBatches({
    columns: csvHeaderIn(CERVICAL_CSV_COLUMNS, CERVICAL_CSV_TIME_COLUMNS, timezone),
    batches: {
      read: (before: NewestFirstKey | null, size: number) => q.cervicalCsvBatch(db, where, before, size),
      keyOf: (row) => ({ dateTime: row.exam.dateTime, id: row.exam.id }),
      size: CERVICAL_CSV_BATCH,
    },
    record: (row) => cervicalCsvRecord(presentCervicalRow(row, viewer), csvDateTime(row.exam.dateTime, timezone)),
    log: ctx.services.log,
    what: 'cervical CSV',
  });
}

/** GET cervaical/{id}/ */
export async function getCervical(ctx: CervicalContext, actor: Actor, id: number, usingReadDb?: boolean) {
  const scope = await readerScope(ctx, actor);
  const row = await q.findCervicalRow(dbOf(ctx, usingReadDb), scope, id);
  if (!row) throw notFound();
  return presentCervicalDetail(row, viewerOf(actor));
}

/** Rows without an organization are visible under the `all` scope only (as orgScopeCondition has it). */
const visible = async (db: Db, scope: Scope, organizationId: number | null): Promise<boolean> =>
  organizationId === null ? scope.kind === 'all' : isInScope(db, scope, organizationId);

async function reviewScope(ctx: CervicalContext, actor: Actor): Promise<Scope> {
  if (!canOpenReview(actor.userType)) throw forbidden(CERVICAL_MESSAGES.reviewRole);
  return resolveScope(ctx.database.db, actor);
}

/**
 * GET cervaical/document/?scan=: the exam's photos and videos with the reviews this caller may see, and the exam's
 * organization (the review's read of the exam is audited).
 */
export async function listDocuments(
  ctx: CervicalContext,
  actor: Actor,
  query: { scan: number; page: number; limit: number; using_read_db?: boolean },
  request: ListRequest,
) {
  const scope = await reviewScope(ctx, actor);
  const db = dbOf(ctx, query.using_read_db);
  const row = await q.findCervicalRow(db, scope, query.scan);
  if (!row) throw notFound();
  const docs = await q.listDocuments(db, row.exam.id);
  const reviews = await q.listReviews(
    db,
    docs.map((d) => d.id),
  );
  const page = toPageParams(query);
  const results = docs
    .slice(page.offset, page.offset + page.limit)
    .map((d) => presentDocument(d, reviews, row.exam, viewerOf(actor)));
  return { page: paginate(request, page, docs.length, results), organizationId: row.exam.organizationId };
}

/** GET cervaical/review-options/: the active qualities and clinical findings a review answers. */
export async function reviewOptions(ctx: CervicalContext, actor: Actor): Promise<TReviewOptions> {
  await reviewScope(ctx, actor);
  const { qualities, findings } = await q.activeOptions(ctx.database.db);
  const present = (o: { id: number; name: string; isRequired: boolean }) => ({
    id: o.id,
    name: o.name,
    is_required: o.isRequired,
  });
  return { qualities: qualities.map(present), clinical_findings: findings.map(present) };
}

/** The answers as stored: names from the catalogue; unknown or inactive ids and missing required ones refused. */
async function answersOf(tx: DbOrTx, input: TReviewInput) {
  const { qualities, findings } = await q.activeOptions(tx);
  const unique = (ids: number[], field: string) => {
    if (new Set(ids).size !== ids.length) throw fieldError(field, CERVICAL_MESSAGES.duplicateItem);
  };
  const qIds = input.qualities.map((a) => a.quality);
  const fIds = input.clinical_finding.map((a) => a.clinical_finding);
  unique(qIds, 'qualities');
  unique(fIds, 'clinical_finding');
  const byQ = new Map(qualities.map((o) => [o.id, o]));
  const byF = new Map(findings.map((o) => [o.id, o]));
  if (qIds.some((id) => !byQ.has(id))) throw fieldError('qualities', CERVICAL_MESSAGES.unknownQuality);
  if (fIds.some((id) => !byF.has(id))) throw fieldError('clinical_finding', CERVICAL_MESSAGES.unknownFinding);
  // architecture §7b: a quality or finding marked required must be answered (checked) — on a Valid review only.
  const required = (o: { id: number; name: string; isRequired: boolean }) => ({ ...o, required: o.isRequired });
  const missingQ = missingRequiredAnswer(input.review_status, qualities.map(required), qIds);
  if (missingQ) throw fieldError('qualities', CERVICAL_MESSAGES.requiredQuality(missingQ.name));
  const missingF = missingRequiredAnswer(input.review_status, findings.map(required), fIds);
  if (missingF) throw fieldError('clinical_finding', CERVICAL_MESSAGES.requiredQuality(missingF.name));
  return {
    qualities: qIds.map((id) => ({ id, name: byQ.get(id)!.name, answer: true, quality: id })),
    clinicalFinding: fIds.map((id) => ({ id, name: byF.get(id)!.name, answer: true, clinical_finding: id })),
  };
}

/** architecture §7: reviewer 1 and 2 and their statuses from the exam's reviews (inside the review's transaction). */
async function recomputeReviewers(tx: DbOrTx, examId: number, at: Date, by: number) {
  const facts = await q.reviewFactsOfExam(tx, examId);
  const { one, two } = computeReviewerSlots(facts.documentIds, facts.reviews);
  await tx
    .update(cervicalExams)
    .set({
      reviewerOneId: one?.userId ?? null,
      reviewerOneStatus: one?.status ?? 'NOT_REVIEWED',
      reviewerTwoId: two?.userId ?? null,
      reviewerTwoStatus: two?.status ?? 'NOT_REVIEWED',
      modified: at,
      modifiedBy: by,
    })
    .where(eq(cervicalExams.id, examId));
}

async function savedReview(ctx: CervicalContext, reviewId: number, examId: number) {
  const db = ctx.database.db;
  const [exam] = await db.select().from(cervicalExams).where(eq(cervicalExams.id, examId));
  const reviews = await q.listReviews(db, [(await q.findReview(db, reviewId))!.review.documentId]);
  const r = reviews.find((x) => x.review.id === reviewId)!;
  return {
    ...presentReview(r, {
      reviewer_one_id: exam!.reviewerOneId,
      reviewer_one_status: exam!.reviewerOneStatus,
      reviewer_two_id: exam!.reviewerTwoId,
      reviewer_two_status: exam!.reviewerTwoStatus,
    }),
    detail: CERVICAL_MESSAGES.reviewSaved,
  };
}

/**
 * Who may add (CERVAICAL_REVIEWER) or edit (ADMIN) a review: 403 otherwise. The routes ask it before the body is
 * parsed (architecture: permission before body validation), so another role learns 403, not the body's shape.
 */
export function assertReviewRole(actor: Actor, action: 'add' | 'edit'): void {
  if (!canOpenReview(actor.userType)) throw forbidden(CERVICAL_MESSAGES.reviewRole);
  if (action === 'add' && !canAddReview(actor.userType)) throw forbidden(CERVICAL_MESSAGES.addRole);
  if (action === 'edit' && !canEditReview(actor.userType)) throw forbidden(CERVICAL_MESSAGES.editRole);
}

/** POST cervaical/document-user/: a CERVAICAL_REVIEWER's own review of a document it has not reviewed. */
export async function addReview(ctx: CervicalContext, actor: Actor, input: TReviewInput, meta: Meta) {
  assertReviewRole(actor, 'add');
  if (input.id != null) throw fieldError('id', 'A new review has no id; send PATCH to change one.');
  if (input.user != null && input.user !== actor.id) throw fieldError('user', 'You can only review as yourself.');
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const doc = await q.findDocument(db, input.document);
  if (!doc || !(await visible(db, scope, doc.organizationId))) {
    throw fieldError('document', invalidPk(input.document));
  }
  const examId = doc.document.examId;
  const now = ctx.now();
  const saved = await db.transaction(async (tx) => {
    await q.lockExam(tx, examId);
    const facts = await q.reviewFactsOfExam(tx, examId);
    if (facts.reviews.some((r) => r.documentId === input.document && r.userId === actor.id)) {
      throw nonFieldError(CERVICAL_MESSAGES.alreadyReviewed);
    }
    const reviewers = new Set(facts.reviews.map((r) => r.userId));
    if (!reviewers.has(actor.id) && reviewers.size >= CERVICAL_REVIEWERS_PER_EXAM) {
      throw nonFieldError(CERVICAL_MESSAGES.examFull);
    }
    const answers = await answersOf(tx, input);
    const [row] = await tx
      .insert(cervicalDocumentReviews)
      .values({
        documentId: input.document,
        userId: actor.id,
        reviewStatus: input.review_status,
        reviewStatusAt: now,
        ...answers,
        created: now,
        modified: now,
        createdBy: actor.id,
      })
      .returning();
    await recomputeReviewers(tx, examId, now, actor.id);
    const opening = await openCervicalCase(tx, examId, { now, actorId: actor.id });
    await ctx.services.audit.record(
      {
        action: 'cervical.review_added',
        ...auditActor(actor, meta),
        targetType: 'cervical_exam',
        targetId: examId,
        organizationId: await examOrganization(tx, examId),
        changes: auditChanges(null, { review: { document: input.document, review_status: input.review_status } }),
        details: { document: input.document, review_status: input.review_status },
      },
      tx,
    );
    return { id: row!.id, followUpDeliveryId: opening?.webhookDeliveryId ?? null };
  });
  if (saved.followUpDeliveryId !== null) await queueWebhookDelivery(ctx, saved.followUpDeliveryId);
  return savedReview(ctx, saved.id, examId);
}

/** 404 for a review that does not exist or is out of the caller's scope (before its body is looked at, as DRF). */
export async function assertReviewVisible(ctx: CervicalContext, actor: Actor, id: number): Promise<void> {
  const { db } = ctx.database;
  const found = await q.findReview(db, id);
  if (!found || !(await visible(db, await resolveScope(db, actor), found.organizationId))) throw notFound();
}

/** PATCH cervaical/document-user/{id}/: ADMIN changes an existing review (its reviewer and first time stay). */
export async function editReview(ctx: CervicalContext, actor: Actor, id: number, input: TReviewInput, meta: Meta) {
  assertReviewRole(actor, 'edit');
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const found = await q.findReview(db, id);
  if (!found || !(await visible(db, scope, found.organizationId))) throw notFound();
  if (input.document !== found.review.documentId) {
    throw fieldError('document', 'The review belongs to another document.');
  }
  if (input.user != null && input.user !== found.review.userId) {
    throw fieldError('user', 'The reviewer of a review cannot be changed.');
  }
  const now = ctx.now();
  const followUpDeliveryId = await db.transaction(async (tx) => {
    await q.lockExam(tx, found.examId);
    const answers = await answersOf(tx, input);
    await tx
      .update(cervicalDocumentReviews)
      .set({ reviewStatus: input.review_status, ...answers, modified: now, modifiedBy: actor.id })
      .where(eq(cervicalDocumentReviews.id, id));
    await recomputeReviewers(tx, found.examId, now, actor.id);
    const opening = await openCervicalCase(tx, found.examId, { now, actorId: actor.id });
    await ctx.services.audit.record(
      {
        action: 'cervical.review_edited',
        ...auditActor(actor, meta),
        targetType: 'cervical_exam',
        targetId: found.examId,
        organizationId: await examOrganization(tx, found.examId),
        changes: auditChanges({ review_status: found.review.reviewStatus }, { review_status: input.review_status }),
        details: {
          review: id,
          from: found.review.reviewStatus,
          to: input.review_status,
        },
      },
      tx,
    );
    return opening?.webhookDeliveryId ?? null;
  });
  if (followUpDeliveryId !== null) await queueWebhookDelivery(ctx, followUpDeliveryId);
  return savedReview(ctx, id, found.examId);
}

/** POST cervaical/{id}/adjudication/: ADMIN's final read of an exam whose two reviewers disagree. */
export async function adjudicate(
  ctx: CervicalContext,
  actor: Actor,
  id: number,
  input: TAdjudicationInput,
  meta: Meta,
) {
  if (!canAdjudicate(actor.userType)) throw forbidden(CERVICAL_MESSAGES.adjudicateRole);
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const now = ctx.now();
  // The scope is read before the transaction: PGlite has one connection, which the transaction holds.
  const before = await q.findCervicalRow(db, scope, id);
  if (!before) throw notFound();
  const followUpDeliveryId = await db.transaction(async (tx) => {
    const exam = await q.lockExam(tx, id);
    if (!exam) throw notFound();
    if (!isDisagreement(exam.reviewerOneStatus, exam.reviewerTwoStatus)) {
      throw nonFieldError(CERVICAL_MESSAGES.notDisagreement);
    }
    await tx
      .update(cervicalExams)
      .set({
        finalStatus: input.final_status,
        adjudicatedById: actor.id,
        adjudicatedAt: now,
        adjudicationNote: input.note ?? null,
        modified: now,
        modifiedBy: actor.id,
      })
      .where(eq(cervicalExams.id, id));
    await ctx.services.audit.record(
      {
        action: 'cervical.adjudicated',
        ...auditActor(actor, meta),
        targetType: 'cervical_exam',
        targetId: id,
        organizationId: await examOrganization(tx, id),
        changes: auditChanges({ final_status: exam.finalStatus }, { final_status: input.final_status }),
        details: { final_status: input.final_status, previous: exam.finalStatus },
      },
      tx,
    );
    const opening = await openCervicalCase(tx, id, { now, actorId: actor.id });
    return opening?.webhookDeliveryId ?? null;
  });
  if (followUpDeliveryId !== null) await queueWebhookDelivery(ctx, followUpDeliveryId);
  const row = await q.findCervicalRow(db, scope, id);
  if (!row) throw notFound();
  return { ...presentCervicalRow(row, viewerOf(actor)), detail: CERVICAL_MESSAGES.adjudicated };
}

/** GET cervaical/reviewer-agreement/: each reviewer's agreement with the other reviewer of the same exams. */
export async function reviewerAgreement(
  ctx: CervicalContext,
  actor: Actor,
  query: { organization?: number; using_read_db?: boolean },
): Promise<TReviewerAgreement> {
  const scope = await reviewScope(ctx, actor);
  if (query.organization !== undefined) await assertInScope(ctx.database.db, scope, query.organization);
  const where = q.cervicalConditions(scope, { range: {}, organizationId: query.organization }, { reviewerId: null });
  const rows = await q.reviewerAgreement(dbOf(ctx, query.using_read_db), where);
  return {
    results: rows.map((r) => ({
      user: { id: r.id, first_name: r.first_name, last_name: r.last_name },
      reviewed: Number(r.reviewed),
      compared: Number(r.compared),
      agreed: Number(r.agreed),
      rate: Number(r.compared) > 0 ? Number(r.agreed) / Number(r.compared) : null,
    })),
  };
}

/** The exam's organization: its audit rows carry it (who may read them follows from it). */
async function examOrganization(tx: DbOrTx, examId: number): Promise<number | null> {
  const [row] = await tx.select({ organizationId: cervicalExams.organizationId }).from(cervicalExams).where(eq(cervicalExams.id, examId));
  return row?.organizationId ?? null;
}
