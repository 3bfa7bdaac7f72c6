// The trash (issue 27): a patient or duplicate scan deleted goes to the trash with every row of it, is listed in
// its area's trash view for the roles that may delete there (within their scope), comes back with the same ids on
// restore, is refused a restore that can no longer be put back, and is purged after the retention with its files.
import { and, eq } from 'drizzle-orm';
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
  users,
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
    const list = await call(admin.token, 'GET', '/trash/patients/');
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
    // A role with a trash, but not this area's: 404, as an entry it cannot see.
    const sub = await tokenFor('SUB_ADMIN');
    expect((await call(sub.token, 'POST', `/trash/${entry.id}/restore/`)).statusCode).toBe(404);
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

describe('duplicate scan delete → trash', () => {
  it('lists a deleted duplicate to ADMIN and SUB_ADMIN only, and restores it under its parent', async () => {
    const org = await createOrganization(t);
    const sub = await tokenFor('SUB_ADMIN');
    const orgAdmin = await tokenFor('ORG_ADMIN', org.id);
    const { parent, duplicate } = await patientWithExams(org);
    expect((await call(sub.token, 'DELETE', `/scan/${duplicate.id}/`)).statusCode).toBe(200);
    expect(await db.select().from(scans).where(eq(scans.id, duplicate.id))).toEqual([]);
    const list = await call(sub.token, 'GET', '/trash/scans/');
    expect(list.statusCode, list.body).toBe(200);
    const entry = (list.json() as TTrashList).results.find((e) => e.target_id === duplicate.id)!;
    expect(entry).toMatchObject({ target_type: 'scan', organization_id: org.id, counts: { scans: 1 } });
    expect(entry.label).toContain(String(parent.id));
    // The areas a role may not delete in: 403; a bad area: 400 on the field.
    expect((await call(orgAdmin.token, 'GET', '/trash/scans/')).statusCode).toBe(403);
    expect((await call(sub.token, 'GET', '/trash/patients/')).statusCode).toBe(403);
    // An area that is not one names nothing; a search finds by label.
    expect((await call(sub.token, 'GET', '/trash/nothing/')).statusCode).toBe(404);
    const found = (await call(sub.token, 'GET', `/trash/scans/?search=${parent.id}`)).json() as TTrashList;
    expect(found.results.map((e) => e.id)).toContain(entry.id);
    expect(((await call(sub.token, 'GET', '/trash/scans/?search=zzzz-none')).json() as TTrashList).count).toBe(0);
    // A role without a trash: 403.
    expect((await call(orgAdmin.token, 'POST', `/trash/${entry.id}/restore/`)).statusCode).toBe(403);
    expect((await call(sub.token, 'POST', `/trash/${entry.id}/restore/`)).statusCode).toBe(200);
    const [back] = await db.select().from(scans).where(eq(scans.id, duplicate.id));
    expect(back).toMatchObject({ parentScanId: parent.id, localDbId: duplicate.localDbId });
    const audit = await db.select().from(auditLog).where(eq(auditLog.targetId, String(duplicate.id)));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['scan.duplicate_deleted', 'scan.restored']));
  });

  it('refuses a restore whose parent scan is gone meanwhile, and changes nothing', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const { parent, duplicate } = await patientWithExams(org);
    expect((await call(admin.token, 'DELETE', `/scan/${duplicate.id}/`)).statusCode).toBe(200);
    await db.delete(scans).where(eq(scans.id, parent.id));
    const before = await countRows();
    const entry = (await db.select().from(trashEntries).where(and(eq(trashEntries.targetType, 'scan'), eq(trashEntries.targetId, duplicate.id))))[0]!;
    const res = await call(admin.token, 'POST', `/trash/${entry.id}/restore/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [TRASH_MESSAGES.referenceGone('parent scan')] });
    expect(await countRows()).toEqual(before);
    expect(await db.select().from(trashEntries).where(eq(trashEntries.id, entry.id))).toHaveLength(1);
  });
});

describe('restore refused', () => {
  it('when the organization is gone: 400 with the reason, the entry stays', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const { patient } = await patientWithExams(org);
    expect((await call(admin.token, 'DELETE', `/patient/${patient.id}/`)).statusCode).toBe(200);
    await db.delete(organizations).where(eq(organizations.id, org.id));
    const entry = (await db.select().from(trashEntries).where(and(eq(trashEntries.targetType, 'patient'), eq(trashEntries.targetId, patient.id))))[0]!;
    const before = await countRows();
    const res = await call(admin.token, 'POST', `/trash/${entry.id}/restore/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [TRASH_MESSAGES.organizationGone] });
    expect(await countRows()).toEqual(before);
    expect(await db.select().from(trashEntries).where(eq(trashEntries.id, entry.id))).toHaveLength(1);
  });

  it('when a unique value it holds is taken meanwhile (the device uploads the same scan again)', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const { patient, parent } = await patientWithExams(org);
    expect((await call(admin.token, 'DELETE', `/patient/${patient.id}/`)).statusCode).toBe(200);
    const other = await patientWithExams(org);
    await db.insert(scans).values({
      patientId: other.patient.id,
      organizationId: org.id,
      dateTime: new Date('2026-01-07T10:00:00Z'),
      deviceSerialNumber: parent.deviceSerialNumber,
      localDbId: parent.localDbId,
    });
    const before = await countRows();
    const entry = (await db.select().from(trashEntries).where(and(eq(trashEntries.targetType, 'patient'), eq(trashEntries.targetId, patient.id))))[0]!;
    const res = await call(admin.token, 'POST', `/trash/${entry.id}/restore/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      non_field_errors: [TRASH_MESSAGES.valueTaken('its device serial number, local db id')],
    });
    expect(await countRows()).toEqual(before);
  });
});

describe('purge', () => {
  it('deletes entries past the retention with their files, audited; younger ones stay', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const old = await patientWithExams(org);
    const reportKey = (old.parent.scanFilesPath as { reports: Array<{ path: string }> }).reports[0]!.path;
    await t.app.ctx.services.storage.put(reportKey, Buffer.from('%PDF'), 'application/pdf');
    expect((await call(admin.token, 'DELETE', `/patient/${old.patient.id}/`)).statusCode).toBe(200);
    // Files stay until the purge.
    expect(await t.app.ctx.services.storage.get(reportKey)).not.toBeNull();
    t.clock.advance((TRASH_RETENTION_DAYS - 1) * 86_400_000);
    const young = await patientWithExams(org);
    const later = await tokenFor('ADMIN');
    expect((await call(later.token, 'DELETE', `/patient/${young.patient.id}/`)).statusCode).toBe(200);
    expect(await purgeTrash(t.app.ctx)).toBe(0);
    t.clock.advance(86_400_000 + 1000);
    const ids = async () =>
      (await db.select().from(trashEntries)).map((e) => e.targetId).filter((id) => [old.patient.id, young.patient.id].includes(id));
    expect(await purgeTrash(t.app.ctx)).toBeGreaterThanOrEqual(1);
    expect(await ids()).toEqual([young.patient.id]);
    expect(await t.app.ctx.services.storage.get(reportKey)).toBeNull();
    const [purged] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'patient.purged'), eq(auditLog.targetId, String(old.patient.id))));
    expect(purged).toMatchObject({ organizationId: org.id, outcome: 'success' });
    expect(purged!.changes).toEqual(
      expect.arrayContaining([{ field: 'first_name', before: 'Tara', after: null }]),
    );
  });
});

describe('users', () => {
  it('a deleted account is listed to ADMIN and comes back as it was; a taken e-mail refuses the restore', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const me = await tokenFor('TECHNICIAN', org.id);
    const [was] = await db.select().from(users).where(eq(users.id, me.user.id));
    expect((await call(me.token, 'DELETE', '/user/delete/me/')).statusCode).toBe(204);
    const [gone] = await db.select().from(users).where(eq(users.id, me.user.id));
    expect(gone).toMatchObject({ firstName: 'Deleted', email: null, isValid: false });
    expect(gone!.deletedAt).not.toBeNull();
    // Only ADMIN has the users' trash.
    const orgAdmin = await tokenFor('ORG_ADMIN', org.id);
    expect((await call(orgAdmin.token, 'GET', '/trash/users/')).statusCode).toBe(403);
    const list = (await call(admin.token, 'GET', '/trash/users/')).json() as TTrashList;
    const entry = list.results.find((e) => e.target_id === me.user.id)!;
    expect(entry).toMatchObject({ target_type: 'user', label: `${was!.firstName} ${was!.lastName}`, organization_id: org.id });
    // Someone takes the e-mail meanwhile: refused, nothing changes; freed again: restored.
    const taker = await createUser(t, { email: was!.email });
    const refused = await call(admin.token, 'POST', `/trash/${entry.id}/restore/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ non_field_errors: [TRASH_MESSAGES.valueTaken('its email')] });
    expect((await db.select().from(users).where(eq(users.id, me.user.id)))[0]).toMatchObject({ email: null });
    await db.update(users).set({ email: null }).where(eq(users.id, taker.id));
    const res = await call(admin.token, 'POST', `/trash/${entry.id}/restore/`);
    expect(res.statusCode, res.body).toBe(200);
    const [back] = await db.select().from(users).where(eq(users.id, me.user.id));
    expect(back).toEqual(was);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.restored'), eq(auditLog.targetId, String(me.user.id))));
    expect(audit).toMatchObject({ organizationId: org.id, actorId: admin.user.id });
    // The password's hash is never written in the trail.
    expect(JSON.stringify(audit!.changes)).not.toContain(String(was!.passwordHash));
  });
});

