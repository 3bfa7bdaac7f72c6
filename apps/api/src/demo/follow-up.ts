// Demo follow-up of screen-positive patients (issue 26): a case per patient episode for every positive the demo
// loaded (the opening rule of @sc/shared/follow-up, read in one query), moved through its states with a believable
// timeline: contact attempts, referrals, visits, outcomes, notes, corrections and reminder SMS. Older cases are
// mostly closed, recent ones active, and a share of every active state is overdue. Rows are built in memory and
// loaded with COPY in batches, so a million scans cost one pass; nothing is written per case.
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import {
  addIsoDays,
  defaultFollowUpSettings,
  followUpDueDate,
  FOLLOW_UP_REMINDER_HOUR,
  isActiveFollowUpStatus,
  overdueFromDate,
  SOURCE_MODALITY,
  type TContactMethod,
  type TContactResult,
  type TFollowUpEntryKind,
  type TFollowUpModality,
  type TFollowUpOutcome,
  type TFollowUpSettings,
  type TFollowUpSite,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';
import { localDate, startOfLocalDay } from '../http/period.ts';
import { copyRows, resetSequences } from './copy.ts';
import { CONSENT_SQL, FOLLOWERS_SQL, ORGANIZATIONS_SQL, POSITIVES_SQL, type DemoPositive } from './follow-up-sql.ts';
import {
  CONTACTED_NOTES,
  CORRECTION_NOTES,
  DECLINED_NOTES,
  FACILITY_KINDS,
  LATE_CLOSE_NOTE,
  LOST_NOTES,
  OPEN_NOTES,
  REFERRED_NOTES,
  SEEN_NOTES,
  SELF_REFERRAL_NOTE,
  SMS_TEXTS,
} from './follow-up-texts.ts';
import type { Rng } from './rng.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Cases per COPY batch (with their sources and entries). */
const BATCH = 20_000;
/** Share of cases left in an active state by their organization (they become overdue). */
const STALL = 0.1;

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

type DemoOrg = {
  id: number;
  timezone: string;
  place: string;
  language: string | null;
  settings: TFollowUpSettings;
  /** Users who follow up its cases: ORG_ADMINs first, then MANAGERs, then its distributor's admins. */
  followers: number[];
};

type Entry = {
  at: number;
  kind: TFollowUpEntryKind;
  actorId: number | null;
  from?: TFollowUpStatus;
  to?: TFollowUpStatus;
  data: Record<string, unknown>;
  note?: string;
  corrects?: Entry;
  id?: number;
};

/** Cases of patients without an organization: the default settings in the default zone, like `dueFor`. */
const NO_ORGANIZATION: DemoOrg = {
  id: 0,
  timezone: DEFAULT_TIMEZONE,
  place: '',
  language: null,
  settings: defaultFollowUpSettings(0),
  followers: [],
};

/** Patient reminder consent, the same hash as CONSENT_SQL: about 60 % of the patients with an organization. */
export const demoReminderConsent = (patientId: number): boolean => (patientId * 2654435761) % 1000 < 600;
const usesLocalLanguage = (patientId: number): boolean => (patientId * 40503) % 7 < 4;

/** Local dates are read through a cache per zone and quarter hour (every zone changes offset on one). */
const localDates = new Map<string, string>();
function localDay(ms: number, zone: string): string {
  const key = `${zone}|${Math.floor(ms / (15 * MINUTE))}`;
  let day = localDates.get(key);
  if (day === undefined) {
    day = localDate(new Date(ms), zone);
    if (localDates.size > 500_000) localDates.clear();
    localDates.set(key, day);
  }
  return day;
}

/** The due date and overdue instant of a state entered at `enteredMs`: `dueFor` of follow-up-core, cached. */
function due(status: TFollowUpStatus, enteredMs: number, org: DemoOrg): { nextDue: string | null; dueAt: number | null } {
  const nextDue = followUpDueDate(status, localDay(enteredMs, org.timezone), org.settings);
  return { nextDue, dueAt: nextDue === null ? null : startOfLocalDay(overdueFromDate(nextDue), org.timezone).getTime() };
}

/** Custom intervals and reminders for some organizations; the others keep the defaults (no row). */
function demoSettings(orgs: DemoOrg[], rng: Rng, nowMs: number): Insert<typeof schema.followUpSettings>[] {
  const rows: Insert<typeof schema.followUpSettings>[] = [];
  const profiles = [
    { contact_days: 5, referral_days: 10, seen_days: 21, outcome_days: 21 },
    { contact_days: 3, referral_days: 7, seen_days: 30, outcome_days: 45 },
    { contact_days: 10, referral_days: 14, seen_days: 45, outcome_days: 30 },
  ];
  for (const org of orgs) {
    if (org.followers.length === 0 || !rng.chance(0.4)) continue;
    const sms = rng.chance(0.6);
    const texts: Record<string, string> = { en: SMS_TEXTS.en! };
    if (org.language && SMS_TEXTS[org.language]) texts[org.language] = SMS_TEXTS[org.language]!;
    org.settings = { ...org.settings, ...rng.pick(profiles), sms_enabled: sms, sms_texts: texts, is_custom: true };
    const saved = new Date(nowMs - rng.int(60, 400) * DAY);
    rows.push({
      organizationId: org.id,
      contactDays: org.settings.contact_days,
      referralDays: org.settings.referral_days,
      seenDays: org.settings.seen_days,
      outcomeDays: org.settings.outcome_days,
      digestEnabled: rng.chance(0.85),
      smsEnabled: sms,
      smsTexts: texts,
      created: saved,
      modified: saved,
      createdBy: org.followers[0] ?? null,
      modifiedBy: org.followers[0] ?? null,
    });
  }
  return rows;
}

const OUTCOMES: readonly [TFollowUpOutcome, number][] = [
  ['NO_ABNORMALITY', 0.32],
  ['BENIGN', 0.3],
  ['MALIGNANT', 0.16],
  ['OTHER', 0.1],
  ['UNKNOWN', 0.12],
];
const SITE_OF: Record<TFollowUpModality, TFollowUpSite> = { BREAST: 'BREAST', CERVICAL: 'CERVIX', ORAL: 'ORAL_CAVITY' };
const FAILED: readonly TContactResult[] = ['NO_ANSWER', 'NO_ANSWER', 'WRONG_NUMBER', 'LEFT_MESSAGE', 'NOT_HOME'];

function weighted<T>(rng: Rng, items: readonly [T, number][]): T {
  let r = rng.next();
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1]![0];
}

