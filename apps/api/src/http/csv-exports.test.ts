// Every CSV the API writes, found in its OpenAPI document (each route that takes format=csv), opened by a spreadsheet:
// a patient, technician, organization and device whose names and numbers a device sent as formulas must come out as
// text in every one of them (csv-stream.ts csvCell), on the file PostgreSQL writes with COPY as on the streamed ones.
import { beforeAll, describe, expect, it } from 'vitest';
import { reportQueryFor } from '@sc/shared/reports';
import { devices, orcaExams, organizationDevices, patients, scans } from '../db/schema/index.ts';
import { seedExam } from '../modules/cervical/cervical.fixtures.ts';
import { setupTestApp } from '../test/app.ts';
import { parseCsv } from '../test/csv.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;

const HYPERLINK = '=HYPERLINK("http://x.example/?leak","Open")';
const MOBILE = '+91-98765-43210';
const WHEN = new Date('2026-03-10T10:00:00Z');

/** What a spreadsheet evaluates: = + - @ first (after blanks), or a tab or carriage return; not a plain number. */
const isFormula = (cell: string) => /^(?:[\t\r]|\s*[=+\-@])/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell);

let admin = '';
const ids = { scan: 0, cervical: 0 };

/**
 * How each route of the OpenAPI document whose query takes `format` is called for its CSV (path id, body, query);
 * null for a route that shares a list's query but always answers JSON.
 */
const CSV_CALLS: Record<string, (() => { url: string; payload?: object }) | null> = {
  'GET /api/v1/scan/': () => ({ url: '/api/v1/scan/' }),
  'POST /api/v1/scan/ids/': () => ({ url: '/api/v1/scan/ids/', payload: { ids_list: [ids.scan] } }),
  // The spec's path for the same route (issue 23.21): the same CSV.
  'POST /api/v1/scan/from/ids/': () => ({ url: '/api/v1/scan/from/ids/', payload: { ids_list: [ids.scan] } }),
  // The spec's recent scans share the list's query; they answer JSON only.
  'GET /api/v1/scan/recentscan/': null,
  'GET /api/v1/scan/{id}/': () => ({ url: `/api/v1/scan/${ids.scan}/` }),
  'GET /api/v1/cervaical/': () => ({ url: '/api/v1/cervaical/' }),
  'POST /api/v1/cervaical/ids/': () => ({ url: '/api/v1/cervaical/ids/', payload: { ids_list: [ids.cervical] } }),
  'GET /api/v1/orca/': () => ({ url: '/api/v1/orca/' }),
  'GET /api/v1/device/': () => ({ url: '/api/v1/device/' }),
  'GET /api/v1/organization/device/': null,
  'GET /api/v1/organization/leaderboard/': () => ({
    url: '/api/v1/organization/leaderboard/?custom_range=2026-03-01,2026-03-31',
  }),
  'GET /api/v1/organization/report-generate/': () => ({ url: `/api/v1/organization/report-generate/?${reportQuery()}` }),
  'GET /api/v1/organization/leaderboard/report-generate/': () => ({
    url: `/api/v1/organization/leaderboard/report-generate/?${reportQuery()}`,
  }),
};

function reportQuery(): string {
  const { report_log: _log, ...query } = reportQueryFor({ year: 2026, type: 'QUARTERLY', index: 0 });
  return new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

type OpenApi = { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };

/** `METHOD path` of every operation whose query takes `format`. */
function csvRoutes(): string[] {
  const doc = t.app.swagger() as unknown as OpenApi;
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, op]) => op.parameters?.some((p) => p.in === 'query' && p.name === 'format'))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
}

beforeAll(async () => {
  t.clock.set(new Date('2026-03-15T10:00:00Z'));
  const clinic = await createOrganization(t, { name: HYPERLINK });
  admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
  const technician = await createUser(t, {
    userType: 'TECHNICIAN',
    organizationId: clinic.id,
    firstName: '@SUM(A1:A9)',
    lastName: '-2+3',
  });
  const patient = {
    firstName: HYPERLINK,
    lastName: ' =1+1',
    mobile: MOBILE,
    email: '-x@example.com',
    organizationId: clinic.id,
    technicianId: technician.id,
  };
  const [scanPatient] = await db
    .insert(patients)
    .values({ ...patient, physicianName: '\tDr', age: 41 })
    .returning();
  const [device] = await db.insert(devices).values({ serialNumber: '=DEV()', softwareVersion: '+2.1' }).returning();
  await db.insert(organizationDevices).values({ deviceId: device!.id, organizationId: clinic.id });
  const [scan] = await db
    .insert(scans)
    .values({
      patientId: scanPatient!.id,
      organizationId: clinic.id,
      technicianId: technician.id,
      deviceSerialNumber: device!.serialNumber,
      softwareVersion: '@v2',
      localDbId: 'csv-formulas',
      dateTime: WHEN,
      scanType: 'SCAN',
      leftBreastFinding: ['=mass'],
      notes: { message: '\r=notes' },
    })
    .returning();
  ids.scan = scan!.id;
  ids.cervical = (
    await seedExam(db, {
      organizationId: clinic.id,
      technicianId: technician.id,
      patient: { firstName: HYPERLINK, lastName: '+1', age: 38, mobile: MOBILE },
      deviceSerialNumber: '=CRV()',
      dateTime: WHEN,
    })
  ).id;
  const [orcaPatient] = await db.insert(patients).values(patient).returning();
  await db.insert(orcaExams).values({
    organizationId: clinic.id,
    technicianId: technician.id,
    patientId: orcaPatient!.id,
    deviceSerialNumber: '=ORC()',
    localDbId: 'csv-formulas',
    dateTime: WHEN,
    licenceCode: 'ORC-1111-0001',
  });
});

describe('CSV exports', () => {
  it('calls every route of the OpenAPI document that takes format=csv', () => {
    expect(csvRoutes().sort()).toEqual(Object.keys(CSV_CALLS).sort());
  });

  it('writes no cell a spreadsheet would evaluate as a formula, in any CSV', async () => {
    const formulas: Record<string, string[]> = {};
    for (const route of csvRoutes()) {
      const call = CSV_CALLS[route]?.();
      if (!call) {
        const [, url] = route.split(' ');
        const json = await t.app.inject({ method: 'GET', url: `${url}?format=csv`, headers: auth(admin) });
        expect(json.headers['content-type'], route).toContain('application/json');
        continue;
      }
      const res = await t.app.inject({
        method: route.startsWith('POST') ? 'POST' : 'GET',
        url: `${call.url}${call.url.includes('?') ? '&' : '?'}format=csv`,
        headers: auth(admin),
        ...(call.payload ? { payload: call.payload } : {}),
      });
      expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
      expect(res.headers['content-type'], route).toContain('text/csv');
      const [, ...records] = parseCsv(res.body);
      const cells = records.flat();
      if (cells.some(isFormula)) formulas[route] = cells.filter(isFormula);
      // The names sent as formulas reached this file, as text.
      else expect(cells.some((cell) => cell.startsWith("'")), route).toBe(true);
    }
    expect(formulas).toEqual({});
  });
});
