// The console's patients (issue 8; part 2 §2.5, §2.6, §5, §6, §7): the list with each filter and the scope of each
// role, one patient, create with every §5 message, edit (the technician rule), delete (ADMIN; exams go with it),
// the transfer's role rules (exams move with it) and the transfer dialog's reports.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invalidPk } from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import {
  PATIENT_MESSAGES,
  ageOn,
  earliestBirthDate,
  latestBirthDate,
  minusYears,
  todayIso,
  type TPatient,
  type TPatientReports,
} from '@sc/shared/patients';
import type { TUserType } from '@sc/shared/roles';
import { MESSAGES } from '@sc/shared/validation';
import { auditLog, cervicalExams, orcaExams, patients, references, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow } from '../../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;
const API = '/api/v1';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url: `${API}${url}`, headers: { ...auth(token), timezone: 'UTC' }, ...(payload === undefined ? {} : { payload: payload as object }) });

async function tokenFor(userType: TUserType, opts: { organizationId?: number | null; linkedOrganizationIds?: number[] } = {}) {
  const user = await createUser(t, { userType, ...opts });
  return { user, token: await signIn(t, user) };
}

async function insertPatient(org: OrganizationRow | null, values: Partial<typeof patients.$inferInsert> = {}) {
  const [row] = await db
    .insert(patients)
    .values({ firstName: 'Pat', lastName: `Ient${Math.random().toString(36).slice(2, 7)}`, age: 40, organizationId: org?.id ?? null, ...values })
    .returning();
  return row!;
}

async function insertScan(patientId: number, org: OrganizationRow, technicianId: number | null, at = new Date('2026-01-05T10:00:00Z')) {
  const [row] = await db
    .insert(scans)
    .values({ patientId, organizationId: org.id, technicianId, dateTime: at, deviceSerialNumber: 'IBE-P-1', localDbId: `l-${Math.random()}` })
    .returning();
  return row!;
}

/** A world: a distributor with a child clinic, a sibling clinic outside it, and one patient in each. */
async function world() {
  const distributor = await createOrganization(t, { canCreateOrganization: true });
  const child = await createOrganization(t, { parentId: distributor.id });
  const other = await createOrganization(t);
  const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: child.id });
  const pDist = await insertPatient(distributor, { firstName: 'Dora' });
  const pChild = await insertPatient(child, { firstName: 'Chitra', technicianId: tech.id });
  const pOther = await insertPatient(other, { firstName: 'Olga' });
  return { distributor, child, other, tech, pDist, pChild, pOther };
}

const ids = (res: { json: () => TPaginated<TPatient> }) => res.json().results.map((p) => p.id);

describe('GET patient/: roles and scope', () => {
  it('answers 401 without a token and 403 to TECHNICIAN and CERVAICAL_REVIEWER', async () => {
    expect((await t.app.inject({ method: 'GET', url: `${API}/patient/` })).statusCode).toBe(401);
    for (const type of ['TECHNICIAN', 'CERVAICAL_REVIEWER'] as const) {
      const { token } = await tokenFor(type, { organizationId: (await createOrganization(t)).id });
      expect((await call(token, 'GET', '/patient/')).statusCode, type).toBe(403);
    }
  });

  it('keeps each role to its organizations (architecture §6) and answers 404 for a patient outside them', async () => {
    const w = await world();
    const unassigned = await insertPatient(null, { firstName: 'Una' });
    const admin = await tokenFor('ADMIN');
    const adminIds = ids(await call(admin.token, 'GET', '/patient/?limit=1000'));
    expect(adminIds).toEqual(expect.arrayContaining([w.pDist.id, w.pChild.id, w.pOther.id, unassigned.id]));

    const distAdmin = await tokenFor('DISTRIBUTOR_ADMIN', { organizationId: w.distributor.id });
    expect(ids(await call(distAdmin.token, 'GET', '/patient/?limit=1000')).sort()).toEqual([w.pDist.id, w.pChild.id].sort());

    const manager = await tokenFor('MANAGER', { linkedOrganizationIds: [w.child.id] });
    expect(ids(await call(manager.token, 'GET', '/patient/?limit=1000'))).toEqual([w.pChild.id]);

    const orgAdmin = await tokenFor('ORG_ADMIN', { organizationId: w.distributor.id });
    expect(ids(await call(orgAdmin.token, 'GET', '/patient/?limit=1000'))).toEqual([w.pDist.id]);

    expect((await call(orgAdmin.token, 'GET', `/patient/${w.pChild.id}/`)).statusCode).toBe(404);
    expect((await call(distAdmin.token, 'GET', `/patient/${w.pOther.id}/`)).statusCode).toBe(404);
    expect((await call(distAdmin.token, 'GET', `/patient/${unassigned.id}/`)).statusCode).toBe(404);
    const got = await call(distAdmin.token, 'GET', `/patient/${w.pChild.id}/`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: w.pChild.id, organization_data: { id: w.child.id }, technician_data: { id: w.tech.id } });
    expect((await call(admin.token, 'GET', '/patient/abc/')).statusCode).toBe(404);
  });
});

