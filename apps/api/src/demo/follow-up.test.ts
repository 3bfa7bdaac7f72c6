import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVE_FOLLOW_UP_STATUSES,
  canMoveFollowUp,
  FOLLOW_UP_OUTCOMES,
  FOLLOW_UP_SITES,
  FOLLOW_UP_STATUSES,
  isActiveFollowUpStatus,
  isBreastScreenPositive,
  isCervicalScreenPositive,
  isOralScreenPositive,
  SOURCE_MODALITY,
  type TFollowUpSourceKind,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import type { Database } from '../db/client.ts';
import { localDate } from '../http/period.ts';
import { backfillFollowUp } from '../jobs/follow-up-backfill.job.ts';
import { dueFor, loadFollowUpSettings } from '../modules/follow-up/follow-up-core.ts';
import type { JobContext } from '../services/queue/job.ts';
import { createTestDatabase } from '../test/database.ts';
import { seedDemo } from './seed.ts';

const NOW = new Date('2026-06-15T08:00:00Z');

type CaseRow = {
  id: number;
  patient_id: number;
  organization_id: number | null;
  status: TFollowUpStatus;
  status_changed: Date;
  modalities: string[];
  opened_at: Date;
  assigned_user_id: number | null;
  next_due: string | null;
  due_at: Date | null;
  last_action_kind: string | null;
  last_action_at: Date | null;
  outcome: string | null;
  outcome_site: string | null;
  diagnosis_date: string | null;
  diagnosis_facility: string | null;
  closed_at: Date | null;
  sms_reminded_status: string | null;
  timezone: string | null;
};
type EntryRow = {
  id: number;
  case_id: number;
  kind: string;
  actor_id: number | null;
  from_status: TFollowUpStatus | null;
  to_status: TFollowUpStatus | null;
  data: Record<string, unknown>;
  corrects_id: number | null;
  created: Date;
};

