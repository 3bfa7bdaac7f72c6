// The daily follow-up reminders of an organization (issue 26): which organizations are due a run (local hour at or
// past FOLLOW_UP_REMINDER_HOUR on a local date without a run), the digest e-mail of its overdue cases to the users
// who follow them up, and the reminder SMS to consenting patients. Never a finding: the digest names a case by its
// number and the patient's initials, the SMS is the organization's text with placeholders only.
import { and, asc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import {
  ACTIVE_FOLLOW_UP_STATUSES,
  daysBetween,
  fillSmsText,
  FOLLOW_UP_REMINDER_HOUR,
  FOLLOW_UP_STATUS_LABELS,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import type { DbOrTx } from '../../db/client.ts';
import {
  followUpCases,
  followUpReminderRuns,
  managerOrganizations,
  organizations,
  patients,
  users,
} from '../../db/schema/index.ts';
import { localDate } from '../../http/period.ts';

/** Rows of overdue cases the digest lists; the count covers them all. */
export const FOLLOW_UP_DIGEST_MAX_ROWS = 50;
/**
 * Who receives an organization's digest: its own ORG_ADMIN, MANAGER and DISTRIBUTOR_ADMIN users, and MANAGERs
 * linked to it. ADMIN and SUB_ADMIN see every organization: a daily e-mail per organization would be noise, they
 * read the worklist instead.
 */
export const FOLLOW_UP_DIGEST_ROLES = ['ORG_ADMIN', 'MANAGER', 'DISTRIBUTOR_ADMIN'] as const;

export type ReminderOrganization = { id: number; name: string; timezone: string; mobile: string | null };

/** The hour (0-23) `instant` falls on in `zone`. */
export function localHour(instant: Date, zone: string): number {
  const hour = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(instant);
  return Number(hour);
}

/**
 * Organizations whose local time is at or past the reminder hour, each with its local date; those that already
 * have a run for that date are left out (the run row itself decides, see `claimReminderRun`).
 */
export async function listOrganizationsDueForReminders(
  db: DbOrTx,
  now: Date,
): Promise<Array<ReminderOrganization & { localDate: string }>> {
  const orgs = await db
    .select({ id: organizations.id, name: organizations.name, timezone: organizations.timezone, mobile: organizations.mobile })
    .from(organizations)
    .orderBy(asc(organizations.id));
  const due = orgs
    .filter((o) => localHour(now, o.timezone) >= FOLLOW_UP_REMINDER_HOUR)
    .map((o) => ({ ...o, localDate: localDate(now, o.timezone) }));
  if (!due.length) return [];
  const runs = await db
    .select({ organizationId: followUpReminderRuns.organizationId, localDate: followUpReminderRuns.localDate })
    .from(followUpReminderRuns)
    .where(inArray(followUpReminderRuns.organizationId, due.map((o) => o.id)));
  const taken = new Set(runs.map((r) => `${r.organizationId} ${r.localDate}`));
  return due.filter((o) => !taken.has(`${o.id} ${o.localDate}`));
}

/** Takes the organization's run of `date`; false when another run (or instance) already has it. */
export async function claimReminderRun(db: DbOrTx, organizationId: number, date: string, at: Date): Promise<boolean> {
  const rows = await db
    .insert(followUpReminderRuns)
    .values({ organizationId, localDate: date, created: at })
    .onConflictDoNothing()
    .returning();
  return rows.length > 0;
}

export async function recordReminderRunCounts(
  db: DbOrTx,
  organizationId: number,
  date: string,
  counts: { overdueCases: number; digestsSent: number; smsSent: number },
): Promise<void> {
  await db
    .update(followUpReminderRuns)
    .set(counts)
    .where(and(eq(followUpReminderRuns.organizationId, organizationId), eq(followUpReminderRuns.localDate, date)));
}

export type OverdueCase = {
  id: number;
  status: TFollowUpStatus;
  nextDue: string | null;
  smsRemindedStatus: TFollowUpStatus | null;
  patientFirstName: string;
  patientLastName: string;
  patientMobile: string | null;
  reminderConsent: boolean;
  consentLanguage: string | null;
  assignedFirstName: string | null;
  assignedLastName: string | null;
};

/** The organization's active cases overdue at `now` (due_at <= now), most overdue first. */
export async function listOverdueCases(db: DbOrTx, organizationId: number, now: Date): Promise<OverdueCase[]> {
  return db
    .select({
      id: followUpCases.id,
      status: followUpCases.status,
      nextDue: followUpCases.nextDue,
      smsRemindedStatus: followUpCases.smsRemindedStatus,
      patientFirstName: patients.firstName,
      patientLastName: patients.lastName,
      patientMobile: patients.mobile,
      reminderConsent: patients.reminderConsent,
      consentLanguage: patients.consentLanguage,
      assignedFirstName: users.firstName,
      assignedLastName: users.lastName,
    })
    .from(followUpCases)
    .innerJoin(patients, eq(patients.id, followUpCases.patientId))
    .leftJoin(users, eq(users.id, followUpCases.assignedUserId))
    .where(
      and(
        eq(followUpCases.organizationId, organizationId),
        inArray(followUpCases.status, [...ACTIVE_FOLLOW_UP_STATUSES]),
        lte(followUpCases.dueAt, now),
      ),
    )
    .orderBy(asc(followUpCases.dueAt), asc(followUpCases.id));
}

/** E-mail addresses of the organization's users who follow up its cases (see FOLLOW_UP_DIGEST_ROLES). */
export async function listDigestRecipients(db: DbOrTx, organizationId: number): Promise<string[]> {
  const linkedManagers = db
    .select({ userId: managerOrganizations.userId })
    .from(managerOrganizations)
    .where(eq(managerOrganizations.organizationId, organizationId));
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.isValid, true),
        isNull(users.deletedAt),
        isNotNull(users.email),
        ne(users.email, ''),
        or(
          and(eq(users.organizationId, organizationId), inArray(users.userType, [...FOLLOW_UP_DIGEST_ROLES])),
          and(eq(users.userType, 'MANAGER'), inArray(users.id, linkedManagers)),
        ),
      ),
    )
    .orderBy(asc(users.id));
  return [...new Set(rows.map((r) => r.email!.toLowerCase()))];
}

