// The follow-up backfill: positives stored before follow-up existed (inserted straight into the tables, as a
// migrated database holds them) get their cases, one per patient, in small batches; run twice it changes nothing;
// beside cases opened by uploads it links only what is missing. POST follow-up/backfill/: ADMIN only, queues the job.
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_AUDIT, FOLLOW_UP_MESSAGES } from '@sc/shared/follow-up';
import type { TUserType } from '@sc/shared/roles';
import {
  auditLog,
  cervicalClinicalFindings,
  cervicalDocumentReviews,
  cervicalExams,
  followUpCaseSources,
  followUpCases,
  followUpEntries,
  orcaExams,
  orcaFindings,
  patients,
  scans,
} from '../db/schema/index.ts';
import { seedExam } from '../modules/cervical/cervical.fixtures.ts';
import { casesOf } from '../modules/follow-up/follow-up-opening.fixtures.ts';
import { scanInput } from '../modules/scans/scans.fixtures.ts';
import { post, scanBody, setupUploader, uploadPatient } from '../modules/uploads/uploads.fixtures.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';
import { backfillFollowUp, followUpBackfillJob, queueStartupFollowUpBackfill } from './follow-up-backfill.job.ts';

const t = await setupTestApp();
const { db } = t.database;
const ctx = t.app.ctx;

const totals = async () => ({
  cases: (await db.select({ n: count() }).from(followUpCases))[0]!.n,
  sources: (await db.select({ n: count() }).from(followUpCaseSources))[0]!.n,
  entries: (await db.select({ n: count() }).from(followUpEntries))[0]!.n,
});

async function patientOf(organizationId: number | null) {
  const [p] = await db.insert(patients).values({ firstName: 'Meera', lastName: 'Iyer', age: 44, organizationId }).returning();
  return p!.id;
}

async function storedScan(patientId: number, organizationId: number | null, values: Parameters<typeof scanInput>[0] = {}) {
  const [row] = await db
    .insert(scans)
    .values({ ...scanInput({ leftBreastFinding: ['mass'], ...values }), patientId, organizationId })
    .returning();
  return row!.id;
}

async function storedOrca(patientId: number, organizationId: number, symptoms: string[], dateTime: Date) {
  const [exam] = await db.insert(orcaExams).values({ patientId, organizationId, dateTime }).returning();
  await db.insert(orcaFindings).values({ examId: exam!.id, exam: 'intra_oral_exam', part: 'Tongue', symptoms });
  return exam!.id;
}

/** A cervical exam both reviewers finished VALID, the first answering yes to a finding when `positive`. */
async function storedCervical(organizationId: number, positive: boolean) {
  const exam = await seedExam(db, { organizationId, documents: ['IMAGE'], dateTime: new Date('2025-11-02T08:00:00Z') });
  const [finding] = await db.select().from(cervicalClinicalFindings).limit(1);
  const r1 = await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: null });
  const r2 = await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: null });
  const answers = [{ id: finding!.id, name: finding!.name, answer: true, clinical_finding: finding!.id }];
  await db.insert(cervicalDocumentReviews).values([
    { documentId: exam.documentIds[0]!, userId: r1.id, reviewStatus: 'VALID', clinicalFinding: positive ? answers : [] },
    { documentId: exam.documentIds[0]!, userId: r2.id, reviewStatus: 'VALID', clinicalFinding: [] },
  ]);
  await db
    .update(cervicalExams)
    .set({ reviewerOneId: r1.id, reviewerOneStatus: 'VALID', reviewerTwoId: r2.id, reviewerTwoStatus: 'VALID' })
    .where(eq(cervicalExams.id, exam.id));
  return exam;
}

describe('the follow-up backfill job', () => {
  it('opens one case per patient for stored positives, oldest first, and changes nothing when run again', async () => {
    const org = await createOrganization(t, { timezone: 'Asia/Kolkata' });
    const both = await patientOf(org.id);
    const older = await storedScan(both, org.id, { dateTime: new Date('2025-10-01T09:00:00Z') });
    const newer = await storedScan(both, org.id, { dateTime: new Date('2025-12-01T09:00:00Z') });
    const oral = await storedOrca(both, org.id, ['Ulcer'], new Date('2025-11-15T09:00:00Z'));
    const negatives = await patientOf(org.id);
    await storedScan(negatives, org.id, { leftBreastFinding: [] });
    await storedScan(negatives, org.id, { scanType: 'TRAINING' });
    await storedOrca(negatives, org.id, [], new Date('2025-11-15T09:00:00Z'));
    const cervical = await storedCervical(org.id, true);
    const cervicalNegative = await storedCervical(org.id, false);
    const orphan = await patientOf(null);
    await storedScan(orphan, null);

    // Batches of 1: every positive is its own transaction, the keyset passes the negative candidates.
    const first = await backfillFollowUp(ctx, { batch: 1 });
    expect(first).toEqual({ positives: 5, opened: 3, joined: 2, linked: 0 });
    const [kase, ...more] = await casesOf(db, both);
    expect(more).toEqual([]);
    expect(kase).toMatchObject({
      status: 'OPEN',
      organizationId: org.id,
      modalities: ['BREAST', 'ORAL'],
      openedAt: new Date('2025-10-01T09:00:00Z'),
      nextDue: '2025-10-08',
    });
    expect(kase!.sources.map((s) => [s.kind, s.sourceId])).toEqual([['SCAN', older], ['SCAN', newer], ['ORCA', oral]]);
    expect(kase!.entries.map((e) => e.kind)).toEqual(['OPENED', 'JOINED', 'JOINED']);
    expect(await casesOf(db, negatives)).toEqual([]);
    expect(await casesOf(db, cervical.patientId)).toMatchObject([{ modalities: ['CERVICAL'], sources: [{ sourceId: cervical.id }] }]);
    expect(await casesOf(db, cervicalNegative.patientId)).toEqual([]);
    // A patient without an organization still has a case (only the roles of scope 'all' see it).
    expect(await casesOf(db, orphan)).toMatchObject([{ organizationId: null, status: 'OPEN' }]);

    const before = await totals();
    expect(await backfillFollowUp(ctx)).toEqual({ positives: 0, opened: 0, joined: 0, linked: 0 });
    expect(await totals()).toEqual(before);
  });

  it('links only what is missing beside cases already open, and runs through the queue', async () => {
    const org = await createOrganization(t);
    const p = await patientOf(org.id);
    await storedScan(p, org.id);
    await backfillFollowUp(ctx);
    const later = await storedScan(p, org.id, { dateTime: new Date('2026-03-05T10:00:00Z') });
    await ctx.services.queue.send(followUpBackfillJob.name, {});
    await ctx.services.queue.drain();
    const cases = await casesOf(db, p);
    expect(cases).toHaveLength(1);
    expect(cases[0]!.sources.map((s) => s.sourceId)).toContain(later);
    expect(cases[0]!.entries.map((e) => e.kind)).toEqual(['OPENED', 'JOINED']);
  });
});

