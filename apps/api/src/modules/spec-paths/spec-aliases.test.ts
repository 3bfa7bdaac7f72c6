// The endpoints at the specification's paths (issue 23.21): each answers as its product route does (the same scope and
// roles: a happy path, an object out of the caller's scope, a role that may not), and the ones with a shape of their
// own answer it (scan/latlng JSON points, scan/recentscan newest first, scan/technicians, orca/case-history).
import { beforeAll, describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { devices, orcaCaseHistories, orcaExams, patients, scans } from '../../db/schema/index.ts';
import { seedExam, type SeededExam } from '../cervical/cervical.fixtures.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type TestUser } from '../../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;

const tok = {} as Record<string, string>;
const users = {} as Record<string, TestUser>;
const ids = {} as { [key: string]: number; A: number; B: number; pA: number; pB: number };
let examA: SeededExam;

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api/v1/${url}`, headers: auth(token), ...(payload === undefined ? {} : { payload: payload as object }) });

beforeAll(async () => {
  ids.A = (await createOrganization(t, { name: 'Clinic A' })).id;
  ids.B = (await createOrganization(t, { name: 'Clinic B' })).id;
  const add = async (key: string, userType: TUserType, organizationId: number | null) => {
    users[key] = await createUser(t, { userType, organizationId, firstName: key });
    tok[key] = await signIn(t, users[key]);
  };
  await add('admin', 'ADMIN', null);
  await add('orgAdminA', 'ORG_ADMIN', ids.A);
  await add('techA', 'TECHNICIAN', ids.A);
  await add('techA2', 'TECHNICIAN', ids.A);
  await add('techB', 'TECHNICIAN', ids.B);
  await add('reviewer', 'CERVAICAL_REVIEWER', null);

  const patient = async (key: string, organizationId: number, technicianId: number) => {
    const [p] = await db
      .insert(patients)
      .values({ firstName: key, lastName: 'Rao', age: 40, organizationId, technicianId })
      .returning();
    ids[key] = p!.id;
  };
  await patient('pA', ids.A, users.techA!.id);
  await patient('pB', ids.B, users.techB!.id);
  const scan = async (key: string, organizationId: number, patientId: number, technicianId: number, at: string, lat: number) => {
    const [s] = await db
      .insert(scans)
      .values({
        patientId,
        organizationId,
        technicianId,
        deviceSerialNumber: `DEV-${key}`,
        sensorSerialNumber: `SEN-${key}`,
        localDbId: `local-${key}`,
        dateTime: new Date(at),
        leftBreastFinding: [],
        rightBreastFinding: [],
        latitude: lat,
        longitude: 77.5946,
      })
      .returning();
    ids[key] = s!.id;
  };
  await scan('sA1', ids.A, ids.pA, users.techA!.id, '2026-03-01T10:00:00Z', 12.9716);
  await scan('sA2', ids.A, ids.pA, users.techA!.id, '2026-03-05T10:00:00Z', 13.0827);
  await scan('sB', ids.B, ids.pB, users.techB!.id, '2026-03-03T10:00:00Z', 19.076);

  const orca = async (key: string, organizationId: number, patientId: number) => {
    const [exam] = await db
      .insert(orcaExams)
      .values({
        organizationId,
        patientId,
        deviceSerialNumber: 'ORC-1',
        localDbId: `orca-${key}`,
        dateTime: new Date('2026-03-01T10:00:00Z'),
        licenceCode: 'ORC-1111-0001',
      })
      .returning();
    ids[key] = exam!.id;
    await db.insert(orcaCaseHistories).values({ examId: exam!.id, consumesAlcohol: true, alcoholUsageLastYear: 'Weekly' });
  };
  await orca('oA', ids.A, ids.pA);
  await orca('oB', ids.B, ids.pB);
  examA = await seedExam(db, { organizationId: ids.A, documents: ['IMAGE'] });
  const [device] = await db.insert(devices).values({ serialNumber: 'IBE-SPEC-1' }).returning();
  ids.device = device!.id;
});

describe('POST scan/from/ids/ (product: scan/ids/)', () => {
  it("lists the named scans in the caller's scope; one out of scope is not listed; 403 to a technician", async () => {
    const body = { ids_list: [ids.sA1, ids.sB] };
    const own = await call('POST', 'scan/from/ids/', tok.orgAdminA!, body);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<{ results: Array<{ id: number }> }>().results.map((r) => r.id)).toEqual([ids.sA1]);
    const product = await call('POST', 'scan/ids/', tok.orgAdminA!, body);
    expect(own.json()).toEqual(product.json());
    const outOfScope = await call('POST', 'scan/from/ids/', tok.orgAdminA!, { ids_list: [ids.sB] });
    expect(outOfScope.json()).toMatchObject({ count: 0, results: [] });
    expect((await call('POST', 'scan/from/ids/', tok.techA!, body)).statusCode).toBe(403);
  });
});

describe('GET scan/sensor-serial-number/ (product: scan/sensor-serial-numbers/)', () => {
  it("answers the sensors of the caller's scope only; 403 to a technician", async () => {
    const res = await call('GET', 'scan/sensor-serial-number/', tok.orgAdminA!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sensor_serial_numbers: ['SEN-sA1', 'SEN-sA2'] });
    expect((await call('GET', 'scan/sensor-serial-number/?search=SEN-sB', tok.orgAdminA!)).json()).toEqual({
      sensor_serial_numbers: [],
    });
    expect((await call('GET', 'scan/sensor-serial-number/', tok.techA!)).statusCode).toBe(403);
  });
});

describe('GET scan/latlng/ (JSON map points)', () => {
  it("answers [{id, latitude, longitude}] of the caller's scope with the list's filters; 403 to a technician", async () => {
    const res = await call('GET', 'scan/latlng/', tok.orgAdminA!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const points = res.json<Array<{ id: number; latitude: number; longitude: number }>>();
    expect(points.sort((a, b) => a.id - b.id)).toEqual([
      { id: ids.sA1, latitude: 12.9716, longitude: 77.5946 },
      { id: ids.sA2, latitude: 13.0827, longitude: 77.5946 },
    ]);
    const all = await call('GET', 'scan/latlng/', tok.admin!);
    expect(all.json<unknown[]>()).toHaveLength(3);
    const none = await call('GET', `scan/latlng/?organization=${ids.B}&search=nobody-at-all`, tok.admin!);
    expect(none.json()).toEqual([]);
    expect((await call('GET', 'scan/latlng/', tok.techA!)).statusCode).toBe(403);
  });
});

describe('GET scan/recentscan/', () => {
  it("answers the caller's scans newest first whatever the ordering asked; 403 to a technician", async () => {
    const res = await call('GET', 'scan/recentscan/?ordering=date_time', tok.orgAdminA!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ results: Array<{ id: number }> }>().results.map((r) => r.id)).toEqual([ids.sA2, ids.sA1]);
    const admin = await call('GET', 'scan/recentscan/?limit=2', tok.admin!);
    expect(admin.json<{ count: number; results: Array<{ id: number }> }>()).toMatchObject({ count: 3 });
    expect(admin.json<{ results: Array<{ id: number }> }>().results.map((r) => r.id)).toEqual([ids.sA2, ids.sB]);
    expect((await call('GET', 'scan/recentscan/', tok.techA!)).statusCode).toBe(403);
  });
});

describe('GET scan/technicians/', () => {
  it("answers the technicians of the caller's scope; another organization's lists nobody; 403 to a technician", async () => {
    const res = await call('GET', 'scan/technicians/', tok.orgAdminA!);
    expect(res.statusCode, res.body).toBe(200);
    const names = res.json<{ results: Array<{ first_name: string; user_type: string }> }>().results;
    expect(names.map((u) => u.first_name).sort()).toEqual(['orgAdminA', 'techA', 'techA2']);
    expect((await call('GET', 'scan/technicians/?search=techA2', tok.orgAdminA!)).json()).toMatchObject({ count: 1 });
    const types = await call('GET', 'scan/technicians/?user_type=TECHNICIAN', tok.admin!);
    expect(types.json<{ results: Array<{ first_name: string }> }>().results.map((u) => u.first_name).sort()).toEqual([
      'techA',
      'techA2',
      'techB',
    ]);
    // The user list's rule: a filter outside the scope selects nobody (nothing of the other organization leaks).
    const other = await call('GET', `scan/technicians/?organization_id=${ids.B}`, tok.orgAdminA!);
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toMatchObject({ count: 0, results: [] });
    expect((await call('GET', 'scan/technicians/', tok.techA!)).statusCode).toBe(403);
  });
});

describe('GET orca/case-history/?scan=', () => {
  it("answers the case history of an exam in scope; out of scope 404; 403 to a technician; scan required", async () => {
    const res = await call('GET', `orca/case-history/?scan=${ids.oA}`, tok.orgAdminA!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      count: 1,
      results: [{ scan: ids.oA, consumes_alcohol: true, alcohol_usage_last_year: 'Weekly' }],
    });
    expect((await call('GET', `orca/case-history/?scan=${ids.oB}`, tok.orgAdminA!)).statusCode).toBe(404);
    expect((await call('GET', `orca/case-history/?scan=${ids.oA}`, tok.techA!)).statusCode).toBe(403);
    const missing = await call('GET', 'orca/case-history/', tok.orgAdminA!);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('scan');
  });
});

describe('GET report_log/ (product: scan/report-log/)', () => {
  it('answers the report log to ADMIN as the product path does; 403 to an ORG_ADMIN', async () => {
    const res = await call('GET', 'report_log/', tok.admin!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual((await call('GET', 'scan/report-log/', tok.admin!)).json());
    expect((await call('GET', 'report_log/', tok.orgAdminA!)).statusCode).toBe(403);
  });
});

describe('POST and PATCH cervaical/document_user/ (product: document-user/)', () => {
  it('adds and edits a review as the product path does; an unknown review is 404; 403 to other roles', async () => {
    const body = { document: examA.documentIds[0], review_status: 'VALID', qualities: [{ quality: 1, answer: true }], clinical_finding: [] };
    expect((await call('POST', 'cervaical/document_user/', tok.techA!, body)).statusCode).toBe(403);
    const added = await call('POST', 'cervaical/document_user/', tok.reviewer!, body);
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json<{ id: number }>().id;
    const edit = { ...body, review_status: 'IN_VALID' };
    expect((await call('PATCH', `cervaical/document_user/${id}/`, tok.techA!, edit)).statusCode).toBe(403);
    expect((await call('PATCH', 'cervaical/document_user/999999/', tok.admin!, edit)).statusCode).toBe(404);
    const edited = await call('PATCH', `cervaical/document_user/${id}/`, tok.admin!, edit);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ id, review_status: 'IN_VALID' });
  });
});

describe('POST device/link/organization/ (product: organization/device/)', () => {
  it('links a device to an organization; an unknown organization is refused; 403 to an ORG_ADMIN', async () => {
    const body = { organization: ids.A, device: ids.device };
    expect((await call('POST', 'device/link/organization/', tok.orgAdminA!, body)).statusCode).toBe(403);
    const unknown = await call('POST', 'device/link/organization/', tok.admin!, { organization: 999999, device: ids.device });
    expect([400, 404]).toContain(unknown.statusCode);
    const res = await call('POST', 'device/link/organization/', tok.admin!, body);
    expect(res.statusCode, res.body).toBe(201);
    const listed = await call('GET', `organization/device/?organization_id=${ids.A}`, tok.admin!);
    expect(JSON.stringify(listed.json())).toContain('IBE-SPEC-1');
  });
});

describe('POST patient/{id}/transfer/ (product: patient/transfer/{id}/)', () => {
  it("moves a patient in scope to another technician; a patient out of scope is 404; 403 to a technician", async () => {
    const body = { technician_id: users.techA2!.id };
    expect((await call('POST', `patient/${ids.pA}/transfer/`, tok.techA!, body)).statusCode).toBe(403);
    expect((await call('POST', `patient/${ids.pB}/transfer/`, tok.orgAdminA!, body)).statusCode).toBe(404);
    const res = await call('POST', `patient/${ids.pA}/transfer/`, tok.orgAdminA!, body);
    expect(res.statusCode, res.body).toBe(200);
    const after = await call('GET', `patient/${ids.pA}/`, tok.orgAdminA!);
    expect(after.json()).toMatchObject({ technician: users.techA2!.id });
  });
});

describe('OpenAPI', () => {
  it('documents each alias with the summary naming its product path', async () => {
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { summary?: string }>> };
    expect(doc.paths['/api/v1/scan/from/ids/']?.post?.summary).toContain('/api/v1/scan/ids/');
    expect(doc.paths['/api/v1/cervaical/document_user/{id}/']?.patch?.summary).toContain('document-user');
    expect(doc.paths['/api/v1/scan/latlng/']).toHaveProperty('get');
  });
});
