// Drizzle queries of the webhook delivery log (`webhook_deliveries`): one row per scan sent, or being retried,
// to an organization's URL.
import { and, asc, count, desc, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { organizations, webhookDeliveries } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import type { PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import type { DbOrTx } from '../scans/scans.queries.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DeliveryStatus = DeliveryRow['status'];

export async function insertDeliveries(
  db: DbOrTx,
  rows: Array<{ organizationId: number; scanId: number; url: string; created: Date }>,
): Promise<DeliveryRow[]> {
  if (!rows.length) return [];
  return db.insert(webhookDeliveries).values(rows).returning();
}

/** A delivery with the organization's current webhook settings (the token is read at send time only). */
export async function findDeliveryWithOrganization(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      delivery: webhookDeliveries,
      webhookUrl: organizations.webhookUrl,
      webhookAuthToken: organizations.webhookAuthToken,
      webhookSwitch: organizations.webhookSwitch,
      webhookSecret: organizations.webhookSecret,
    })
    .from(webhookDeliveries)
    .innerJoin(organizations, eq(organizations.id, webhookDeliveries.organizationId))
    .where(eq(webhookDeliveries.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * Claims the next attempt of a pending delivery: attempts + 1, only if nobody else has claimed it since it was
 * read (same attempts count). Returns false when the row moved on — another worker has it, or it is finished.
 */
export async function claimAttempt(
  db: DbOrTx,
  id: number,
  seenAttempts: number,
  url: string,
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, url })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, seenAttempts),
      ),
    )
    .returning();
  return rows.length > 0;
}

export async function recordOutcome(
  db: DbOrTx,
  id: number,
  outcome: {
    status: DeliveryStatus;
    lastStatusCode: number | null;
    lastError: string | null;
    deliveredAt: Date | null;
    /** When the attempt was made and how long it took; left as they are when absent (no attempt made). */
    lastAttemptAt?: Date;
    durationMs?: number | null;
  },
): Promise<DeliveryRow | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set(outcome)
    .where(eq(webhookDeliveries.id, id))
    .returning();
  return row ?? null;
}

export type DeliveryFilters = {
  organization?: number;
  status?: DeliveryStatus;
  scan?: number;
  event?: DeliveryRow['event'];
  period?: PeriodRange;
};

function periodOf(range: PeriodRange | undefined): SQL | undefined {
  if (!range) return undefined;
  return and(
    range.from ? gte(webhookDeliveries.created, range.from) : undefined,
    range.to ? lt(webhookDeliveries.created, range.to) : undefined,
  );
}

export async function listDeliveries(
  db: DbOrTx,
  scope: Scope,
  filters: DeliveryFilters,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: DeliveryRow[]; count: number }> {
  const where = and(
    orgScopeCondition(scope, webhookDeliveries.organizationId),
    filters.organization === undefined
      ? undefined
      : eq(webhookDeliveries.organizationId, filters.organization),
    filters.status === undefined ? undefined : eq(webhookDeliveries.status, filters.status),
    filters.scan === undefined ? undefined : eq(webhookDeliveries.scanId, filters.scan),
    filters.event === undefined ? undefined : eq(webhookDeliveries.event, filters.event),
    periodOf(filters.period),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.created), desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

/** Scans of `scanIds` that already have a delivery of this organization created at or after `since`. */
export async function findScansDeliveredSince(
  db: DbOrTx,
  organizationId: number,
  scanIds: number[],
  since: Date,
): Promise<Set<number>> {
  if (!scanIds.length) return new Set();
  const rows = await db
    .select({ scanId: webhookDeliveries.scanId })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.organizationId, organizationId),
        inArray(webhookDeliveries.scanId, scanIds),
        sql`${webhookDeliveries.created} >= ${since.toISOString()}`,
      ),
    );
  return new Set(rows.flatMap((r) => (r.scanId === null ? [] : [r.scanId])));
}

/**
 * Pending deliveries that no job has tried yet (attempts 0), created before `createdBefore`, after `afterId` in
 * id order: the rows whose job was never queued. Served by the partial index on pending rows.
 */
export async function listUnattemptedDeliveryIds(
  db: DbOrTx,
  createdBefore: Date,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, 0),
        lt(webhookDeliveries.created, createdBefore),
        gt(webhookDeliveries.id, afterId),
      ),
    )
    .orderBy(asc(webhookDeliveries.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** One delivery of the log, by id. */
export async function findDelivery(db: DbOrTx, id: number): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
  return row ?? null;
}

/** A Replay's filter: the organization's finished deliveries created in the period, optionally of one status. */
function replayCondition(organizationId: number, period: PeriodRange, status: DeliveryStatus | undefined) {
  return and(
    eq(webhookDeliveries.organizationId, organizationId),
    status === undefined ? inArray(webhookDeliveries.status, ['delivered', 'failed']) : eq(webhookDeliveries.status, status),
    periodOf(period),
  );
}

/** How many deliveries a period Replay would send again, counted up to `cap` + 1 (enough to refuse). */
export async function countReplayable(
  db: DbOrTx,
  organizationId: number,
  period: PeriodRange,
  status: DeliveryStatus | undefined,
): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(webhookDeliveries)
    .where(replayCondition(organizationId, period, status));
  return row?.count ?? 0;
}

/**
 * New pending deliveries that send `source` rows again: the same event, subject and payload, to the organization's
 * current URL, created at `at`, with replay_of naming the row sent again. Oldest first, as they first went out.
 */
export async function insertReplays(
  db: DbOrTx,
  source: { organizationId: number; period: PeriodRange; status: DeliveryStatus | undefined } | { id: number },
  url: string,
  at: Date,
): Promise<DeliveryRow[]> {
  const where =
    'id' in source ? eq(webhookDeliveries.id, source.id) : replayCondition(source.organizationId, source.period, source.status);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(asc(webhookDeliveries.created), asc(webhookDeliveries.id));
  if (!rows.length) return [];
  return db
    .insert(webhookDeliveries)
    .values(
      rows.map((r) => ({
        organizationId: r.organizationId,
        event: r.event,
        scanId: r.scanId,
        followUpCaseId: r.followUpCaseId,
        payload: r.payload,
        url,
        replayOf: r.id,
        created: at,
      })),
    )
    .returning();
}
