// The trash (issue 27): a patient or duplicate scan deleted goes to the trash with every row of it, is listed in
// its area's trash view for the roles that may delete there (within their scope), comes back with the same ids on
// restore, is refused a restore that can no longer be put back, and is purged after the retention with its files.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { TRASH_MESSAGES, TRASH_RETENTION_DAYS, type TTrashList } from '@sc/shared/trash';
import {
  auditLog,
  cervicalExams,
  orcaExams,
  organizations,
  patients,
  scans,
  trashEntries,
} from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow } from '../../test/factories.ts';
import { purgeTrash } from './trash.service.ts';

const t = await setupTestApp();
const { db } = t.database;
const API = '/api/v1';

const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string) =>
  t.app.inject({ method, url: `${API}${url}`, headers: { ...auth(token), timezone: 'UTC' } });

async function tokenFor(userType: TUserType, organizationId: number | null = null) {
  const user = await createUser(t, { userType, organizationId });
  return { user, token: await signIn(t, user) };
}

async function patientWithExams(org: OrganizationRow) {
  const [p] = await db
    .insert(patients)
    .values({ firstName: 'Tara', lastName: `Sh${Math.random().toString(36).slice(2, 7)}`, age: 44, organizationId: org.id })
    .returning();
  const scan = async (parentScanId: number | null = null) =>
    (
      await db
        .insert(scans)
        .values({
          patientId: p!.id,
          organizationId: org.id,
          parentScanId,
          dateTime: new Date('2026-01-05T10:00:00Z'),
          deviceSerialNumber: 'IBE-T-1',
          localDbId: `l-${Math.random()}`,
          scanFilesPath: { reports: [{ path: `reports/r-${Math.random()}.pdf` }] } as never,
        })
        .returning()
    )[0]!;
  const parent = await scan();
  const duplicate = await scan(parent.id);
  await db.insert(cervicalExams).values({ patientId: p!.id, organizationId: org.id, dateTime: new Date('2026-01-06T10:00:00Z') } as never);
  await db.insert(orcaExams).values({ patientId: p!.id, organizationId: org.id, dateTime: new Date('2026-01-06T10:00:00Z') } as never);
  return { patient: p!, parent, duplicate };
}

const countRows = async () => ({
  patients: (await db.select().from(patients)).length,
  scans: (await db.select().from(scans)).length,
  cervical: (await db.select().from(cervicalExams)).length,
  orca: (await db.select().from(orcaExams)).length,
});

describe('patient delete → trash → restore', () => {
  it('moves the patient and its scans and exams to the trash, lists it, and restores them with the same ids', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const { patient, parent, duplicate } = await patientWithExams(org);
    const before = await countRows();
    const del = await call(admin.token, 'DELETE', `/patient/${patient.id}/`);
    expect(del.statusCode, del.body).toBe(200);
    expect(await countRows()).toEqual({
      patients: before.patients - 1,
      scans: before.scans - 2,
      cervical: before.cervical - 1,
      orca: before.orca - 1,
    });
    const list = await call(admin.token, 'GET', '/trash/?area=patients');
    expect(list.statusCode, list.body).toBe(200);
    const entry = (list.json() as TTrashList).results.find((e) => e.target_id === patient.id)!;
    expect(entry).toMatchObject({
      target_type: 'patient',
      label: `Tara ${patient.lastName}`,
      organization_id: org.id,
      deleted_by: { id: admin.user.id },
      counts: { patients: 1, scans: 2, cervical_exams: 1, orca_exams: 1 },
    });
    expect(new Date(entry.purge_after).getTime() - new Date(entry.deleted_at).getTime()).toBe(
      TRASH_RETENTION_DAYS * 86_400_000,
    );
    const restored = await call(admin.token, 'POST', `/trash/${entry.id}/restore/`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual({ detail: TRASH_MESSAGES.restored, target_type: 'patient', target_id: patient.id });
    expect(await countRows()).toEqual(before);
    const [back] = await db.select().from(scans).where(eq(scans.id, duplicate.id));
    expect(back?.parentScanId).toBe(parent.id);
    expect(await db.select().from(trashEntries).where(eq(trashEntries.id, entry.id))).toEqual([]);
    const audit = await db.select().from(auditLog).where(eq(auditLog.targetId, String(patient.id)));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['patient.deleted', 'patient.restored']));
    for (const a of audit.filter((x) => x.action === 'patient.deleted' || x.action === 'patient.restored')) {
      expect(a.organizationId).toBe(org.id);
      expect(a.changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'first_name' })]));
    }
    // A second restore of the same entry: it is gone.
    expect((await call(admin.token, 'POST', `/trash/${entry.id}/restore/`)).statusCode).toBe(404);
  });
});
