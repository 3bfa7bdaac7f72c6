// Demo cervical files built on first read through `GET file/?path=`: a JPEG photo, a real MP4 video, the report and
// consent PDFs; only for callers whose scope holds the exam, and only for paths an exam lists.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cervicalDocuments, cervicalExams, files } from '../../db/schema/index.ts';
import { readPdfText } from '../../services/pdf/pdf-text.testing.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { seedExam, type SeededExam } from './cervical.fixtures.ts';

const t = await setupTestApp();
const { db } = t.database;
let exam: SeededExam;
let reviewer = '';
let outsider = '';
const paths: Record<string, string> = {};

const read = (path: string, token: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/file/?path=${encodeURIComponent(path)}`, headers: auth(token) });

beforeAll(async () => {
  const clinic = await createOrganization(t, { name: 'Media Clinic' });
  const other = await createOrganization(t, { name: 'Other Clinic' });
  reviewer = await signIn(t, await createUser(t, { userType: 'CERVAICAL_REVIEWER' }));
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