describe('single exams', () => {
  it('an ADMIN deletes one cervical or ORCA exam to the exams’ trash and restores it; other roles 403', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const sub = await tokenFor('SUB_ADMIN');
    await patientWithExams(org);
    const [cervical] = await db.select().from(cervicalExams).where(eq(cervicalExams.organizationId, org.id));
    const [orca] = await db.select().from(orcaExams).where(eq(orcaExams.organizationId, org.id));
    expect((await call(sub.token, 'DELETE', `/cervaical/${cervical!.id}/`)).statusCode).toBe(403);
    expect((await call(admin.token, 'DELETE', '/orca/999999/')).statusCode).toBe(404);
    const before = await countRows();
    for (const [url, id] of [[`/cervaical/${cervical!.id}/`, cervical!.id], [`/orca/${orca!.id}/`, orca!.id]] as const) {
      const res = await call(admin.token, 'DELETE', url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ detail: TRASH_MESSAGES.examDeleted, id });
    }
    expect(await countRows()).toEqual({ ...before, cervical: before.cervical - 1, orca: before.orca - 1 });
    const list = (await call(admin.token, 'GET', '/trash/exams/')).json() as TTrashList;
    const mine = list.results.filter((e) => e.organization_id === org.id);
    expect(mine.map((e) => e.target_type)).toEqual(['orca_exam', 'cervical_exam']);
    for (const e of mine) expect((await call(admin.token, 'POST', `/trash/${e.id}/restore/`)).statusCode).toBe(200);
    expect(await countRows()).toEqual(before);
    const actions = (await db.select().from(auditLog).where(eq(auditLog.organizationId, org.id))).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(['cervical.exam.deleted', 'orca.exam.deleted', 'cervical.exam.restored', 'orca.exam.restored']),
    );
  });
});