/** One case's life from its opening to now: the timeline and the fields the case row keeps. */
class CaseLife {
  readonly entries: Entry[] = [];
  status: TFollowUpStatus = 'OPEN';
  statusChanged: number;
  /** When it first entered a closing state (later positives open a new case), and when it entered its last one. */
  closesAt: number | null = null;
  closedAt: number | null = null;
  outcome: TFollowUpOutcome | null = null;
  site: TFollowUpSite | null = null;
  diagnosisDate: string | null = null;
  diagnosisFacility: string | null = null;
  assigned: number | null = null;
  facility: string | null = null;
  /** Each state and when it was entered, for the reminders. */
  readonly periods: { status: TFollowUpStatus; from: number }[] = [];
  private t: number;

  constructor(
    private readonly rng: Rng,
    private readonly org: DemoOrg | null,
    private readonly nowMs: number,
    readonly openedAt: number,
  ) {
    this.t = openedAt;
    this.statusChanged = openedAt;
    this.periods.push({ status: 'OPEN', from: openedAt });
  }

  private get worker(): number | null {
    const followers = this.org?.followers ?? [];
    return this.assigned ?? (followers.length > 0 ? this.rng.pick(followers) : null);
  }

  /** Moves the clock on by `minMs`..`maxMs`; false when that is past now (the step has not happened yet). */
  private wait(minMs: number, maxMs: number): boolean {
    const next = this.t + minMs + Math.floor(this.rng.next() * Math.max(0, maxMs - minMs) / MINUTE) * MINUTE;
    if (next > this.nowMs - MINUTE) return false;
    this.t = next;
    return true;
  }

  private add(kind: TFollowUpEntryKind, data: Record<string, unknown>, extra: Partial<Entry> = {}): Entry {
    const entry: Entry = { at: this.t, kind, actorId: this.worker, data, ...extra };
    this.entries.push(entry);
    return entry;
  }

  private move(to: TFollowUpStatus, data: Record<string, unknown> = {}, note?: string): void {
    this.add('STATUS_CHANGE', { status: to, ...data }, { from: this.status, to, note });
    this.status = to;
    this.statusChanged = this.t;
    this.periods.push({ status: to, from: this.t });
    if (!isActiveFollowUpStatus(to)) {
      this.closesAt ??= this.t;
      this.closedAt = this.t;
    }
  }

