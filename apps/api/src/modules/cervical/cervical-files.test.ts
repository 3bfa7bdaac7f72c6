// Demo cervical files built on first read through `GET file/?path=`: a JPEG photo, a real MP4 video, the report and
// consent PDFs; only for callers whose scope holds the exam, and only for paths an exam lists. The report is built for
// each read, from the exam's current reviews, through the detail's blinding.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cervicalDocuments, cervicalExams, files } from '../../db/schema/index.ts';
import { readPdfText } from '../../services/pdf/pdf-text.testing.ts';
import { setupTestApp } from '../../test/app.ts';
import type { TCervicalDetail } from '@sc/shared/cervical';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { seedExam, type SeededExam } from './cervical.fixtures.ts';

const t = await setupTestApp();
const { db } = t.database;
let exam: SeededExam;
let reviewer = '';
let outsider = '';
let reviewerTwo = '';
let clinicId = 0;
const paths: Record<string, string> = {};

const read = (path: string, token: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/file/?path=${encodeURIComponent(path)}`, headers: auth(token) });

beforeAll(async () => {
  const clinic = await createOrganization(t, { name: 'Media Clinic' });
  clinicId = clinic.id;
  const other = await createOrganization(t, { name: 'Other Clinic' });
  reviewer = await signIn(t, await createUser(t, { userType: 'CERVAICAL_REVIEWER' }));
  reviewerTwo = await signIn(t, await createUser(t, { userType: 'CERVAICAL_REVIEWER' }));
  outsider = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: other.id }));
  exam = await seedExam(db, {
    organizationId: clinic.id,
    patient: { firstName: 'Kavya', lastName: 'Reddy', age: 38 },
    documents: ['IMAGE', 'VIDEO'],
  });
  const docs = await db.select().from(cervicalDocuments).where(eq(cervicalDocuments.examId, exam.id));
  paths.photo = docs.find((d) => d.documentType === 'IMAGE')!.path;
  paths.video = docs.find((d) => d.documentType === 'VIDEO')!.path;
  paths.report = `reports/cervical/cervical_${exam.id}.pdf`;
  paths.consent = `reports/cervical/consent_${exam.id}.pdf`;
  await db
    .update(cervicalExams)
    .set({ filePath: { reports: [{ path: paths.report }], consent_form: [{ path: paths.consent }] } })
    .where(eq(cervicalExams.id, exam.id));
});

describe('demo cervical files', () => {
  it('builds a JPEG photo for a reviewer on every read, storing nothing', async () => {
    const res = await read(paths.photo!, reviewer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/jpeg');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect((await read(paths.photo!, reviewer)).rawPayload).toEqual(res.rawPayload);
    expect(await db.select().from(files).where(eq(files.path, paths.photo!))).toEqual([]);
  });

  it('builds a real MP4 video', async () => {
    const res = await read(paths.video!, reviewer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('video/mp4');
    expect(res.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(res.rawPayload.includes(Buffer.from('avc1'))).toBe(true);
  });

  it('builds the report and the consent form as PDFs', async () => {
    const report = await read(paths.report!, reviewer);
    expect(report.statusCode).toBe(200);
    const text = (await readPdfText(report.rawPayload)).pages.join('\n');
    expect(text).toContain('Cervical exam report');
    expect(text).toContain('Kavya Reddy');
    const consent = (await readPdfText((await read(paths.consent!, reviewer)).rawPayload)).pages.join('\n');
    expect(consent).toContain('cervical screening examination');
  });

  it('answers 404 out of scope and for paths no exam lists', async () => {
    expect((await read(paths.report!, outsider)).statusCode).toBe(404);
    expect((await read(`reports/cervical/cervical_${exam.id + 999}.pdf`, reviewer)).statusCode).toBe(404);
    expect((await read(`documents/cervical/${exam.id}/nothing.jpg`, reviewer)).statusCode).toBe(404);
    expect((await read(paths.photo!.replace('.jpg', '.mp4'), reviewer)).statusCode).toBe(404);
  });
});

describe('the cervical exam report', () => {
  const listedExam = async () => {
    const seeded = await seedExam(db, { organizationId: clinicId, documents: ['IMAGE'] });
    const path = `reports/cervical/cervical_${seeded.id}.pdf`;
    await db.update(cervicalExams).set({ filePath: { reports: [{ path }] } }).where(eq(cervicalExams.id, seeded.id));
    return { ...seeded, path };
  };
  const reportText = async (path: string, token: string) => {
    const res = await read(path, token);
    expect(res.statusCode, res.body).toBe(200);
    return (await readPdfText(res.rawPayload)).pages.join('\n');
  };
  const reviewAll = async (token: string, seeded: SeededExam, status: 'VALID' | 'IN_VALID') => {
    for (const document of seeded.documentIds) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cervaical/document-user/',
        headers: auth(token),
        payload: {
          document,
          review_status: status,
          qualities: [{ quality: 1, answer: true }],
          clinical_finding: [],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  };

  it("hides reviewer 1's result from reviewer 2 before their own read, as the exam's detail does", async () => {
    const seeded = await listedExam();
    await reviewAll(reviewer, seeded, 'IN_VALID');
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/cervaical/${seeded.id}/`,
      headers: auth(reviewerTwo),
    });
    expect(detail.json<TCervicalDetail>().reviewer_one_status).toBeNull();
    const text = await reportText(seeded.path, reviewerTwo);
    expect(text).toMatch(/Reviewer 1\s+Hidden/);
    expect(text).not.toContain('Invalid');
    expect(await reportText(seeded.path, reviewer)).toMatch(/Reviewer 1\s+Invalid/);
  });

  it('shows the reviews as they are when read, not as they were at the first download', async () => {
    const seeded = await listedExam();
    expect(await reportText(seeded.path, reviewer)).toMatch(/Reviewer 1\s+Not Reviewed/);
    await reviewAll(reviewer, seeded, 'VALID');
    expect(await reportText(seeded.path, reviewer)).toMatch(/Reviewer 1\s+Valid/);
    // Nor from the browser's cache: what a reader may see changes with the reviews.
    expect((await read(seeded.path, reviewer)).headers['cache-control']).toMatch(/\bno-store\b/);
  });
});
