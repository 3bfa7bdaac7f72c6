// Every CSV the API writes, found in its OpenAPI document (each route that takes format=csv), opened by a spreadsheet:
// a patient, technician, organization and device whose names and numbers a device sent as formulas must come out as
// text in every one of them (csv-stream.ts csvCell), on the file PostgreSQL writes with COPY as on the streamed ones.
// And each is made for a spreadsheet (issue 23.14): UTF-8 with a byte order mark, every time in one format with its
// zone named in the header, a scan file saying whose each scan is, a file name carrying the period or the day.
import { beforeAll, describe, expect, it } from 'vitest';
import { reportQueryFor } from '@sc/shared/reports';
import { auditLog, devices, followUpCases, orcaExams, organizationDevices, patients, scans } from '../db/schema/index.ts';
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
  'GET /api/v1/follow-up/': () => ({ url: '/api/v1/follow-up/' }),
  'GET /api/v1/follow-up/figures/organizations/': () => ({ url: '/api/v1/follow-up/figures/organizations/' }),
  'GET /api/v1/audit/': () => ({ url: '/api/v1/audit/' }),
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
  // A row of the audit trail naming the organization and a user agent a device sent as formulas.
  await db.insert(auditLog).values({
    action: 'scan.created',
    actionGroup: 'scans',
    actorId: technician.id,
    targetType: 'scan',
    targetId: String(scan!.id),
    organizationId: clinic.id,
    ip: '10.0.0.9',
    created: WHEN,
  });
  // The scan's follow-up case: the worklist's CSV names the patient and the organization, the figures' CSV the latter.
  await db.insert(followUpCases).values({
    patientId: scanPatient!.id,
    organizationId: clinic.id,
    status: 'OPEN',
    modalities: ['BREAST'],
    openedAt: WHEN,
    statusChanged: WHEN,
    nextDue: '2026-03-17',
    dueAt: new Date('2026-03-17T18:30:00Z'),
    lastActionKind: 'OPENED',
    lastActionAt: WHEN,
  });
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

/** Each CSV route's answer, as the console asks for it (its zone in the Timezone header). */
async function download(route: string, timezone = 'Asia/Kolkata') {
  const call = CSV_CALLS[route]?.();
  if (!call) return null;
  const res = await t.app.inject({
    method: route.startsWith('POST') ? 'POST' : 'GET',
    url: `${call.url}${call.url.includes('?') ? '&' : '?'}format=csv`,
    headers: { ...auth(admin), timezone },
    ...(call.payload ? { payload: call.payload } : {}),
  });
  expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
  return res;
}

/** A cell that reads as a time or date in a form other than CSV_DATE_TIME_FORMAT (or a calendar date). */
const OTHER_TIME_FORMS = [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, /\b\d{1,2} [A-Z][a-z]{2} \d{4}\b/, /\d{1,2}:\d{2} ?[AP]M/];

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

  it('starts every CSV with the UTF-8 byte order mark, so a spreadsheet reads López as López', async () => {
    for (const route of csvRoutes()) {
      const res = await download(route);
      if (!res) continue;
      expect(res.rawPayload.subarray(0, 3).toString('hex'), route).toBe('efbbbf');
      expect(res.body.slice(1, 40), route).not.toContain('\uFEFF');
    }
  });

  it('writes every time as YYYY-MM-DD HH:mm with its zone named in the column header', async () => {
    for (const route of csvRoutes()) {
      const res = await download(route, 'Asia/Calcutta');
      if (!res) continue;
      const [header = [], ...records] = parseCsv(res.body);
      const timeColumns = header.flatMap((h, i) => (h.endsWith(' (Asia/Kolkata)') ? [i] : []));
      for (const record of records) {
        record.forEach((cell, i) => {
          const where = `${route} ${header[i]}`;
          if (timeColumns.includes(i)) expect(cell, where).toMatch(/^(\d{4}-\d{2}-\d{2} \d{2}:\d{2})?$/);
          for (const form of OTHER_TIME_FORMS) expect(cell, where).not.toMatch(form);
        });
        // A column of times without its zone in the header.
        record.forEach((cell, i) => {
          if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(cell)) expect(timeColumns, `${route} ${header[i]}`).toContain(i);
        });
      }
    }
    // The scan's time (10:00 UTC) in the reader's zone.
    const scan = parseCsv((await download('GET /api/v1/scan/', 'Europe/Paris'))!.body, { columns: true });
    expect(scan[0]?.['Date Time (Europe/Paris)']).toBe('2026-03-10 11:00');
  });

  it("names the organization of each scan in every scan CSV (breast, cervical, ORCA)", async () => {
    for (const route of csvRoutes().filter((r) => /\/(scan|cervaical|orca)\//.test(r))) {
      const res = await download(route);
      if (!res) continue;
      const rows = parseCsv(res.body, { columns: true });
      expect(rows.length, route).toBeGreaterThan(0);
      // As text (csvCell); the ORCA file flattens commas in names (part 3 §9).
      for (const row of rows) expect(row.Organization, route).toMatch(/^'=HYPERLINK\("http:\/\/x\.example\/\?leak"/);
    }
  });

  it('names every file with the period it holds, or the day it was made', async () => {
    const names: Record<string, string> = {};
    for (const route of csvRoutes()) {
      const res = await download(route);
      if (!res) continue;
      const name = /filename="?([^";]+)/.exec(String(res.headers['content-disposition']))?.[1] ?? '';
      names[route] = name;
      expect(name, route).toMatch(/(\d{4}-\d{2}-\d{2}|\d{4}\))\.csv$/);
    }
    expect(names['GET /api/v1/scan/']).toBe('scan_details_2026-03-15.csv');
    // Its custom_range's last day (the 31st read inclusive, the 30th read as the spec's exclusive end).
    expect(names['GET /api/v1/organization/leaderboard/']).toMatch(/^leaderboard_2026-03-01_2026-03-3[01]\.csv$/);
    const filtered = await t.app.inject({
      url: '/api/v1/scan/?format=csv&date_time_after=2026-03-01&date_time_before=2026-03-14',
      headers: { ...auth(admin), timezone: 'Asia/Kolkata' },
    });
    expect(filtered.headers['content-disposition']).toBe('attachment; filename=scan_details_2026-03-01_2026-03-14.csv');
  });
});