  private maybeNote(notes: readonly string[], p = 0.15): void {
    if (this.rng.chance(p) && this.wait(10 * MINUTE, 2 * DAY)) this.add('NOTE', {}, { note: this.rng.pick(notes) });
  }

  private facilityName(): string {
    const place = this.org?.place ? `${this.org.place} ` : '';
    return `${place}${this.rng.pick(FACILITY_KINDS)}`;
  }

  /** Plays the case forward until it closes, stalls or reaches now. */
  play(first: { kind: string; sourceId: number; modality: TFollowUpModality }): void {
    const rng = this.rng;
    const s = this.org?.settings ?? defaultFollowUpSettings(0);
    this.entries.push({ at: this.t, kind: 'OPENED', actorId: null, data: { source_kind: first.kind, source_id: first.sourceId, modality: first.modality } });
    const followers = this.org?.followers ?? [];
    if (followers.length > 0 && rng.chance(0.75) && this.wait(10 * MINUTE, 36 * HOUR)) {
      const user = rng.pick(followers);
      this.add('ASSIGNMENT', { assigned_user: user, previous: null }, { actorId: followers[0] ?? user });
      this.assigned = user;
    }
    // OPEN: contact attempts until the patient is reached.
    this.maybeNote(OPEN_NOTES, 0.08);
    if (rng.chance(STALL)) return;
    let failures = 0;
    while (this.status === 'OPEN') {
      if (!this.wait(2 * HOUR, s.contact_days * 1.5 * DAY)) return;
      const method: TContactMethod = weighted(rng, [['CALL', 0.65], ['SMS', 0.15], ['VISIT', 0.2]]);
      const reached = rng.chance(failures === 0 ? 0.55 : 0.45);
      const result: TContactResult = reached ? 'REACHED' : method === 'VISIT' ? 'NOT_HOME' : rng.pick(FAILED.filter((r) => r !== 'NOT_HOME'));
      const attempt = this.add('CONTACT_ATTEMPT', { method, result });
      if (reached) {
        this.move('CONTACTED');
        break;
      }
      failures++;
      if (rng.chance(0.04) && this.wait(MINUTE, DAY)) {
        this.add('CORRECTION', {}, { corrects: attempt, note: rng.pick(CORRECTION_NOTES) });
      }
      if (failures >= 3 && (rng.chance(0.5) || failures >= 5) && this.wait(MINUTE, DAY)) {
        this.move('LOST_TO_FOLLOW_UP', {}, rng.pick(LOST_NOTES));
        return this.lateDiagnosis();
      }
    }
    // CONTACTED: a referral, a refusal, or the patient went on her own.
    this.maybeNote(CONTACTED_NOTES);
    if (rng.chance(0.06)) {
      if (this.wait(MINUTE, 3 * DAY)) this.move('DECLINED', {}, rng.pick(DECLINED_NOTES));
      return;
    }
    if (rng.chance(STALL)) return;
    const atContact = rng.chance(0.3);
    if (!this.wait(atContact ? MINUTE : 4 * HOUR, atContact ? 10 * MINUTE : s.referral_days * 1.5 * DAY)) return;
    this.facility = this.facilityName();
    if (rng.chance(0.05)) {
      this.move('SEEN', {}, SELF_REFERRAL_NOTE);
    } else {
      const tz = (this.org ?? NO_ORGANIZATION).timezone;
      const referral = localDay(this.t, tz);
      const appointment = addIsoDays(referral, rng.int(2, Math.max(3, Math.round(s.seen_days * 1.3))));
      this.add('REFERRAL', { facility: this.facility, referral_date: referral, appointment_date: appointment });
      this.move('REFERRED');
      // REFERRED: seen on the appointment day, or missed it.
      this.maybeNote(REFERRED_NOTES);
      if (rng.chance(0.04)) {
        if (this.wait(MINUTE, 5 * DAY)) this.move('DECLINED', {}, rng.pick(DECLINED_NOTES));
        return;
      }
      if (rng.chance(STALL)) return;
      const visit = startOfLocalDay(appointment, tz).getTime() + rng.int(9 * 60, 16 * 60) * MINUTE;
      if (rng.chance(0.08)) {
        if (!this.wait(Math.max(0, visit - this.t) + 2 * DAY, Math.max(0, visit - this.t) + 9 * DAY)) return;
        this.add('CONTACT_ATTEMPT', { method: 'CALL', result: rng.pick(['NO_ANSWER', 'WRONG_NUMBER'] as const) });
        if (this.wait(MINUTE, 2 * DAY)) this.move('LOST_TO_FOLLOW_UP', {}, rng.pick(LOST_NOTES));
        return this.lateDiagnosis();
      }
      if (visit <= this.t || visit > this.nowMs - MINUTE) return;
      this.t = visit;
      this.move('SEEN');
    }
    // SEEN: the diagnosis comes back.
    this.maybeNote(SEEN_NOTES, 0.3);
    if (rng.chance(0.05) && this.wait(MINUTE, 20 * DAY)) {
      this.move('LOST_TO_FOLLOW_UP', {}, rng.pick(LOST_NOTES));
      return this.lateDiagnosis();
    }
    if (rng.chance(STALL)) return;
    const seenAt = this.t;
    if (!this.wait(DAY, s.outcome_days * 1.5 * DAY)) return;
    this.reassignSometimes();
    this.close(seenAt);
  }

