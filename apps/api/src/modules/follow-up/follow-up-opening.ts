// Opening follow-up cases (issue 26): a screen-positive breast scan, cervical exam or ORCA exam opens a case for its
// patient, exactly once, whether it arrives by a device upload, a review, an adjudication or the backfill of existing
// data; a further positive while the patient has an active case joins it. Everything runs inside the caller's
// transaction under a per-patient advisory lock, so parallel positives of one patient serialize, and a positive
// (kind, source id) is linked once ever (follow_up_case_sources is unique on it): a re-sent upload, a review saved
// again or a re-run backfill find it linked and change nothing. Also: a patient's cases move with a transfer.
import { and, eq, inArray, isNotNull, ne, or, isNull, sql } from 'drizzle-orm';
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import {
  ACTIVE_FOLLOW_UP_STATUSES,
  SOURCE_MODALITY,
  isActiveFollowUpStatus,
  isCervicalScreenPositive,
  type TFollowUpModality,
  type TFollowUpSourceKind,
} from '@sc/shared/follow-up';
import type { DbOrTx } from '../../db/client.ts';
import {
  cervicalDocumentReviews,
  cervicalDocuments,
  cervicalExams,
  followUpCaseSources,
  followUpCases,
  patients,
} from '../../db/schema/index.ts';
import {
  appendEntry,
  dueFor,
  loadFollowUpSettings,
  loadOrganizationAndSettings,
  loadOrganizationForFollowUp,
  recordCaseEvent,
  type FollowUpOrgMemo,
} from './follow-up-core.ts';

/** A screen-positive record: what it is, whose, and when it was screened (its date_time). */
export type FollowUpPositive = {
  kind: TFollowUpSourceKind;
  sourceId: number;
  patientId: number;
  screenedAt: Date;
};

export type OpeningResult = {
  /** The case the positive is linked to (null: the patient no longer exists). */
  caseId: number | null;
  /** 'opened' a new case, 'joined' the active one, 'linked' already (nothing changed). */
  outcome: 'opened' | 'joined' | 'linked' | 'no_patient';
  /** The webhook delivery row of the opening, for the caller to queue after its commit (`queueWebhookDelivery`). */
  webhookDeliveryId: number | null;
};

/**
 * Holds an advisory lock on the patient's follow-up until the transaction ends. The key is a 64-bit hash of a text
 * of our own namespace (as the upload and booking locks), so it cannot meet pg-boss's or the start-up lock's keys.
 */