describe('GET patient/: filters', () => {
  it('filters by name search, gender, organization, technician, assigned and period, and orders', async () => {
    const org = await createOrganization(t);
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
    const marker = `Zq${Date.now().toString(36)}`;
    const a = await insertPatient(org, { firstName: marker, lastName: 'Alpha', gender: 'FEMALE', technicianId: tech.id, created: new Date() });
    const b = await insertPatient(org, { firstName: marker, lastName: 'Beta', gender: 'MALE', created: new Date(Date.now() - 60 * 86_400_000) });
    const c = await insertPatient(null, { firstName: marker, lastName: 'Gamma', gender: 'OTHER' });
    const { token } = await tokenFor('ADMIN');
    const q = (s: string) => call(token, 'GET', `/patient/?search=${marker}&${s}`);

    expect(ids(await q('ordering=last_name')).slice()).toEqual([a.id, b.id, c.id]);
    expect(ids(await q('ordering=-last_name'))).toEqual([c.id, b.id, a.id]);
    expect((await q('')).json().count).toBe(3);
    expect(ids(await call(token, 'GET', `/patient/?search=${marker.toLowerCase()}%20beta`))).toEqual([b.id]);
    expect(ids(await q('gender=MALE'))).toEqual([b.id]);
    expect(ids(await q(`organization_id=${org.id}&ordering=last_name`))).toEqual([a.id, b.id]);
    expect(ids(await q(`technician=${tech.id}`))).toEqual([a.id]);
    expect(ids(await q('is_organization_id=false'))).toEqual([c.id]);
    expect(ids(await q('is_organization_id=true&ordering=last_name'))).toEqual([a.id, b.id]);
    const today = todayIso();
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    expect(ids(await q(`created_after=${monthAgo}&created_before=${today}&ordering=last_name`))).toEqual([a.id, c.id]);
    expect(ids(await q('day=today&ordering=last_name'))).toEqual([a.id, c.id]);
    expect((await q('using_read_db=true')).json().count).toBe(3);

    for (const [param, field] of [
      ['gender=WOMAN', 'gender'],
      ['ordering=password', 'ordering'],
      ['created_after=2026-02-30', 'created_after'],
      ['is_organization_id=maybe', 'is_organization_id'],
      ['organization_id=0x10', 'organization_id'],
    ] as const) {
      const res = await q(param);
      expect(res.statusCode, param).toBe(400);
      expect(Object.keys(res.json()), param).toContain(field);
    }
  });
});

