// What every writer of follow-up cases shares (the worklist's actions, the opening of cases by uploads, reviews
// and the backfill, the reminder job): an organization's settings, a state's due date in the organization's zone,
// a timeline entry, and the webhook event of a move. Rules are in @sc/shared/follow-up; this file applies them.
import { eq } from 'drizzle-orm';
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import {
  defaultFollowUpSettings,
  followUpDueDate,
  FOLLOW_UP_WEBHOOK_EVENT,
  overdueFromDate,
  type TFollowUpEntryKind,
  type TFollowUpSettings,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import type { DbOrTx } from '../../db/client.ts';
import { followUpCases, followUpEntries, followUpSettings, organizations, webhookDeliveries } from '../../db/schema/index.ts';
import { localDate, startOfLocalDay } from '../../http/period.ts';

export type FollowUpCaseRow = typeof followUpCases.$inferSelect;
export type FollowUpEntryRow = typeof followUpEntries.$inferSelect;

/** An organization's settings, or the defaults when it never saved any (or has no organization). */
export async function loadFollowUpSettings(db: DbOrTx, organizationId: number | null): Promise<TFollowUpSettings> {
  if (organizationId === null) return defaultFollowUpSettings(0);
  const [row] = await db.select().from(followUpSettings).where(eq(followUpSettings.organizationId, organizationId)).limit(1);
  if (!row) return defaultFollowUpSettings(organizationId);
  return {
    organization: organizationId,
    contact_days: row.contactDays,
    referral_days: row.referralDays,
    seen_days: row.seenDays,
    outcome_days: row.outcomeDays,
    digest_enabled: row.digestEnabled,
    sms_enabled: row.smsEnabled,
    sms_texts: row.smsTexts,
    is_custom: true,
  };
}

/** The organization's zone (the clinic's calendar decides what "due" and "overdue" mean), and its webhook. */
export async function loadOrganizationForFollowUp(db: DbOrTx, organizationId: number | null) {
  if (organizationId === null) return null;
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      timezone: organizations.timezone,
      webhookUrl: organizations.webhookUrl,
      webhookSwitch: organizations.webhookSwitch,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row ?? null;
}

export type FollowUpOrganization = NonNullable<Awaited<ReturnType<typeof loadOrganizationForFollowUp>>>;
/**
 * An organization and its settings read once for a unit of work that touches many cases (a backfill batch, inside
 * its transaction): organization id → the pair. Without one each call reads them.
 */
export type FollowUpOrgMemo = Map<number | null, Promise<{ org: FollowUpOrganization | null; settings: TFollowUpSettings }>>;

/** The organization (zone, webhook) and the follow-up settings of `organizationId`, through `memo` when given. */
export function loadOrganizationAndSettings(db: DbOrTx, organizationId: number | null, memo?: FollowUpOrgMemo) {
  const known = memo?.get(organizationId);
  if (known) return known;
  const read = (async () => ({
    org: await loadOrganizationForFollowUp(db, organizationId),
    settings: await loadFollowUpSettings(db, organizationId),
  }))();
  memo?.set(organizationId, read);
  return read;
}

/**
 * The due date of a case that entered `status` at `enteredAt`, in `timeZone`: `nextDue` (YYYY-MM-DD, the clinic's
 * calendar) and `dueAt`, the instant the case becomes overdue (the start of the next local day). Both null in a
 * closing state.
 */
export function dueFor(
  status: TFollowUpStatus,
  enteredAt: Date,
  settings: TFollowUpSettings,
  timeZone: string = DEFAULT_TIMEZONE,
): { nextDue: string | null; dueAt: Date | null } {
  const nextDue = followUpDueDate(status, localDate(enteredAt, timeZone), settings);
  return { nextDue, dueAt: nextDue === null ? null : startOfLocalDay(overdueFromDate(nextDue), timeZone) };
}

/** Appends one entry to a case's timeline (never updated or deleted) and keeps the case's "last action". */
export async function appendEntry(
  tx: DbOrTx,
  entry: {
    caseId: number;
    kind: TFollowUpEntryKind;
    at: Date;
    actorId?: number | null;
    fromStatus?: TFollowUpStatus | null;
    toStatus?: TFollowUpStatus | null;
    data?: Record<string, unknown>;
    note?: string | null;
    correctsId?: number | null;
  },
): Promise<FollowUpEntryRow> {
  const [row] = await tx
    .insert(followUpEntries)
    .values({
      caseId: entry.caseId,
      kind: entry.kind,
      actorId: entry.actorId ?? null,
      fromStatus: entry.fromStatus ?? null,
      toStatus: entry.toStatus ?? null,
      data: entry.data ?? {},
      note: entry.note ?? null,
      correctsId: entry.correctsId ?? null,
      created: entry.at,
    })
    .returning();
  await tx
    .update(followUpCases)
    .set({ lastActionKind: entry.kind, lastActionAt: entry.at })
    .where(eq(followUpCases.id, entry.caseId));
  return row!;
}

/** The JSON of `follow_up_case.status_changed`: identifiers and states only, never the patient's name or finding. */
export function caseEventPayload(
  kase: Pick<FollowUpCaseRow, 'id' | 'patientId' | 'organizationId' | 'modalities' | 'openedAt' | 'outcome' | 'outcomeSite' | 'diagnosisDate'>,
  move: { from: TFollowUpStatus | null; to: TFollowUpStatus; at: Date; actorId: number | null },
): Record<string, unknown> {
  return {
    event: FOLLOW_UP_WEBHOOK_EVENT,
    case: kase.id,
    patient: kase.patientId,
    organization: kase.organizationId,
    modalities: kase.modalities,
    opened: kase.openedAt.toISOString(),
    from_status: move.from,
    to_status: move.to,
    changed_at: move.at.toISOString(),
    changed_by: move.actorId,
    outcome: move.to === 'CLOSED' ? kase.outcome : null,
    site: move.to === 'CLOSED' ? kase.outcomeSite : null,
    diagnosis_date: move.to === 'CLOSED' ? kase.diagnosisDate : null,
  };
}

/**
 * Writes the webhook delivery row of a case's move (its opening included: from null to OPEN) inside the caller's
 * transaction, when the organization's webhook is on with a URL. Returns the delivery id for the caller to queue
 * after the commit (`queueWebhookDelivery`), or null; the webhook sweep queues a row whose job was never sent.
 */
export async function recordCaseEvent(
  tx: DbOrTx,
  kase: Parameters<typeof caseEventPayload>[0],
  move: { from: TFollowUpStatus | null; to: TFollowUpStatus; at: Date; actorId: number | null },
  memo?: FollowUpOrgMemo,
): Promise<number | null> {
  const org = memo
    ? (await loadOrganizationAndSettings(tx, kase.organizationId, memo)).org
    : await loadOrganizationForFollowUp(tx, kase.organizationId);
  if (!org?.webhookSwitch || !org.webhookUrl) return null;
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({
      organizationId: org.id,
      event: FOLLOW_UP_WEBHOOK_EVENT,
      followUpCaseId: kase.id,
      payload: caseEventPayload(kase, move),
      url: org.webhookUrl,
      created: move.at,
    })
    .returning();
  return row?.id ?? null;
}