export async function lockPatientFollowUp(tx: DbOrTx, patientId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`follow-up-patient:${patientId}`}, 0))`);
}

const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/**
 * Links a positive to its patient's case: nothing when it is linked already; else it joins the patient's active case
 * (its modality added, a JOINED entry, opened at the earlier screen) or opens a new OPEN case in the patient's
 * organization (an OPENED entry, its due date in the organization's zone, the webhook event from null to OPEN).
 * Inside the caller's transaction; the caller queues `webhookDeliveryId` after the commit.
 * Entries written here are the system's (no actor); the case records `actorId` as its creator.
 */
export async function openOrJoinCase(
  tx: DbOrTx,
  positive: FollowUpPositive,
  opts: { now: Date; actorId?: number | null; memo?: FollowUpOrgMemo },
): Promise<OpeningResult> {
  await lockPatientFollowUp(tx, positive.patientId);
  const [linked] = await tx
    .select({ caseId: followUpCaseSources.caseId })
    .from(followUpCaseSources)
    .where(and(eq(followUpCaseSources.kind, positive.kind), eq(followUpCaseSources.sourceId, positive.sourceId)))
    .limit(1);
  if (linked) return { caseId: linked.caseId, outcome: 'linked', webhookDeliveryId: null };
  const [patient] = await tx
    .select({ organizationId: patients.organizationId })
    .from(patients)
    .where(eq(patients.id, positive.patientId))
    .limit(1);
  if (!patient) return { caseId: null, outcome: 'no_patient', webhookDeliveryId: null };

  const modality = SOURCE_MODALITY[positive.kind];
  const data = { source_kind: positive.kind, source_id: positive.sourceId, modality };
  const [active] = await tx
    .select()
    .from(followUpCases)
    .where(and(eq(followUpCases.patientId, positive.patientId), inArray(followUpCases.status, ACTIVE_FOLLOW_UP_STATUSES)))
    .limit(1);
  if (active) {
    const openedAt = earlier(active.openedAt, positive.screenedAt);
    const modalities: TFollowUpModality[] = active.modalities.includes(modality)
      ? active.modalities
      : [...active.modalities, modality];
    const values: Partial<typeof followUpCases.$inferInsert> = { modalities, openedAt, modified: opts.now };
    // An OPEN case is due from its first positive: an earlier positive joining it moves the due date earlier.
    if (active.status === 'OPEN' && openedAt.getTime() !== active.openedAt.getTime()) {
      const { org, settings } = await loadOrganizationAndSettings(tx, active.organizationId, opts.memo);
      const due = dueFor('OPEN', openedAt, settings, org?.timezone ?? DEFAULT_TIMEZONE);
      Object.assign(values, { statusChanged: openedAt, nextDue: due.nextDue, dueAt: due.dueAt });
    }
    await tx.update(followUpCases).set(values).where(eq(followUpCases.id, active.id));
    await linkSource(tx, active.id, positive, opts.now);
    await appendEntry(tx, { caseId: active.id, kind: 'JOINED', at: opts.now, data });
    return { caseId: active.id, outcome: 'joined', webhookDeliveryId: null };
  }

  const { org, settings } = await loadOrganizationAndSettings(tx, patient.organizationId, opts.memo);
  const due = dueFor('OPEN', positive.screenedAt, settings, org?.timezone ?? DEFAULT_TIMEZONE);
  const [kase] = await tx
    .insert(followUpCases)
    .values({
      patientId: positive.patientId,
      organizationId: patient.organizationId,
      status: 'OPEN',
      // An OPEN case entered its state when the patient screened positive; its due date counts from there.
      statusChanged: positive.screenedAt,
      modalities: [modality],
      openedAt: positive.screenedAt,
      nextDue: due.nextDue,
      dueAt: due.dueAt,
      created: opts.now,
      modified: opts.now,
      createdBy: opts.actorId ?? null,
    })
    .returning();
  await linkSource(tx, kase!.id, positive, opts.now);
  await appendEntry(tx, { caseId: kase!.id, kind: 'OPENED', at: opts.now, toStatus: 'OPEN', data });
  const webhookDeliveryId = await recordCaseEvent(tx, kase!, { from: null, to: 'OPEN', at: opts.now, actorId: null }, opts.memo);
  return { caseId: kase!.id, outcome: 'opened', webhookDeliveryId };
}

async function linkSource(tx: DbOrTx, caseId: number, positive: FollowUpPositive, at: Date): Promise<void> {
  await tx.insert(followUpCaseSources).values({
    caseId,
    kind: positive.kind,
    sourceId: positive.sourceId,
    screenedAt: positive.screenedAt,
    created: at,
  });
}

// ---- Cervical: the final read ---------------------------------------------------------------------------------------

/**
 * Whether a cervical exam is screen-positive now (isCervicalScreenPositive): its final read, and whether a reviewer
 * whose status is that read answered yes to a clinical finding on one of the exam's documents. Null: no such exam
 * or no patient.
 */
export async function cervicalPositiveOf(tx: DbOrTx, examId: number): Promise<FollowUpPositive | null> {
  const [exam] = await tx.select().from(cervicalExams).where(eq(cervicalExams.id, examId)).limit(1);
  if (!exam || exam.patientId === null) return null;
  const reviews = await tx
    .select({ userId: cervicalDocumentReviews.userId, findings: cervicalDocumentReviews.clinicalFinding })
    .from(cervicalDocumentReviews)
    .innerJoin(cervicalDocuments, eq(cervicalDocuments.id, cervicalDocumentReviews.documentId))
    .where(eq(cervicalDocuments.examId, examId));
  const anyFinding = (userId: number | null) =>
    userId !== null && reviews.some((r) => r.userId === userId && r.findings.some((f) => f.answer));
  const positive = isCervicalScreenPositive(
    { reviewer_one_status: exam.reviewerOneStatus, reviewer_two_status: exam.reviewerTwoStatus, final_status: exam.finalStatus },
    [
      { reviewer_status: exam.reviewerOneStatus, any_finding: anyFinding(exam.reviewerOneId) },
      { reviewer_status: exam.reviewerTwoStatus, any_finding: anyFinding(exam.reviewerTwoId) },
    ],
  );
  return positive ? { kind: 'CERVICAL', sourceId: exam.id, patientId: exam.patientId, screenedAt: exam.dateTime } : null;
}

/** After a review or an adjudication is saved (same transaction): opens or joins a case if the final read is positive. */
export async function openCervicalCase(
  tx: DbOrTx,
  examId: number,
  opts: { now: Date; actorId?: number | null },
): Promise<OpeningResult | null> {
  const positive = await cervicalPositiveOf(tx, examId);
  return positive ? openOrJoinCase(tx, positive, opts) : null;
}

// ---- Transfer -------------------------------------------------------------------------------------------------------

/**
 * The patient moved to `organizationId` (same transaction): their cases, active and closed, move with them. Each
 * active case gets a TRANSFERRED entry {from, from_name, to, to_name} and its due date again from when it entered its state, with the new
 * organization's settings and zone. Returns how many cases moved.
 */
export async function moveCasesWithPatient(
  tx: DbOrTx,
  patientId: number,
  organizationId: number | null,
  opts: { now: Date; actorId?: number | null },
): Promise<number> {
  await lockPatientFollowUp(tx, patientId);
  const moving = await tx
    .select()
    .from(followUpCases)
    .where(
      and(
        eq(followUpCases.patientId, patientId),
        organizationId === null
          ? isNotNull(followUpCases.organizationId)
          : or(isNull(followUpCases.organizationId), ne(followUpCases.organizationId, organizationId)),
      ),
    );
  if (!moving.length) return 0;
  const org = await loadOrganizationForFollowUp(tx, organizationId);
  const settings = await loadFollowUpSettings(tx, organizationId);
  const names = new Map<number | null, string | null>([[organizationId, org?.name ?? null]]);
  for (const kase of moving) {
    if (!names.has(kase.organizationId)) names.set(kase.organizationId, (await loadOrganizationForFollowUp(tx, kase.organizationId))?.name ?? null);
    const values: Partial<typeof followUpCases.$inferInsert> = { organizationId, modified: opts.now };
    if (opts.actorId != null) values.modifiedBy = opts.actorId;
    if (isActiveFollowUpStatus(kase.status)) {
      const due = dueFor(kase.status, kase.statusChanged, settings, org?.timezone ?? DEFAULT_TIMEZONE);
      Object.assign(values, { nextDue: due.nextDue, dueAt: due.dueAt });
    }
    await tx.update(followUpCases).set(values).where(eq(followUpCases.id, kase.id));
    if (isActiveFollowUpStatus(kase.status)) {
      await appendEntry(tx, {
        caseId: kase.id,
        kind: 'TRANSFERRED',
        at: opts.now,
        actorId: opts.actorId ?? null,
        data: { from: kase.organizationId, from_name: names.get(kase.organizationId) ?? null, to: organizationId, to_name: names.get(organizationId) ?? null },
      });
    }
  }
  return moving.length;
}
