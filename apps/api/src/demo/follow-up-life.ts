// One demo follow-up case played from its positive to now (issue 26): contact attempts until the patient is reached,
// a referral, the visit, the outcome, with notes, corrections, reassignments and the reminder SMS the daily job
// sent; a share of each active state stalls and becomes overdue. Due dates follow `dueFor` of follow-up-core.
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import {
  addIsoDays,
  defaultFollowUpSettings,
  followUpDueDate,
  FOLLOW_UP_OUTCOMES,
  FOLLOW_UP_REMINDER_HOUR,
  isActiveFollowUpStatus,
  overdueFromDate,
  type TContactMethod,
  type TContactResult,
  type TFollowUpEntryKind,
  type TFollowUpModality,
  type TFollowUpOutcome,
  type TFollowUpSettings,
  type TFollowUpSite,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import { localDate, startOfLocalDay } from '../http/period.ts';
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
} from './follow-up-texts.ts';
import type { Rng } from './rng.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Share of cases left in an active state by their organization (they become overdue). */
const STALL = 0.08;
/** Share of cases left in an active state by their organization (they become overdue). */

export type DemoOrg = {
  id: number;
  timezone: string;
  place: string;
  /** Its country's language: reminder texts in it and in English. */
  language: string | null;
  settings: TFollowUpSettings;
  /** Users who follow up its cases: ORG_ADMINs first, then MANAGERs, then its distributor's admins. */
  followers: number[];
  /** Each follower's name, as ASSIGNMENT entries carry it. */
  names: ReadonlyMap<number, string>;
};

export type Entry = {
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
export const NO_ORGANIZATION: DemoOrg = {
  id: 0,
  timezone: DEFAULT_TIMEZONE,
  place: '',
  language: null,
  settings: defaultFollowUpSettings(0),
  followers: [],
  names: new Map(),
};

/** Local dates are read through a cache per zone and quarter hour (every zone changes offset on one). */
const localDates = new Map<string, string>();
export function localDay(ms: number, zone: string): string {
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
export function due(status: TFollowUpStatus, enteredMs: number, org: DemoOrg): { nextDue: string | null; dueAt: number | null } {
  const nextDue = followUpDueDate(status, localDay(enteredMs, org.timezone), org.settings);
  return { nextDue, dueAt: nextDue === null ? null : startOfLocalDay(overdueFromDate(nextDue), org.timezone).getTime() };
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
export class CaseLife {
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
    /** Outcomes and malignancy sites no case of the load has had yet. */
    private readonly unseen: Set<string>,
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
      this.add('ASSIGNMENT', this.assignment(null, user), { actorId: followers[0] ?? user });
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

  /** An ASSIGNMENT entry's data, as the API writes it (FollowUpEntryData in @sc/shared/follow-up). */
  private assignment(from: number | null, to: number): Record<string, unknown> {
    const name = (id: number | null) => (id === null ? null : (this.org?.names.get(id) ?? null));
    return { from, from_name: name(from), to, to_name: name(to) };
  }

  private reassignSometimes(): void {
    const followers = this.org?.followers ?? [];
    if (this.assigned === null || followers.length < 2 || !this.rng.chance(0.08)) return;
    const user = this.rng.pick(followers.filter((f) => f !== this.assigned));
    this.add('ASSIGNMENT', this.assignment(this.assigned, user));
    this.assigned = user;
    this.t += MINUTE;
  }

  /** CLOSED with an outcome; the diagnosis dated between the visit (or the positive) and the close. */
  private close(diagnosedFrom: number, note?: string): void {
    const rng = this.rng;
    const tz = (this.org ?? NO_ORGANIZATION).timezone;
    const modality = rng.pick(this.modalities);
    // The first closes of the load take what no case has yet (each outcome, each site), so a small demo shows them all.
    const missingSite = this.unseen.has(`site:${SITE_OF[modality]}`) ? SITE_OF[modality] : this.unseen.has('site:OTHER') ? 'OTHER' : null;
    const missingOutcome = FOLLOW_UP_OUTCOMES.find((o) => this.unseen.has(`outcome:${o}`));
    this.outcome = missingSite ? 'MALIGNANT' : (missingOutcome ?? weighted(rng, OUTCOMES));
    this.site = this.outcome === 'MALIGNANT' ? (missingSite ?? (rng.chance(0.1) ? 'OTHER' : SITE_OF[modality])) : null;
    this.unseen.delete(`outcome:${this.outcome}`);
    if (this.site) this.unseen.delete(`site:${this.site}`);
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
