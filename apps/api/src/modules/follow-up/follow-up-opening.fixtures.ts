// Follow-up cases for tests: the cases, sources and timeline of a patient as stored, and the ORCA and cervical
// device uploads' bodies with a licence to take.
import { asc, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { TOrcaUploadInput } from '@sc/shared/exam-uploads';
import type { Db } from '../../db/client.ts';
import { followUpCaseSources, followUpCases, followUpEntries, licences } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/app.ts';
import { auth } from '../../test/factories.ts';
import { API, PNG, newKey, uploadFile, type UploadSetup } from '../uploads/uploads.fixtures.ts';

let seq = 0;

/** A patient's cases (oldest first), each with its sources and timeline. */
export async function casesOf(db: Db, patientId: number) {
  const cases = await db
    .select()
    .from(followUpCases)
    .where(eq(followUpCases.patientId, patientId))
    .orderBy(asc(followUpCases.id));
  const ids = cases.map((c) => c.id);
  const sources = ids.length
    ? await db.select().from(followUpCaseSources).where(inArray(followUpCaseSources.caseId, ids)).orderBy(asc(followUpCaseSources.id))
    : [];
  const entries = ids.length
    ? await db.select().from(followUpEntries).where(inArray(followUpEntries.caseId, ids)).orderBy(asc(followUpEntries.id))
    : [];
  return cases.map((c) => ({
    ...c,
    sources: sources.filter((s) => s.caseId === c.id),
    entries: entries.filter((e) => e.caseId === c.id),
  }));
}

export async function grantLicence(db: Db, organizationId: number, application: 'ORCA' | 'CERVAICAL', available = 50) {
  const [row] = await db
    .insert(licences)
    .values({
      organizationId,
      application,
      licenseCode: `FU-${application}-${process.pid}-${++seq}`,
      pin: '123456',
      count: available,
      totalLicenseCount: Math.max(available, 100),
    })
    .returning();
  return row!;
}

/** An ORCA exam body: one finding with a symptom unless `symptoms` says otherwise. */
export async function orcaBody(
  t: TestContext,
  s: UploadSetup & { patient: number },
  symptoms: string[] = ['White patch'],
  overrides: Partial<TOrcaUploadInput> = {},
): Promise<TOrcaUploadInput> {
  const report = await uploadFile(t, s.token, 'reports');
  const photo = await uploadFile(t, s.token, 'documents', { name: 'buccal.png', data: PNG });
  return {
    patient: s.patient,
    device_serial_number: s.device.serialNumber,
    local_db_id: `fu-o-${process.pid}-${++seq}`,
    date_time: '2026-03-01T10:00:00Z',
    file_path: { reports: [{ path: report }], consent_form: [] },
    findings: [{ exam: 'intra_oral_exam', part: 'Buccal mucosa', index: 1, symptoms, path: photo }],
    ...overrides,
  };
}

export function postOrca(t: TestContext, token: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `${API}/orca/`,
    headers: { ...auth(token), 'idempotency-key': newKey() },
    payload: body as Record<string, unknown>,
  });
}