describe('demo follow-up cases', () => {
  let database: Database;
  let cases: CaseRow[];
  const timelines = new Map<number, EntryRow[]>();

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemo(database, { password: 'Demo@2026', now: NOW, scale: 1500 });
    cases = await database.query<CaseRow>(
      `SELECT c.*, c.next_due::text AS next_due, c.diagnosis_date::text AS diagnosis_date, o.timezone
         FROM follow_up_cases c LEFT JOIN organizations o ON o.id = c.organization_id ORDER BY c.id`,
    );
    for (const e of await database.query<EntryRow>('SELECT * FROM follow_up_entries ORDER BY case_id, created, id')) {
      const list = timelines.get(e.case_id) ?? [];
      list.push(e);
      timelines.set(e.case_id, list);
    }
  }, 180_000);

  afterAll(async () => {
    await database.close();
  });

  it('has cases in every status and outcome, and malignancies at every site', () => {
    const statuses = new Set(cases.map((c) => c.status));
    for (const s of FOLLOW_UP_STATUSES) expect(statuses, s).toContain(s);
    const outcomes = new Set(cases.map((c) => c.outcome));
    for (const o of FOLLOW_UP_OUTCOMES) expect(outcomes, o).toContain(o);
    const sites = new Set(cases.filter((c) => c.outcome === 'MALIGNANT').map((c) => c.outcome_site));
    for (const s of FOLLOW_UP_SITES) expect(sites, s).toContain(s);
    expect(cases.filter((c) => c.outcome !== null).every((c) => c.status === 'CLOSED')).toBe(true);
  });

  it('has overdue and not yet overdue cases in every active state', () => {
    for (const s of ACTIVE_FOLLOW_UP_STATUSES) {
      const inState = cases.filter((c) => c.status === s);
      expect(inState.some((c) => c.due_at!.getTime() <= NOW.getTime()), `${s} overdue`).toBe(true);
      expect(inState.some((c) => c.due_at!.getTime() > NOW.getTime()), `${s} not overdue`).toBe(true);
    }
  });

  it('links every positive exactly once and nothing else', async () => {
    // Recomputed from the raw rows with the shared rule, not with the generator's query.
    const expected = new Set<string>();
    const scans = await database.query<{ id: number; scan_type: string; left_breast_finding: string[]; right_breast_finding: string[]; patient_id: number | null }>(
      'SELECT id, scan_type, left_breast_finding, right_breast_finding, patient_id FROM scans',
    );
    for (const s of scans) if (s.patient_id !== null && isBreastScreenPositive(s)) expected.add(`SCAN:${s.id}`);
    type Exam = { id: number; reviewer_one_id: number | null; reviewer_one_status: string; reviewer_two_id: number | null; reviewer_two_status: string; final_status: string | null; patient_id: number | null };
    const exams = await database.query<Exam>(
      'SELECT id, reviewer_one_id, reviewer_one_status, reviewer_two_id, reviewer_two_status, final_status, patient_id FROM cervical_exams',
    );
    const reviews = await database.query<{ exam_id: number; user_id: number; clinical_finding: { answer: boolean }[] }>(
      'SELECT d.exam_id, r.user_id, r.clinical_finding FROM cervical_document_reviews r JOIN cervical_documents d ON d.id = r.document_id',
    );
    for (const e of exams) {
      // Each reviewer's status on the exam (not on one document), and whether they answered yes to a finding.
      const anyFinding = (userId: number | null) =>
        reviews.some((r) => r.exam_id === e.id && r.user_id === userId && r.clinical_finding.some((f) => f.answer));
      const mine = [
        { reviewer_status: e.reviewer_one_status, any_finding: anyFinding(e.reviewer_one_id) },
        { reviewer_status: e.reviewer_two_status, any_finding: anyFinding(e.reviewer_two_id) },
      ];
      if (e.patient_id !== null && isCervicalScreenPositive(e, mine)) expected.add(`CERVICAL:${e.id}`);
    }
    const findings = await database.query<{ id: number; patient_id: number | null; symptoms: string[][] }>(
      `SELECT o.id, o.patient_id, coalesce(array_agg(f.symptoms) FILTER (WHERE f.id IS NOT NULL), '{}') AS symptoms
         FROM orca_exams o LEFT JOIN orca_findings f ON f.exam_id = o.id GROUP BY o.id`,
    );
    for (const o of findings) {
      if (o.patient_id !== null && isOralScreenPositive(o.symptoms.map((symptoms) => ({ symptoms })))) expected.add(`ORCA:${o.id}`);
    }
    const linked = await database.query<{ kind: TFollowUpSourceKind; source_id: number; n: number }>(
      'SELECT kind, source_id, count(*)::int AS n FROM follow_up_case_sources GROUP BY kind, source_id',
    );
    expect(linked.every((l) => l.n === 1)).toBe(true);
    expect(new Set(linked.map((l) => `${l.kind}:${l.source_id}`))).toEqual(expected);
    for (const kind of ['SCAN', 'CERVICAL', 'ORCA']) expect([...expected].some((k) => k.startsWith(kind)), kind).toBe(true);
  });

  it('opens at most one active case per patient, in the patient organization', async () => {
    const active = cases.filter((c) => isActiveFollowUpStatus(c.status));
    expect(new Set(active.map((c) => c.patient_id)).size).toBe(active.length);
    const [wrong] = await database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM follow_up_cases c JOIN patients p ON p.id = c.patient_id WHERE c.organization_id IS DISTINCT FROM p.organization_id',
    );
    expect(wrong?.n).toBe(0);
  });

  it('keeps every case row in agreement with its timeline and the due rule', async () => {
    const sources = await database.query<{ case_id: number; kind: TFollowUpSourceKind; screened_at: Date }>(
      'SELECT case_id, kind, screened_at FROM follow_up_case_sources ORDER BY case_id, screened_at',
    );
    const settings = new Map<number, Awaited<ReturnType<typeof loadFollowUpSettings>>>();
    const bySource = new Map<number, typeof sources>();
    for (const s of sources) bySource.set(s.case_id, [...(bySource.get(s.case_id) ?? []), s]);
    for (const c of cases) {
      const timeline = timelines.get(c.id)!;
      const where = `case ${c.id}`;
      const mine = bySource.get(c.id)!;
      expect(timeline[0]!.kind, where).toBe('OPENED');
      expect(timeline[0]!.created.getTime(), where).toBe(c.opened_at.getTime());
      expect(mine[0]!.screened_at.getTime(), where).toBe(c.opened_at.getTime());
      expect(timeline.filter((e) => e.kind === 'JOINED').length, where).toBe(mine.length - 1);
      expect([...c.modalities].sort(), where).toEqual([...new Set(mine.map((s) => SOURCE_MODALITY[s.kind]))].sort());
      let status: TFollowUpStatus = 'OPEN';
      let changed = c.opened_at;
      let assigned: number | null = null;
      let reminded: string | null = null;
      let closing: EntryRow | null = null;
      const seen = new Set<number>();
      for (const e of timeline) {
        expect(e.created.getTime(), where).toBeLessThanOrEqual(NOW.getTime());
        expect(e.created.getTime(), where).toBeGreaterThanOrEqual(c.opened_at.getTime());
        if (e.corrects_id !== null) expect(seen.has(e.corrects_id), where).toBe(true);
        seen.add(e.id);
        if (e.kind === 'STATUS_CHANGE') {
          expect(e.from_status, where).toBe(status);
          expect(canMoveFollowUp(status, e.to_status!), `${where} ${status} → ${e.to_status}`).toBe(true);
          status = e.to_status!;
          changed = e.created;
          if (status === 'CLOSED') closing = e;
        }
        if (e.kind === 'JOINED') expect(isActiveFollowUpStatus(status), where).toBe(true);
        if (e.kind === 'ASSIGNMENT') assigned = e.data.to as number;
        if (e.kind === 'SMS_REMINDER') reminded = e.data.status as string;
      }
      const last = timeline[timeline.length - 1]!;
      expect(c.status, where).toBe(status);
      expect(c.status_changed.getTime(), where).toBe(changed.getTime());
      expect(c.last_action_kind, where).toBe(last.kind);
      expect(c.last_action_at?.getTime(), where).toBe(last.created.getTime());
      expect(c.assigned_user_id, where).toBe(assigned);
      expect(c.sms_reminded_status, where).toBe(reminded);
      expect(c.closed_at?.getTime() ?? null, where).toBe(isActiveFollowUpStatus(status) ? null : changed.getTime());
      expect(c.outcome, where).toBe(closing?.data.outcome ?? null);
      expect(c.outcome_site, where).toBe(closing?.data.site ?? null);
      expect(c.diagnosis_date, where).toBe(closing?.data.diagnosis_date ?? null);
      expect(c.diagnosis_facility, where).toBe(closing?.data.facility ?? null);
      const zone = c.timezone ?? 'Asia/Kolkata';
      if (c.diagnosis_date !== null) {
        expect(c.diagnosis_date >= localDate(c.opened_at, zone), where).toBe(true);
        expect(c.diagnosis_date <= localDate(NOW, zone), where).toBe(true);
      }
      const orgId = c.organization_id ?? 0;
      if (!settings.has(orgId)) settings.set(orgId, await loadFollowUpSettings(database.db, c.organization_id));
      const expected = dueFor(c.status, c.status_changed, settings.get(orgId)!, zone);
      expect(c.next_due, where).toBe(expected.nextDue);
      expect(c.due_at?.getTime() ?? null, where).toBe(expected.dueAt?.getTime() ?? null);
    }
  });

  it('writes reminders only to consenting patients of organizations with SMS on', async () => {
    const [bad] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM follow_up_entries e JOIN follow_up_cases c ON c.id = e.case_id
         JOIN patients p ON p.id = c.patient_id LEFT JOIN follow_up_settings s ON s.organization_id = c.organization_id
        WHERE e.kind = 'SMS_REMINDER' AND NOT (p.reminder_consent AND p.mobile IS NOT NULL AND coalesce(s.sms_enabled, false))`,
    );
    expect(bad?.n).toBe(0);
    const [sms] = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM follow_up_entries WHERE kind = 'SMS_REMINDER'");
    expect(sms!.n).toBeGreaterThan(0);
    const [consent] = await database.query<{ share: number }>(
      'SELECT avg(reminder_consent::int)::float8 AS share FROM patients WHERE organization_id IS NOT NULL',
    );
    expect(consent!.share).toBeGreaterThan(0.5);
    expect(consent!.share).toBeLessThan(0.7);
  });

  it.each(['orgadmin@demo.test', 'manager@demo.test', 'distributor@demo.test'])('gives %s more than a page of cases, some overdue', async (email) => {
    const [row] = await database.query<{ n: number; overdue: number }>(
      `WITH me AS (SELECT * FROM users WHERE email = $1),
       scope AS (
         SELECT o.id FROM organizations o, me
          WHERE (me.user_type = 'ORG_ADMIN' AND o.id = me.organization_id)
             OR (me.user_type = 'DISTRIBUTOR_ADMIN' AND o.tree_path LIKE (SELECT tree_path FROM organizations WHERE id = me.organization_id) || '%')
             OR (me.user_type = 'MANAGER' AND EXISTS (SELECT 1 FROM manager_organizations m JOIN organizations mo ON mo.id = m.organization_id
                                                        WHERE m.user_id = me.id AND o.tree_path LIKE mo.tree_path || '%')))
       SELECT count(*)::int AS n, count(*) FILTER (WHERE c.due_at <= $2)::int AS overdue
         FROM follow_up_cases c WHERE c.organization_id IN (SELECT id FROM scope)`,
      [email, NOW],
    );
    expect(row!.n).toBeGreaterThan(10);
    expect(row!.overdue).toBeGreaterThan(0);
  });

  it('leaves the start-up backfill nothing to open: the demo links its positives by the live rule', async () => {
    // Nothing is queued when nothing opens, so the job needs only the database and a clock.
    const ctx = { database, now: () => NOW } as unknown as JobContext;
    const before = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM follow_up_case_sources');
    const got = await backfillFollowUp(ctx);
    expect(got).toEqual({ positives: 0, opened: 0, joined: 0, linked: 0 });
    expect(await database.query<{ n: number }>('SELECT count(*)::int AS n FROM follow_up_case_sources')).toEqual(before);
  });
});
