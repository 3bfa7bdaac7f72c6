// Opening follow-up cases (issue 26) through the real endpoints: a positive breast scan, ORCA exam or cervical final
// read opens one case for its patient, exactly once (parallel uploads, re-sent uploads, reviews saved again); a
// further positive joins the active case, one after it closed opens a second; the case's webhook event; the cases
// move with a transferred patient, their due dates in the new organization's zone and settings.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_WEBHOOK_EVENT } from '@sc/shared/follow-up';
import {
  cervicalClinicalFindings,
  cervicalQualities,
  followUpCases,
  followUpSettings,
  webhookDeliveries,
} from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { seedExam } from '../cervical/cervical.fixtures.ts';
import { newKey, post, scanBody, setupUploader, uploadPatient } from '../uploads/uploads.fixtures.ts';
import { casesOf, grantLicence, orcaBody, postOrca } from './follow-up-opening.fixtures.ts';

const t = await setupTestApp();
const { db } = t.database;

async function withPatient(orgValues: Parameters<typeof createOrganization>[1] = {}) {
  const setup = await setupUploader(t, { orgValues });
  return { ...setup, patient: await uploadPatient(t, setup) };
}
type Setup = Awaited<ReturnType<typeof withPatient>>;

const uploadScan = async (s: Setup, overrides: Parameters<typeof scanBody>[2] = {}, key = newKey()) => {
  const res = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, s.patient, overrides), key);
  expect([200, 201], res.body).toContain(res.statusCode);
  return res.json<{ id: number }>().id;
};

describe('a positive breast scan uploaded by a device', () => {
  it('opens one OPEN case in the patient’s organization, due 7 days after the screen in its zone', async () => {
    const s = await withPatient({ timezone: 'Asia/Kolkata' });
    // 20:00 UTC is already the next day in Kolkata: the due date counts from the local 2 March.
    const scanId = await uploadScan(s, { date_time: '2026-03-01T20:00:00Z' });
    const [kase, ...more] = await casesOf(db, s.patient);
    expect(more).toEqual([]);
    expect(kase).toMatchObject({
      organizationId: s.org.id,
      status: 'OPEN',
      modalities: ['BREAST'],
      openedAt: new Date('2026-03-01T20:00:00Z'),
      nextDue: '2026-03-09',
      dueAt: new Date('2026-03-09T18:30:00Z'),
      createdBy: s.user.id,
      lastActionKind: 'OPENED',
    });
    expect(kase!.sources).toMatchObject([{ kind: 'SCAN', sourceId: scanId }]);
    expect(kase!.entries).toMatchObject([
      { kind: 'OPENED', actorId: null, fromStatus: null, toStatus: 'OPEN', data: { source_kind: 'SCAN', source_id: scanId, modality: 'BREAST' } },
    ]);
  });

  it('opens nothing for a negative scan, nor for TRAINING and PRACTICE scans with findings', async () => {
    const s = await withPatient();
    await uploadScan(s, { left_breast_finding: [], right_breast_finding: [] });
    await uploadScan(s, { scan_type: 'TRAINING' });
    await uploadScan(s, { scan_type: 'PRACTICE', right_breast_finding: ['cyst'] });
    expect(await casesOf(db, s.patient)).toEqual([]);
  });

  it('changes nothing when the same scan is uploaded again (a retry under a new key)', async () => {
    const s = await withPatient();
    const body = scanBody(s.device.serialNumber, s.patient);
    const first = await post(t, s.token, '/scan/', body);
    expect(first.statusCode).toBe(201);
    const before = await casesOf(db, s.patient);
    const again = await post(t, s.token, '/scan/', body);
    expect(again.statusCode).toBe(200);
    expect(await casesOf(db, s.patient)).toEqual(before);
    expect(before).toHaveLength(1);
    expect(before[0]!.sources).toHaveLength(1);
  });

  it('gives N parallel positive uploads of one patient exactly one case with N sources', async () => {
    const s = await withPatient();
    const n = 6;
    const ids = await Promise.all(
      Array.from({ length: n }, (_, i) => uploadScan(s, { date_time: `2026-03-0${i + 1}T10:00:00Z` })),
    );
    const cases = await casesOf(db, s.patient);
    expect(cases).toHaveLength(1);
    expect(cases[0]!.sources.map((x) => x.sourceId).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(cases[0]!.entries.map((e) => e.kind).sort()).toEqual(['JOINED', 'JOINED', 'JOINED', 'JOINED', 'JOINED', 'OPENED']);
    // Opened at the earliest of the screens, whichever upload came first.
    expect(cases[0]!.openedAt).toEqual(new Date('2026-03-01T10:00:00Z'));
    expect(cases[0]!.nextDue).toBe('2026-03-08');
  });

  it('joins the active case; once it closed, the next positive opens a second case', async () => {
    const s = await withPatient();
    await uploadScan(s);
    await uploadScan(s, { date_time: '2026-03-02T10:00:00Z' });
    const [first] = await casesOf(db, s.patient);
    expect(first!.sources).toHaveLength(2);
    await db.update(followUpCases).set({ status: 'CLOSED', outcome: 'BENIGN', nextDue: null, dueAt: null }).where(eq(followUpCases.id, first!.id));
    const later = await uploadScan(s, { date_time: '2026-03-20T10:00:00Z' });
    const cases = await casesOf(db, s.patient);
    expect(cases.map((c) => c.status)).toEqual(['CLOSED', 'OPEN']);
    expect(cases[0]!.sources).toHaveLength(2);
    expect(cases[1]!.sources).toMatchObject([{ kind: 'SCAN', sourceId: later }]);
  });

  it('writes the case’s webhook delivery (null → OPEN) when the organization’s webhook is on', async () => {
    const s = await withPatient({ webhookSwitch: true, webhookUrl: 'https://hooks.example.com/sc' });
    await uploadScan(s);
    const [kase] = await casesOf(db, s.patient);
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.followUpCaseId, kase!.id));
    expect(rows).toMatchObject([
      {
        event: FOLLOW_UP_WEBHOOK_EVENT,
        organizationId: s.org.id,
        url: 'https://hooks.example.com/sc',
        payload: { case: kase!.id, patient: s.patient, from_status: null, to_status: 'OPEN', modalities: ['BREAST'] },
      },
    ]);
    const quiet = await withPatient();
    await uploadScan(quiet);
    const [other] = await casesOf(db, quiet.patient);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.followUpCaseId, other!.id))).toEqual([]);
  });
});