/** 'Asha Devi' → 'A.D.'; the digest never carries a patient's name. */
export function patientInitials(firstName: string, lastName: string): string {
  return [firstName, lastName]
    .map((n) => [...n.trim()][0])
    .filter((c): c is string => c !== undefined)
    .map((c) => `${c.toUpperCase()}.`)
    .join('');
}

/** The worklist of the organization's overdue cases, the digest's link. */
export const digestLink = (publicUrl: string, organizationId: number): string =>
  `${publicUrl.replace(/\/+$/, '')}/follow-up?organization=${organizationId}&overdue=true`;

/** The digest e-mail: the organization, the count, up to 50 cases (number, initials, status, due, days overdue, assignee). */
export function composeDigest(
  org: ReminderOrganization,
  cases: readonly OverdueCase[],
  today: string,
  link: string,
): { subject: string; body: string } {
  const n = cases.length;
  const header = ['Case', 'Patient', 'Status', 'Due', 'Days overdue', 'Assigned to'];
  const rows = cases.slice(0, FOLLOW_UP_DIGEST_MAX_ROWS).map((c) => [
    `#${c.id}`,
    patientInitials(c.patientFirstName, c.patientLastName),
    FOLLOW_UP_STATUS_LABELS[c.status],
    c.nextDue ?? '',
    c.nextDue ? String(daysBetween(c.nextDue, today)) : '',
    c.assignedFirstName !== null ? `${c.assignedFirstName} ${c.assignedLastName ?? ''}`.trim() || '-' : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const body = [
    `${org.name}: ${n} overdue follow-up ${n === 1 ? 'case' : 'cases'} on ${today}.`,
    '',
    line(header),
    ...rows.map(line),
    ...(n > FOLLOW_UP_DIGEST_MAX_ROWS ? ['', `… and ${n - FOLLOW_UP_DIGEST_MAX_ROWS} more.`] : []),
    '',
    'Open the worklist to follow them up:',
    link,
  ].join('\n');
  return { subject: `${org.name}: ${n} overdue follow-up ${n === 1 ? 'case' : 'cases'}`, body };
}

/**
 * The reminder text of a patient, or null when none goes: the patient consented, has a mobile, the case has had no
 * SMS in its current state, and the organization has a text in the patient's consent language. No fallback to
 * another language: the consent was given in that language, and a text the patient may not read is no reminder.
 */
export function reminderSmsFor(
  kase: OverdueCase,
  smsTexts: Readonly<Record<string, string>>,
  org: ReminderOrganization,
): { to: string; body: string; language: string } | null {
  if (!kase.reminderConsent || !kase.patientMobile || !kase.consentLanguage) return null;
  if (kase.smsRemindedStatus === kase.status) return null;
  const language = kase.consentLanguage.toLowerCase();
  const text = smsTexts[language]?.trim();
  if (!text) return null;
  return {
    to: kase.patientMobile,
    language,
    body: fillSmsText(text, { first_name: kase.patientFirstName.trim(), organization: org.name, organization_phone: org.mobile ?? '' }),
  };
}

/**
 * Marks the case reminded in its current state; false when it was already (another run took it) or has moved since
 * it was read. The claim comes before the SMS, so two runs never both send.
 */
export async function claimCaseSms(db: DbOrTx, caseId: number, status: TFollowUpStatus): Promise<boolean> {
  const rows = await db
    .update(followUpCases)
    .set({ smsRemindedStatus: status })
    .where(
      and(
        eq(followUpCases.id, caseId),
        eq(followUpCases.status, status),
        sql`${followUpCases.smsRemindedStatus} is distinct from ${status}`,
      ),
    )
    .returning();
  return rows.length > 0;
}