describe('POST patient/ from the console', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    first_name: 'Meera',
    last_name: 'Nair',
    date_of_birth: '1985-06-01',
    mobile: '9876543210',
    mobile_country_code: 'IN',
    email: 'meera@example.com',
    ...over,
  });

  it('creates a patient with the chosen organization and technician, computes the age and audits', async () => {
    const org = await createOrganization(t);
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
    const { token, user } = await tokenFor('ADMIN');
    const res = await call(token, 'POST', '/patient/', body({ organization: org.id, technician: tech.id }));
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json<TPatient & { detail: string }>();
    expect(p).toMatchObject({
      detail: PATIENT_MESSAGES.created,
      age: ageOn('1985-06-01', todayIso()),
      gender: 'FEMALE',
      mobile: '+91-9876543210',
      mobile_country_code: 'IN',
      organization: org.id,
      technician: tech.id,
      device_serial_number: null,
    });
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.targetId, String(p.id)), eq(auditLog.action, 'patient.created')));
    expect(audit).toMatchObject({ actorId: user.id, targetType: 'patient', details: { organization: org.id, technician: tech.id } });
    expect(JSON.stringify(audit?.details)).not.toMatch(/Meera|9876543210/);
  });

  it('gives each §5 message on its field and stores nothing', async () => {
    const org = await createOrganization(t);
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
    const orgAdminOfOther = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const disabled = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id, isValid: false });
    const elsewhere = await createUser(t, { userType: 'TECHNICIAN', organizationId: (await createOrganization(t)).id });
    const { token } = await tokenFor('ADMIN');
    const today = todayIso();
    const ok = { organization: org.id, technician: tech.id };
    const cases: [Record<string, unknown>, string, string][] = [
      [body({ technician: tech.id }), 'organization', PATIENT_MESSAGES.organizationRequired],
      [body({ organization: org.id }), 'technician', PATIENT_MESSAGES.technicianRequired],
      [body({ ...ok, first_name: '' }), 'first_name', MESSAGES.required],
      [body({ ...ok, last_name: '  ' }), 'last_name', MESSAGES.required],
      [body({ ...ok, date_of_birth: null }), 'age', PATIENT_MESSAGES.ageRequired],
      [body({ ...ok, date_of_birth: null, age: 11 }), 'age', PATIENT_MESSAGES.age],
      [body({ ...ok, date_of_birth: null, age: 121 }), 'age', PATIENT_MESSAGES.age],
      // Issue 23.4: the console keeps what was typed, so the API is what refuses it (never clamps it).
      [body({ ...ok, date_of_birth: null, age: -5 }), 'age', PATIENT_MESSAGES.age],
      [body({ ...ok, date_of_birth: null, age: 250 }), 'age', PATIENT_MESSAGES.age],
      [body({ ...ok, date_of_birth: `${Number(today.slice(0, 4)) + 1}-01-15` }), 'date_of_birth', PATIENT_MESSAGES.birthDate(earliestBirthDate(today), latestBirthDate(today))],
      [body({ ...ok, date_of_birth: minusYears(today, 11) }), 'date_of_birth', PATIENT_MESSAGES.birthDate(earliestBirthDate(today), latestBirthDate(today))],
      [body({ ...ok, date_of_birth: '1899-12-31' }), 'date_of_birth', PATIENT_MESSAGES.birthDate(earliestBirthDate(today), latestBirthDate(today))],
      [body({ ...ok, email: 'meera@example' }), 'email', MESSAGES.invalidEmail],
      [body({ ...ok, mobile: '12345' }), 'mobile', MESSAGES.invalidPhone],
      [body({ ...ok, gender: 'F' }), 'gender', PATIENT_MESSAGES.gender],
      [body({ ...ok, technician: orgAdminOfOther.id }), 'technician', invalidPk(orgAdminOfOther.id)],
      [body({ ...ok, technician: disabled.id }), 'technician', invalidPk(disabled.id)],
      [body({ ...ok, technician: elsewhere.id }), 'technician', invalidPk(elsewhere.id)],
      [body({ ...ok, organization: 2_000_000_000 }), 'organization', invalidPk(2_000_000_000)],
    ];
    const before = (await db.select({ id: patients.id }).from(patients)).length;
    for (const [payload, field, message] of cases) {
      const res = await call(token, 'POST', '/patient/', payload);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json()[field], field).toEqual([message]);
    }
    expect((await db.select({ id: patients.id }).from(patients)).length).toBe(before);
  });

  it('refuses a reference of another organization and takes an active one of its own', async () => {
    const org = await createOrganization(t);
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
    const [own] = await db.insert(references).values({ name: 'Camp', organizationId: org.id }).returning();
    const [theirs] = await db.insert(references).values({ name: 'Far', organizationId: (await createOrganization(t)).id }).returning();
    const { token } = await tokenFor('ADMIN');
    const bad = await call(token, 'POST', '/patient/', body({ organization: org.id, technician: tech.id, reference: theirs!.id }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('reference');
    const good = await call(token, 'POST', '/patient/', body({ organization: org.id, technician: tech.id, reference: own!.id }));
    expect(good.json()).toMatchObject({ reference: own!.id, reference_name: 'Camp' });
  });

  it('puts an ORG_ADMIN’s patient in its own organization and refuses another; keeps others to their scope', async () => {
    const w = await world();
    const orgAdmin = await tokenFor('ORG_ADMIN', { organizationId: w.child.id });
    const res = await call(orgAdmin.token, 'POST', '/patient/', body({ technician: w.tech.id }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ organization: w.child.id });
    const other = await call(orgAdmin.token, 'POST', '/patient/', body({ technician: w.tech.id, organization: w.other.id }));
    expect(other.json()).toEqual({ organization: [PATIENT_MESSAGES.organizationNotYours] });

    const manager = await tokenFor('MANAGER', { linkedOrganizationIds: [w.child.id] });
    const outside = await call(manager.token, 'POST', '/patient/', body({ organization: w.other.id, technician: w.tech.id }));
    expect(outside.json()).toEqual({ organization: [invalidPk(w.other.id)] });
    expect((await call(manager.token, 'POST', '/patient/', body({ organization: w.child.id, technician: w.tech.id }))).statusCode).toBe(201);

    // A role that cannot create from the console is read as a device: the upload's rules answer.
    const reviewer = await tokenFor('CERVAICAL_REVIEWER', { organizationId: w.child.id });
    const technician = await signIn(t, w.tech);
    for (const token of [reviewer.token, technician]) {
      const res = await call(token, 'POST', '/patient/', body({ organization: w.child.id, technician: w.tech.id }));
      expect(res.json()).toEqual({ device_serial_number: [MESSAGES.required] });
      const withDevice = await call(token, 'POST', '/patient/', body({ device_serial_number: 'IBE-NOPE' }));
      expect(withDevice.statusCode).not.toBe(201);
    }
  });
});