describe('an ORCA exam uploaded by a device', () => {
  it('opens a case when a finding has a symptom, joins the breast case of the same patient, and not otherwise', async () => {
    const s = await withPatient();
    await grantLicence(db, s.org.id, 'ORCA');
    const negative = await postOrca(t, s.token, await orcaBody(t, s, []));
    expect(negative.statusCode, negative.body).toBe(201);
    expect(await casesOf(db, s.patient)).toEqual([]);
    const res = await postOrca(t, s.token, await orcaBody(t, s));
    expect(res.statusCode, res.body).toBe(201);
    const examId = res.json<{ id: number }>().id;
    let [kase] = await casesOf(db, s.patient);
    expect(kase).toMatchObject({ modalities: ['ORAL'], sources: [{ kind: 'ORCA', sourceId: examId }] });
    await uploadScan(s, { date_time: '2026-02-27T10:00:00Z' });
    [kase] = await casesOf(db, s.patient);
    expect(kase).toMatchObject({ modalities: ['ORAL', 'BREAST'], openedAt: new Date('2026-02-27T10:00:00Z'), nextDue: '2026-03-06' });
  });
});

describe('a cervical exam’s final read', () => {
  const reviewers = async (org: number) => {
    const make = async () => {
      const user = await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: null });
      return { user, token: await signIn(t, user) };
    };
    const admin = await createUser(t, { userType: 'ADMIN', organizationId: null });
    const seeded = await seedExam(db, { organizationId: org, documents: ['IMAGE'] });
    const [quality] = await db.select().from(cervicalQualities).where(eq(cervicalQualities.isRequired, true));
    const [finding] = await db.select().from(cervicalClinicalFindings).limit(1);
    const review = (token: string, status: 'VALID' | 'IN_VALID', withFinding: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/cervaical/document-user/',
        headers: auth(token),
        payload: {
          document: seeded.documentIds[0],
          review_status: status,
          qualities: [{ quality: quality!.id, answer: true }],
          clinical_finding: withFinding ? [{ clinical_finding: finding!.id, answer: true }] : [],
        },
      });
    return { one: await make(), two: await make(), adminToken: await signIn(t, admin), seeded, review, finding: finding! };
  };

  it('opens a case when both reviewers agree and one answered yes to a finding, not before', async () => {
    const org = await createOrganization(t);
    const r = await reviewers(org.id);
    expect((await r.review(r.one.token, 'VALID', true)).statusCode).toBe(201);
    expect(await casesOf(db, r.seeded.patientId)).toEqual([]);
    expect((await r.review(r.two.token, 'VALID', false)).statusCode).toBe(201);
    const [kase, ...more] = await casesOf(db, r.seeded.patientId);
    expect(more).toEqual([]);
    expect(kase).toMatchObject({ organizationId: org.id, modalities: ['CERVICAL'], sources: [{ kind: 'CERVICAL', sourceId: r.seeded.id }] });
  });

  it('opens nothing when the reviewers agree without a finding', async () => {
    const org = await createOrganization(t);
    const r = await reviewers(org.id);
    await r.review(r.one.token, 'VALID', false);
    await r.review(r.two.token, 'VALID', false);
    expect(await casesOf(db, r.seeded.patientId)).toEqual([]);
  });

  it('opens the case at the ADMIN’s final read of a disagreement, and a review saved again changes nothing', async () => {
    const org = await createOrganization(t);
    const r = await reviewers(org.id);
    await r.review(r.one.token, 'VALID', true);
    const second = await r.review(r.two.token, 'IN_VALID', false);
    expect(await casesOf(db, r.seeded.patientId)).toEqual([]);
    // The final read agrees with the reviewer who saw nothing: not positive.
    const call = (finalStatus: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/cervaical/${r.seeded.id}/adjudication/`,
        headers: auth(r.adminToken),
        payload: { final_status: finalStatus },
      });
    expect((await call('IN_VALID')).statusCode).toBe(200);
    expect(await casesOf(db, r.seeded.patientId)).toEqual([]);
    expect((await call('VALID')).statusCode).toBe(200);
    const opened = await casesOf(db, r.seeded.patientId);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.sources).toHaveLength(1);
    const reviewId = second.json<{ id: number }>().id;
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/cervaical/document-user/${reviewId}/`,
      headers: auth(r.adminToken),
      payload: { document: r.seeded.documentIds[0], review_status: 'IN_VALID', qualities: [], clinical_finding: [] },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await casesOf(db, r.seeded.patientId)).toEqual(opened);
  });
});

