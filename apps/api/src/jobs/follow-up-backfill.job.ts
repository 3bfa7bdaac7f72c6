// The follow-up backfill (issue 26): opens the cases of screen-positives stored before follow-up existed, or missed
// (a positive whose hook failed). Per kind, the positives not yet linked to a case (NOT EXISTS on
// follow_up_case_sources), oldest first, in batches of one transaction each, through the same `openOrJoinCase` as
// uploads and reviews. Safe to run twice and beside uploads: a linked positive is skipped, and the per-patient lock
// of `openOrJoinCase` serializes it with an upload of the same patient. Queued once at start-up and by an ADMIN's
// `POST follow-up/backfill/`.
import { and, asc, eq, isNotNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import type { TFollowUpSourceKind } from '@sc/shared/follow-up';
import type { DbOrTx } from '../db/client.ts';
import { cervicalExams, followUpCaseSources, orcaExams, scans } from '../db/schema/index.ts';
import {
  cervicalPositiveOf,
  openOrJoinCase,
  type FollowUpPositive,
} from '../modules/follow-up/follow-up-opening.ts';
import type { FollowUpOrgMemo } from '../modules/follow-up/follow-up-core.ts';
import { queueWebhookDelivery } from '../modules/scans/scans.service.ts';
import { defineJob, enqueue, type JobContext } from '../services/queue/job.ts';

export const FOLLOW_UP_BACKFILL_BATCH = 500;

export const ZFollowUpBackfillPayload = z.object({
  /** Who asked (an ADMIN's request), or absent for the start-up run. */
  requested_by: z.number().int().positive().optional(),
});

export const followUpBackfillJob = defineJob({
  name: 'follow-up-backfill',
  payload: ZFollowUpBackfillPayload,
  options: { retryLimit: 3, retryDelaySeconds: 60, retryBackoff: true, expireInSeconds: 2 * 60 * 60 },
  handle: async (ctx, payload) => {
    const counts = await backfillFollowUp(ctx, { actorId: payload.requested_by ?? null });
    ctx.services.log.info(counts, 'follow-up backfill done');
  },
});

/** pg-boss keeps one start-up backfill per this many seconds, however many instances start together. */
export const FOLLOW_UP_BACKFILL_STARTUP_SINGLETON_SECONDS = 60 * 60;

/**
 * Every instance queues the backfill when its workers start (a deployment that brings follow-up opens the cases of
 * the positives already stored); pg-boss's singleton key keeps it to one job. A failure to queue is logged, never the
 * start's: the ADMIN's `POST follow-up/backfill/` runs it again.
 */
export async function queueStartupFollowUpBackfill(services: Pick<JobContext['services'], 'queue' | 'log'>): Promise<void> {
  try {
    await enqueue(services.queue, followUpBackfillJob, {}, {
      singletonKey: 'startup',
      singletonSeconds: FOLLOW_UP_BACKFILL_STARTUP_SINGLETON_SECONDS,
    });
  } catch (err) {
    services.log.error({ error: err instanceof Error ? err.message : String(err) }, 'follow-up backfill could not be queued');
  }
}

type Cursor = { at: Date; id: number } | null;
type Candidate = { id: number; patientId: number; dateTime: Date };

const notLinked = (kind: TFollowUpSourceKind, id: SQLWrapper) =>
  sql`not exists (select 1 from ${followUpCaseSources} where ${followUpCaseSources.kind} = ${kind} and ${followUpCaseSources.sourceId} = ${id})`;

/** Keyset: after (date_time, id) of the last candidate read, so a candidate that turns out negative is passed once. */
const after = (cursor: Cursor, dateTime: SQLWrapper, id: SQLWrapper): SQL | undefined =>
  cursor === null ? undefined : sql`(${dateTime}, ${id}) > (${cursor.at.toISOString()}::timestamptz, ${cursor.id})`;

/**
 * What makes a stored row of each kind a candidate, beside having a patient: a positive SCAN-type breast scan (a
 * finding on either side); a cervical exam with a final read and a review answering yes to a clinical finding (whether
 * the reviewer with that finding has the final read's status is decided by `cervicalPositiveOf`, the shared rule); an
 * ORCA exam with a finding that has a symptom.
 */
const KINDS = {
  SCAN: { table: scans, positive: and(eq(scans.scanType, 'SCAN'), eq(scans.isPositive, true))! },
  CERVICAL: {
    table: cervicalExams,
    positive: sql`(${cervicalExams.finalStatus} is not null or (${cervicalExams.reviewerOneStatus} <> 'NOT_REVIEWED'
        and ${cervicalExams.reviewerOneStatus} = ${cervicalExams.reviewerTwoStatus}))
      and exists (select 1 from cervical_document_reviews r join cervical_documents d on d.id = r.document_id
        where d.exam_id = ${cervicalExams.id} and r.clinical_finding @> '[{"answer": true}]'::jsonb)`,
  },
  ORCA: {
    table: orcaExams,
    positive: sql`exists (select 1 from orca_findings f where f.exam_id = ${orcaExams.id} and jsonb_array_length(f.symptoms) > 0)`,
  },
} satisfies Record<TFollowUpSourceKind, { table: typeof scans | typeof cervicalExams | typeof orcaExams; positive: SQL }>;

/** The next candidates of a kind not linked to a case yet, oldest first, after the cursor. */
function candidates(db: DbOrTx, kind: TFollowUpSourceKind, cursor: Cursor, limit: number): Promise<Candidate[]> {
  const { table: t, positive } = KINDS[kind];
  return db
    .select({ id: t.id, patientId: sql<number>`${t.patientId}`, dateTime: t.dateTime })
    .from(t)
    .where(and(isNotNull(t.patientId), positive, notLinked(kind, t.id), after(cursor, t.dateTime, t.id)))
    .orderBy(asc(t.dateTime), asc(t.id))
    .limit(limit);
}

export type FollowUpBackfillCounts = { positives: number; opened: number; joined: number; linked: number };

/** Runs the backfill to its end; returns what it did. Each batch is one transaction; webhook jobs are queued after it. */
export async function backfillFollowUp(
  ctx: JobContext,
  opts: { actorId?: number | null; batch?: number } = {},
): Promise<FollowUpBackfillCounts> {
  const { db } = ctx.database;
  const batch = opts.batch ?? FOLLOW_UP_BACKFILL_BATCH;
  const counts: FollowUpBackfillCounts = { positives: 0, opened: 0, joined: 0, linked: 0 };
  for (const kind of ['SCAN', 'CERVICAL', 'ORCA'] as const) {
    let cursor: Cursor = null;
    for (;;) {
      const rows = await candidates(db, kind, cursor, batch);
      if (!rows.length) break;
      const last = rows[rows.length - 1]!;
      cursor = { at: last.dateTime, id: last.id };
      const deliveries = await db.transaction(async (tx) => {
        const ids: number[] = [];
        // Each organization's zone, webhook and settings read once a batch.
        const memo: FollowUpOrgMemo = new Map();
        for (const row of rows) {
          const positive: FollowUpPositive | null =
            kind === 'CERVICAL'
              ? await cervicalPositiveOf(tx, row.id)
              : { kind, sourceId: row.id, patientId: row.patientId, screenedAt: row.dateTime };
          if (!positive) continue;
          const result = await openOrJoinCase(tx, positive, { now: ctx.now(), actorId: opts.actorId ?? null, memo });
          if (result.outcome === 'no_patient') continue;
          counts.positives++;
          counts[result.outcome]++;
          if (result.webhookDeliveryId !== null) ids.push(result.webhookDeliveryId);
        }
        return ids;
      });
      for (const id of deliveries) await queueWebhookDelivery(ctx, id);
      if (rows.length < batch) break;
    }
  }
  return counts;
}