describe('PATCH patient/{id}/', () => {
  it('edits the record, recomputes the age from a new date of birth and audits field names only', async () => {
    const w = await world();
    const { token } = await tokenFor('ORG_ADMIN', { organizationId: w.child.id });
    const res = await call(token, 'PATCH', `/patient/${w.pChild.id}/`, { last_name: 'Menon', date_of_birth: '1990-01-15', mobile: '9876501234' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      detail: PATIENT_MESSAGES.updated,
      last_name: 'Menon',
      age: ageOn('1990-01-15', todayIso()),
      mobile: '+91-9876501234',
      mobile_country_code: 'IN',
    });
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.targetId, String(w.pChild.id)), eq(auditLog.action, 'patient.updated')));
    expect(audit?.details).toMatchObject({ fields: ['last_name', 'date_of_birth', 'mobile'] });
    expect(JSON.stringify(audit?.details)).not.toMatch(/Menon|9876501234/);
    const bad = await call(token, 'PATCH', `/patient/${w.pChild.id}/`, { date_of_birth: null, age: 130 });
    expect(bad.json()).toEqual({ age: [PATIENT_MESSAGES.age] });
    const noAge = await call(token, 'PATCH', `/patient/${w.pChild.id}/`, { date_of_birth: null, age: null });
    expect(noAge.json()).toEqual({ age: [PATIENT_MESSAGES.ageRequired] });
  });

  it('keeps every field the patch does not name', async () => {
    const org = await createOrganization(t);
    const p = await insertPatient(org, { email: 'keep@example.org', clinicPatientId: 'C-9', mobile: '+91-9876500011', mobileCountryCode: 'IN', physicianName: 'Dr. K' });
    const { token } = await tokenFor('ADMIN');
    const res = await call(token, 'PATCH', `/patient/${p.id}/`, { first_name: 'Kept' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ first_name: 'Kept', email: 'keep@example.org', clinic_patient_id: 'C-9', mobile: '+91-9876500011', physician_name: 'Dr. K', age: 40 });
    // A reference deactivated since it was chosen stays when the dialog sends it back unchanged; a new one must be
    // active.
    const [old] = await db.insert(references).values({ name: 'Old camp', organizationId: org.id, isActive: false }).returning();
    await db.update(patients).set({ referenceId: old!.id }).where(eq(patients.id, p.id));
    expect((await call(token, 'PATCH', `/patient/${p.id}/`, { reference: old!.id, last_name: 'Same' })).statusCode).toBe(200);
    const [inactive] = await db.insert(references).values({ name: 'Closed', organizationId: org.id, isActive: false }).returning();
    expect((await call(token, 'PATCH', `/patient/${p.id}/`, { reference: inactive!.id })).json()).toHaveProperty('reference');
    const cleared = await call(token, 'PATCH', `/patient/${p.id}/`, { email: '', mobile: null });
    expect(cleared.json()).toMatchObject({ email: null, mobile: null, mobile_country_code: null, clinic_patient_id: 'C-9' });
  });

  it('lets ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN and MANAGER change the technician; ORG_ADMIN gets a 400 on the field', async () => {
    const w = await world();
    const tech2 = await createUser(t, { userType: 'TECHNICIAN', organizationId: w.child.id });
    const orgAdmin = await tokenFor('ORG_ADMIN', { organizationId: w.child.id });
    const refused = await call(orgAdmin.token, 'PATCH', `/patient/${w.pChild.id}/`, { technician: tech2.id });
    expect(refused.json()).toEqual({ technician: [PATIENT_MESSAGES.technicianLocked] });
    // Sending the same technician is no change.
    expect((await call(orgAdmin.token, 'PATCH', `/patient/${w.pChild.id}/`, { technician: w.tech.id })).statusCode).toBe(200);
    const actors = [
      await tokenFor('ADMIN'),
      await tokenFor('SUB_ADMIN'),
      await tokenFor('DISTRIBUTOR_ADMIN', { organizationId: w.distributor.id }),
      await tokenFor('MANAGER', { linkedOrganizationIds: [w.child.id] }),
    ];
    for (const [i, a] of actors.entries()) {
      const to = i % 2 === 0 ? tech2.id : w.tech.id;
      const res = await call(a.token, 'PATCH', `/patient/${w.pChild.id}/`, { technician: to });
      expect(res.statusCode, `${a.user.userType}: ${res.body}`).toBe(200);
      expect(res.json().technician).toBe(to);
    }
    const foreign = await createUser(t, { userType: 'TECHNICIAN', organizationId: w.other.id });
    const wrong = await call(actors[0]!.token, 'PATCH', `/patient/${w.pChild.id}/`, { technician: foreign.id });
    expect(wrong.json()).toEqual({ technician: [invalidPk(foreign.id)] });
  });

  it('answers 404 outside the scope and 403 to a technician', async () => {
    const w = await world();
    const orgAdmin = await tokenFor('ORG_ADMIN', { organizationId: w.child.id });
    expect((await call(orgAdmin.token, 'PATCH', `/patient/${w.pOther.id}/`, { last_name: 'X' })).statusCode).toBe(404);
    expect((await call(await signIn(t, w.tech), 'PATCH', `/patient/${w.pChild.id}/`, { last_name: 'X' })).statusCode).toBe(403);
  });
});