describe('a transferred patient', () => {
  it('takes their cases along; an active one gets a TRANSFERRED entry and its due date in the new zone', async () => {
    const s = await withPatient({ timezone: 'Asia/Kolkata' });
    await uploadScan(s, { date_time: '2026-02-01T10:00:00Z' });
    const [closed] = await casesOf(db, s.patient);
    await db.update(followUpCases).set({ status: 'DECLINED', nextDue: null, dueAt: null }).where(eq(followUpCases.id, closed!.id));
    // Kolkata: 2 March; New York: still 1 March.
    await uploadScan(s, { date_time: '2026-03-01T20:00:00Z' });
    expect((await casesOf(db, s.patient))[1]).toMatchObject({ nextDue: '2026-03-09' });

    const to = await createOrganization(t, { timezone: 'America/New_York' });
    await db.insert(followUpSettings).values({ organizationId: to.id, contactDays: 3, referralDays: 14, seenDays: 30, outcomeDays: 30 });
    const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: to.id });
    const admin = await createUser(t, { userType: 'ADMIN', organizationId: null });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/patient/transfer/${s.patient}/`,
      headers: auth(await signIn(t, admin)),
      payload: { organization_id: to.id, technician_id: technician.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [declined, active] = await casesOf(db, s.patient);
    expect(declined).toMatchObject({ organizationId: to.id, status: 'DECLINED', nextDue: null });
    expect(declined!.entries.map((e) => e.kind)).toEqual(['OPENED']);
    // 1 March in New York + 3 days; overdue from the start of 5 March there (EST, UTC−5).
    expect(active).toMatchObject({ organizationId: to.id, status: 'OPEN', nextDue: '2026-03-04', dueAt: new Date('2026-03-05T05:00:00Z') });
    expect(active!.entries.map((e) => e.kind)).toEqual(['OPENED', 'TRANSFERRED']);
    expect(active!.entries[1]).toMatchObject({ actorId: admin.id, data: { from: s.org.id, to: to.id } });
  });
});