  private reassignSometimes(): void {
    const followers = this.org?.followers ?? [];
    if (this.assigned === null || followers.length < 2 || !this.rng.chance(0.08)) return;
    const user = this.rng.pick(followers.filter((f) => f !== this.assigned));
    this.add('ASSIGNMENT', { assigned_user: user, previous: this.assigned });
    this.assigned = user;
    this.t += MINUTE;
  }

  /** CLOSED with an outcome; the diagnosis dated between the visit (or the positive) and the close. */
  private close(diagnosedFrom: number, note?: string): void {
    const rng = this.rng;
    const tz = (this.org ?? NO_ORGANIZATION).timezone;
    this.outcome = weighted(rng, OUTCOMES);
    const modality = this.modalities[0] ?? 'BREAST';
    this.site = this.outcome === 'MALIGNANT' ? (rng.chance(0.1) ? 'OTHER' : SITE_OF[modality]) : null;
    const diagnosedAt = Math.max(this.openedAt, diagnosedFrom + Math.floor(rng.next() * (this.t - diagnosedFrom)));
    this.diagnosisDate = this.outcome === 'UNKNOWN' && rng.chance(0.7) ? null : localDay(diagnosedAt, tz);
    this.diagnosisFacility = this.outcome === 'UNKNOWN' ? null : (this.facility ?? this.facilityName());
    this.move(
      'CLOSED',
      { outcome: this.outcome, site: this.site, diagnosis_date: this.diagnosisDate, facility: this.diagnosisFacility },
      note,
    );
  }

  /** A patient lost to follow-up whose diagnosis is learned later is CLOSED with it. */
  private lateDiagnosis(): void {
    if (this.status !== 'LOST_TO_FOLLOW_UP' || !this.rng.chance(0.15)) return;
    const lostAt = this.t;
    if (this.wait(10 * DAY, 90 * DAY)) this.close(lostAt, LATE_CLOSE_NOTE);
  }

  /** Modalities of the positives linked so far (the first is the opening one). */
  readonly modalities: TFollowUpModality[] = [];

  /**
   * The reminder SMS the daily job sent: at its hour on the first overdue local day of each active state the case
   * was still in, once per state; `smsRemindedStatus` is the last one's state.
   */
  remind(patient: { consents: boolean; language: string }): TFollowUpStatus | null {
    const org = this.org;
    if (!org?.settings.sms_enabled || !patient.consents) return null;
    const language = org.settings.sms_texts[patient.language] ? patient.language : 'en';
    let last: TFollowUpStatus | null = null;
    for (const [i, p] of this.periods.entries()) {
      const { nextDue } = due(p.status, p.from, org);
      if (nextDue === null) continue;
      const sendAt = startOfLocalDay(overdueFromDate(nextDue), org.timezone).getTime() + FOLLOW_UP_REMINDER_HOUR * HOUR;
      const leftAt = this.periods[i + 1]?.from ?? Infinity;
      if (sendAt >= leftAt || sendAt > this.nowMs - MINUTE) continue;
      this.entries.push({ at: sendAt, kind: 'SMS_REMINDER', actorId: null, data: { status: p.status, language } });
      last = p.status;
    }
    return last;
  }
}