describe('DELETE patient/{id}/', () => {
  it('is ADMIN only; deletes the patient with its scans and audits the counts', async () => {
    const w = await world();
    const scan = await insertScan(w.pChild.id, w.child, w.tech.id);
    for (const type of ['SUB_ADMIN', 'MANAGER', 'ORG_ADMIN', 'DISTRIBUTOR_ADMIN'] as const) {
      const { token } = await tokenFor(type, { organizationId: w.child.id, linkedOrganizationIds: type === 'MANAGER' ? [w.child.id] : [] });
      expect((await call(token, 'DELETE', `/patient/${w.pChild.id}/`)).statusCode, type).toBe(403);
    }
    const admin = await tokenFor('ADMIN');
    const res = await call(admin.token, 'DELETE', `/patient/${w.pChild.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: PATIENT_MESSAGES.deleted });
    expect(await db.select().from(patients).where(eq(patients.id, w.pChild.id))).toEqual([]);
    expect(await db.select().from(scans).where(eq(scans.id, scan.id))).toEqual([]);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.targetId, String(w.pChild.id)), eq(auditLog.action, 'patient.deleted')));
    expect(audit?.details).toMatchObject({ deleted_scans: 1, organization: w.child.id });
    expect((await call(admin.token, 'DELETE', `/patient/${w.pChild.id}/`)).statusCode).toBe(404);
  });
});

describe('POST patient/transfer/{id}/ and the reports', () => {
  it('moves the patient and its scans to the organization and technician; audits', async () => {
    const w = await world();
    const scan = await insertScan(w.pChild.id, w.child, w.tech.id);
    const target = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: w.other.id });
    const { token } = await tokenFor('ADMIN');
    const res = await call(token, 'POST', `/patient/transfer/${w.pChild.id}/`, { organization_id: w.other.id, technician_id: target.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ detail: PATIENT_MESSAGES.transferred, organization: w.other.id, technician: target.id });
    const [moved] = await db.select().from(scans).where(eq(scans.id, scan.id));
    expect(moved).toMatchObject({ organizationId: w.other.id, technicianId: target.id });
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.targetId, String(w.pChild.id)), eq(auditLog.action, 'patient.transferred')));
    expect(audit?.details).toMatchObject({ previous_organization: w.child.id, organization: w.other.id, moved_scans: 1 });
  });

  it('needs both for admin-type roles, a technician of its own organization for ORG_ADMIN, and refuses other roles', async () => {
    const w = await world();
    const orgTech = await createUser(t, { userType: 'TECHNICIAN', organizationId: w.child.id });
    const reviewerType = await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: w.child.id });
    const manager = await tokenFor('MANAGER', { linkedOrganizationIds: [w.child.id] });
    const url = `/patient/transfer/${w.pChild.id}/`;
    expect((await call(manager.token, 'POST', url, { technician_id: orgTech.id })).json()).toEqual({ organization_id: [PATIENT_MESSAGES.organizationRequired] });
    expect((await call(manager.token, 'POST', url, { organization_id: w.child.id })).json()).toEqual({ technician_id: [PATIENT_MESSAGES.technicianRequired] });
    expect((await call(manager.token, 'POST', url, { organization_id: w.other.id, technician_id: orgTech.id })).json()).toEqual({ organization_id: [invalidPk(w.other.id)] });
    expect((await call(manager.token, 'POST', url, { organization_id: w.child.id, technician_id: reviewerType.id })).json()).toEqual({ technician_id: [invalidPk(reviewerType.id)] });
    expect((await call(manager.token, 'POST', url, { organization_id: w.child.id, technician_id: orgTech.id })).statusCode).toBe(200);

    const orgAdmin = await tokenFor('ORG_ADMIN', { organizationId: w.child.id });
    const own = await call(orgAdmin.token, 'POST', url, { technician_id: w.tech.id });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ organization: w.child.id, technician: w.tech.id });
    expect((await call(orgAdmin.token, 'POST', url, { organization_id: w.other.id, technician_id: w.tech.id })).json()).toEqual({
      organization_id: [PATIENT_MESSAGES.organizationNotYours],
    });
    expect((await call(orgAdmin.token, 'POST', `/patient/transfer/${w.pOther.id}/`, { technician_id: w.tech.id })).statusCode).toBe(404);
    expect((await call(await signIn(t, w.tech), 'POST', url, { technician_id: w.tech.id })).statusCode).toBe(403);
  });

  it('lists the patient’s scans, cervical and ORCA exams for the dialog, in scope only', async () => {
    const w = await world();
    const older = await insertScan(w.pChild.id, w.child, w.tech.id, new Date('2026-01-01T08:00:00Z'));
    const newer = await insertScan(w.pChild.id, w.child, w.tech.id, new Date('2026-02-01T08:00:00Z'));
    await db.insert(cervicalExams).values({ patientId: w.pChild.id, organizationId: w.child.id, dateTime: new Date('2026-01-10T08:00:00Z') });
    const { token } = await tokenFor('DISTRIBUTOR_ADMIN', { organizationId: w.distributor.id });
    const res = await call(token, 'GET', `/patient/${w.pChild.id}/reports/`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<TPatientReports>();
    expect(body.scans.map((s) => s.id)).toEqual([newer.id, older.id]);
    expect(body.scans[0]).toMatchObject({
      patient_name: `Chitra ${w.pChild.lastName}`,
      device_serial_number: 'IBE-P-1',
      organization: w.child.id,
      organization_name: w.child.name,
      technician: w.tech.id,
      technician_name: `${w.tech.firstName} ${w.tech.lastName}`,
      date_time: '2026-02-01T08:00:00.000Z',
    });
    expect(body.cervical).toHaveLength(1);
    expect(body.orca).toEqual([]);
    expect(await db.select().from(orcaExams).where(eq(orcaExams.patientId, w.pChild.id))).toEqual([]);
    expect((await call(token, 'GET', `/patient/${w.pOther.id}/reports/`)).statusCode).toBe(404);
  });
});