describe('the backfill beside uploads', () => {
  it('gives one case with every positive when it runs while the patient’s positives are uploaded', async () => {
    const s = await setupUploader(t);
    const patient = await uploadPatient(t, s);
    const stored = await Promise.all([1, 2, 3].map((d) => storedScan(patient, s.org.id, { dateTime: new Date(`2026-01-0${d}T10:00:00Z`) })));
    const [counts, ...uploads] = await Promise.all([
      backfillFollowUp(ctx, { batch: 1 }),
      ...[4, 5, 6].map((d) =>
        post(t, s.token, '/scan/', scanBody(s.device.serialNumber, patient, { date_time: `2026-01-0${d}T10:00:00Z` })),
      ),
    ]);
    expect(uploads.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const uploaded = uploads.map((r) => r.json<{ id: number }>().id);
    const cases = await casesOf(db, patient);
    expect(cases).toHaveLength(1);
    expect(cases[0]!.sources.map((x) => x.sourceId).sort((a, b) => a - b)).toEqual([...stored, ...uploaded].sort((a, b) => a - b));
    expect(cases[0]!.entries.filter((e) => e.kind === 'OPENED')).toHaveLength(1);
    expect(cases[0]!.openedAt).toEqual(new Date('2026-01-01T10:00:00Z'));
    // An upload links its scan in its own transaction: the backfill only ever sees the stored three.
    expect(counts).toMatchObject({ positives: 3, linked: 0 });
  });
});

describe('the start-up backfill', () => {
  it('is queued once however many instances start together (pg-boss singleton key)', async () => {
    await ctx.services.queue.drain();
    const org = await createOrganization(t);
    const p = await patientOf(org.id);
    await storedScan(p, org.id);
    await Promise.all([1, 2, 3].map(() => queueStartupFollowUpBackfill(ctx.services)));
    expect(await ctx.services.queue.drain()).toBe(1);
    expect(await casesOf(db, p)).toMatchObject([{ status: 'OPEN', createdBy: null }]);
  });
});

describe('POST follow-up/backfill/', () => {
  const call = (token: string) => t.app.inject({ method: 'POST', url: '/api/v1/follow-up/backfill/', headers: auth(token) });

  it('refuses every role but ADMIN with 403 and queues nothing', async () => {
    const org = await createOrganization(t);
    for (const userType of ['SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN', 'TECHNICIAN', 'CERVAICAL_REVIEWER'] as TUserType[]) {
      const user = await createUser(t, { userType, organizationId: ['SUB_ADMIN', 'MANAGER', 'CERVAICAL_REVIEWER'].includes(userType) ? null : org.id });
      const res = await call(await signIn(t, user));
      expect(res.statusCode, userType).toBe(403);
      expect(res.json()).toEqual({ detail: FOLLOW_UP_MESSAGES.backfillRole });
    }
    expect(await db.select().from(auditLog).where(eq(auditLog.action, FOLLOW_UP_AUDIT.backfill))).toEqual([]);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/follow-up/backfill/' })).statusCode).toBe(401);
  });

  it('queues the job for an ADMIN (202), with an audit row; the job opens the missing cases', async () => {
    const org = await createOrganization(t);
    const p = await patientOf(org.id);
    await storedScan(p, org.id);
    const admin = await createUser(t, { userType: 'ADMIN', organizationId: null });
    const res = await call(await signIn(t, admin));
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ detail: FOLLOW_UP_MESSAGES.backfillQueued });
    expect(await db.select().from(auditLog).where(eq(auditLog.action, FOLLOW_UP_AUDIT.backfill))).toMatchObject([
      { actorId: admin.id, targetType: 'settings', targetId: 'follow_up_backfill' },
    ]);
    expect(await casesOf(db, p)).toEqual([]);
    await ctx.services.queue.drain();
    expect(await casesOf(db, p)).toMatchObject([{ status: 'OPEN', createdBy: admin.id }]);
  });
});