/** Opens, plays and loads the demo's follow-up cases; returns how many cases it wrote. */
export async function seedFollowUp(database: Database, rng: Rng, nowMs: number, log: (message: string) => void): Promise<number> {
  const orgRows = await database.query<{ id: number; timezone: string; place: string; language: string | null }>(ORGANIZATIONS_SQL);
  const orgs = new Map<number, DemoOrg>();
  for (const o of orgRows) {
    orgs.set(o.id, { ...o, language: o.language?.toLowerCase() ?? null, settings: defaultFollowUpSettings(o.id), followers: [] });
  }
  for (const f of await database.query<{ organization_id: number; user_id: number }>(FOLLOWERS_SQL)) {
    orgs.get(f.organization_id)?.followers.push(f.user_id);
  }
  await copyRows(database, schema.followUpSettings, demoSettings([...orgs.values()], rng, nowMs));
  await database.exec(CONSENT_SQL);

  const positives = await database.query<DemoPositive>(POSITIVES_SQL);
  let cases: Insert<typeof schema.followUpCases>[] = [];
  let sources: Insert<typeof schema.followUpCaseSources>[] = [];
  let entries: Insert<typeof schema.followUpEntries>[] = [];
  let caseId = 0;
  let sourceId = 0;
  let entryId = 0;
  const flush = async () => {
    await copyRows(database, schema.followUpCases, cases);
    await copyRows(database, schema.followUpCaseSources, sources);
    await copyRows(database, schema.followUpEntries, entries);
    cases = [];
    sources = [];
    entries = [];
  };

  const finish = (life: CaseLife, id: number, p: DemoPositive) => {
    const org = p.organization_id === null ? null : (orgs.get(p.organization_id) ?? null);
    const consents = org !== null && p.has_mobile && demoReminderConsent(p.patient_id);
    const language = org?.language && usesLocalLanguage(p.patient_id) ? org.language : 'en';
    const reminded = life.remind({ consents, language });
    // Ties keep the order they were written in (a contact and the move it implies share an instant).
    const timeline = life.entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i).map((x) => x.e);
    for (const e of timeline) {
      e.id = ++entryId;
      entries.push({
        id: e.id,
        caseId: id,
        kind: e.kind,
        actorId: e.actorId,
        fromStatus: e.from ?? null,
        toStatus: e.to ?? null,
        data: e.data,
        note: e.note ?? null,
        correctsId: e.corrects?.id ?? null,
        created: new Date(e.at),
      });
    }
    const last = timeline[timeline.length - 1]!;
    const { nextDue, dueAt } = due(life.status, life.statusChanged, org ?? NO_ORGANIZATION);
    cases.push({
      id,
      patientId: p.patient_id,
      organizationId: p.organization_id,
      status: life.status,
      statusChanged: new Date(life.statusChanged),
      modalities: [...new Set(life.modalities)],
      openedAt: new Date(life.openedAt),
      assignedUserId: life.assigned,
      nextDue,
      dueAt: dueAt === null ? null : new Date(dueAt),
      lastActionKind: last.kind,
      lastActionAt: new Date(last.at),
      outcome: life.outcome,
      outcomeSite: life.site,
      diagnosisDate: life.diagnosisDate,
      diagnosisFacility: life.diagnosisFacility,
      closedAt: life.closedAt === null ? null : new Date(life.closedAt),
      smsRemindedStatus: reminded,
      created: new Date(life.openedAt),
      modified: new Date(last.at),
      createdBy: null,
      modifiedBy: last.actorId,
    });
  };

  let open: { life: CaseLife; id: number; first: DemoPositive } | null = null;
  for (const p of positives) {
    const modality = SOURCE_MODALITY[p.kind];
    const joins = open !== null && open.first.patient_id === p.patient_id && (open.life.closesAt === null || p.at < open.life.closesAt);
    if (joins && open) {
      open.life.entries.push({ at: p.at, kind: 'JOINED', actorId: null, data: { source_kind: p.kind, source_id: p.source_id, modality } });
      open.life.modalities.push(modality);
    } else {
      if (open) finish(open.life, open.id, open.first);
      if (cases.length >= BATCH) await flush();
      const org = p.organization_id === null ? null : (orgs.get(p.organization_id) ?? null);
      const life = new CaseLife(rng, org, nowMs, p.at);
      life.modalities.push(modality);
      life.play({ kind: p.kind, sourceId: p.source_id, modality });
      open = { life, id: ++caseId, first: p };
    }
    sources.push({ id: ++sourceId, caseId: open.id, kind: p.kind, sourceId: p.source_id, screenedAt: new Date(p.at), created: new Date(p.at) });
  }
  if (open) finish(open.life, open.id, open.first);
  await flush();
  await resetSequences(database, [schema.followUpCases, schema.followUpCaseSources, schema.followUpEntries]);
  log(`follow-up: ${caseId} cases of ${positives.length} positives, ${entryId} timeline entries`);
  return caseId;
}
