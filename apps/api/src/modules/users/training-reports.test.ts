import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { TRAINING_REPORT_MESSAGES, trainingReportFilename } from '@sc/shared/training-reports';
import { organizations, patients, reportLogs, scans, users } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { readPdfText } from '../../services/pdf/pdf-text.testing.ts';
import { setupTestApp } from '../../test/app.ts';
import {
  auth,
  createOrganization,
  createUser,
  signIn,
  type OrganizationRow,
  type TestUser,
} from '../../test/factories.ts';

const t = await setupTestApp();
const TRAINING = (id: number) => `/api/v1/user/training/report/pdf/${id}/`;
const PRACTICE = (id: number) => `/api/v1/user/practice/report/pdf/${id}/`;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const LOGO_PATH = 'companylogo/0000000000000001_1764000000000_training_report_logo.png';

let seq = 0;
let distributor: OrganizationRow;
let clinic: OrganizationRow;
let otherClinic: OrganizationRow;
let technician: TestUser;
let patientId = 0;
const tokens = {} as Record<
  | 'admin'
  | 'subAdmin'
  | 'distributorAdmin'
  | 'manager'
  | 'orgAdmin'
  | 'otherOrgAdmin'
  | 'otherManager'
  | 'reviewer'
  | 'technician',
  string
>;

type ScanOptions = {
  type?: 'TRAINING' | 'PRACTICE' | 'SCAN' | 'PRE_TRAINING';
  result?: 'NO_ASSESSMENT' | 'CORRECT' | 'INCORRECT' | 'BYPASS' | 'USER_BYPASS';
  approved?: boolean | null;
  verified?: boolean;
  at?: Date;
  organizationId?: number | null;
  parentScanId?: number;
};

async function addScan(technicianId: number, opts: ScanOptions = {}): Promise<number> {
  const [row] = await t.database.db
    .insert(scans)
    .values({
      technicianId,
      patientId,
      organizationId: opts.organizationId === undefined ? clinic.id : opts.organizationId,
      deviceSerialNumber: 'IBE-TR-0001',
      localDbId: `tr-${process.pid}-${++seq}`,
      dateTime: opts.at ?? new Date(Date.UTC(2026, 0, 10, 4, 30) + seq * 60_000),
      scanType: opts.type ?? 'TRAINING',
      assessmentResult: opts.result ?? 'NO_ASSESSMENT',
      assessmentApproved: opts.approved ?? null,
      trainingScanObservation: opts.verified === undefined ? {} : { practice_verified: opts.verified },
      parentScanId: opts.parentScanId ?? null,
    })
    .returning();
  if (!row) throw new Error('scan not created');
  return row.id;
}

async function tokenOf(
  userType: TUserType,
  opts: { organizationId?: number | null; linkedOrganizationIds?: number[] } = {},
) {
  return signIn(t, await createUser(t, { userType, password: null, ...opts }));
}

const get = (token: string | null, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(token ? auth(token) : {}), ...headers } });

async function pdfOf(token: string, url: string, headers: Record<string, string> = {}) {
  const res = await get(token, url, headers);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return { res, pdf: await readPdfText(res.rawPayload) };
}

/** A table row as PDF.js reads it: ID, date and time, patient, device, then `rest` (result and flags). */
const row = (id: string, rest: string) =>
  new RegExp(`${id} \\d\\d \\w{3} \\d{4} \\d\\d:\\d\\d [AP]M Asha Kulkarni IBE-TR-0001 ${rest}`);

const trainingIds: number[] = [];
const practiceIds: number[] = [];
let otherOrgScanId = 0;

beforeAll(async () => {
  distributor = await createOrganization(t, { name: 'Arogya Network', canCreateOrganization: true });
  clinic = await createOrganization(t, {
    name: 'Sunrise Clinic',
    parentId: distributor.id,
    address1: '12 Lake Road',
    state: 'Maharashtra',
    zipcode: '411038',
    companyInfo: {
      name: 'Sunrise Health Pvt Ltd',
      address: '1 MG Road',
      city: 'Pune',
      profile_image_path: LOGO_PATH,
    },
  });
  otherClinic = await createOrganization(t, { name: 'Other Clinic' });
  await t.app.ctx.services.storage.put(LOGO_PATH, PNG, 'image/png');

  technician = await createUser(t, {
    userType: 'TECHNICIAN',
    organizationId: clinic.id,
    firstName: 'Pooja',
    lastName: 'Sharma',
    mobile: '9876511005',
  });
  await t.database.db
    .update(users)
    .set({
      ibeTrainingStatus: 'CERTIFIED',
      certificateIssueDate: '2026-02-01',
      certificateExpiryDate: '2027-02-01',
    })
    .where(eq(users.id, technician.id));
  const [patient] = await t.database.db
    .insert(patients)
    .values({ firstName: 'Asha', lastName: 'Kulkarni', organizationId: clinic.id })
    .returning();
  patientId = patient?.id ?? 0;

  trainingIds.push(
    await addScan(technician.id, { result: 'CORRECT', approved: true }),
    await addScan(technician.id, { result: 'INCORRECT', approved: false }),
    await addScan(technician.id, { result: 'CORRECT', approved: true }),
    await addScan(technician.id, { result: 'USER_BYPASS' }),
  );
  // Uploaded again: a duplicate child of the first training scan, not a scan of its own.
  await addScan(technician.id, { result: 'CORRECT', parentScanId: trainingIds[0] });
  // Other types are not in the training report.
  await addScan(technician.id, { type: 'SCAN' });
  await addScan(technician.id, { type: 'PRE_TRAINING' });
  practiceIds.push(
    await addScan(technician.id, { type: 'PRACTICE', result: 'CORRECT', approved: true, verified: true }),
    await addScan(technician.id, { type: 'PRACTICE', result: 'BYPASS', verified: false }),
  );
  // Done while the technician worked for another organization: only roles that see it get it.
  otherOrgScanId = await addScan(technician.id, { result: 'INCORRECT', organizationId: otherClinic.id });

  tokens.admin = await tokenOf('ADMIN');
  tokens.subAdmin = await tokenOf('SUB_ADMIN');
  tokens.distributorAdmin = await tokenOf('DISTRIBUTOR_ADMIN', { organizationId: distributor.id });
  tokens.manager = await tokenOf('MANAGER', { linkedOrganizationIds: [clinic.id] });
  tokens.orgAdmin = await tokenOf('ORG_ADMIN', { organizationId: clinic.id });
  tokens.otherOrgAdmin = await tokenOf('ORG_ADMIN', { organizationId: otherClinic.id });
  tokens.otherManager = await tokenOf('MANAGER', { linkedOrganizationIds: [otherClinic.id] });
  tokens.reviewer = await tokenOf('CERVAICAL_REVIEWER');
  tokens.technician = await signIn(t, technician);
});

describe('GET user/training/report/pdf/{id}/ and user/practice/report/pdf/{id}/', () => {
  it('answers 401 without a token', async () => {
    const res = await get(null, TRAINING(technician.id));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
  });

  it.each(['technician', 'reviewer'] as const)(
    'refuses a %s (403): only the roles of the user dialog download',
    async (who) => {
      for (const url of [TRAINING(technician.id), PRACTICE(technician.id)]) {
        const res = await get(tokens[who], url);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: AUTH_ERRORS.forbidden });
      }
    },
  );

  it.each(['otherOrgAdmin', 'otherManager'] as const)(
    'does not give a %s the report of a technician of an organization outside its scope (404)',
    async (who) => {
      const res = await get(tokens[who], TRAINING(technician.id));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    },
  );

  it('answers 404 Not found. for an unknown id, an id that is not a number and a deleted user', async () => {
    const deleted = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id });
    await addScan(deleted.id);
    await t.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.id));
    for (const url of [TRAINING(99_999_999), '/api/v1/user/training/report/pdf/abc/', TRAINING(deleted.id)]) {
      const res = await get(tokens.admin, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it.each(['MANAGER', 'ADMIN', 'CERVAICAL_REVIEWER', 'SUB_ADMIN'] as const)(
    'answers 404 with the reason for a %s target, even one with training scans',
    async (userType) => {
      const user = await createUser(t, {
        userType,
        organizationId: userType === 'ADMIN' || userType === 'SUB_ADMIN' ? null : clinic.id,
      });
      await addScan(user.id, { result: 'CORRECT' });
      const res = await get(tokens.admin, TRAINING(user.id));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: TRAINING_REPORT_MESSAGES.notForUserType });
    },
  );

  it('answers 404 with the reason when the user has no scans of that type (duplicates and other types do not count)', async () => {
    const fresh = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id });
    const first = await addScan(fresh.id, { type: 'SCAN' });
    await addScan(fresh.id, { type: 'PRACTICE', parentScanId: first });
    for (const [url, detail] of [
      [TRAINING(fresh.id), TRAINING_REPORT_MESSAGES.noScans.training],
      [PRACTICE(fresh.id), TRAINING_REPORT_MESSAGES.noScans.practice],
    ] as const) {
      const res = await get(tokens.orgAdmin, url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail });
    }
  });

  it('sends the training report as an inline PDF named after the username', async () => {
    const { res } = await pdfOf(tokens.admin, TRAINING(technician.id));
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="${trainingReportFilename('training', technician.username)}"`,
    );
    expect(res.headers['content-disposition']).toContain(`training-report-${technician.username}.pdf`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('names every training scan with its T- ID, its result in words and the flags, then the totals', async () => {
    const { pdf } = await pdfOf(tokens.admin, TRAINING(technician.id), { timezone: 'Asia/Kolkata' });
    const text = pdf.pages.join(' ');
    expect(pdf.title).toBe('Training report – Pooja Sharma');
    // Header, the technician, the organization (company_info and logo), the period.
    expect(text).toContain('Sunrise Health Pvt Ltd');
    expect(pdf.images[0]).toBe(1);
    expect(text).toContain('Training report');
    expect(text).toContain('Name Pooja Sharma');
    expect(text).toContain('Mobile +91-9876511005');
    expect(text).toContain(`E-mail ${technician.email}`);
    expect(text).toContain('Training status Certified');
    expect(text).toContain('Certificate issued 01 Feb 2026');
    expect(text).toContain('Certificate expires 01 Feb 2027');
    expect(text).toContain('Name Sunrise Clinic');
    expect(text).toMatch(/First scan 10 Jan 2026 \d\d:\d\d (AM|PM)/);
    // One row per training scan, oldest first; the admin sees the other organization's one too.
    const ids = text.match(/\b[A-Z]+-\d+\b(?= \d\d \w{3} \d{4})/g) ?? [];
    expect(ids).toEqual([...trainingIds, otherOrgScanId].map((id) => `T-${id}`));
    expect(text).toContain(`T-${trainingIds[0]} 10 Jan 2026`);
    expect(text).toMatch(row(`T-${trainingIds[0]}`, 'Correct Yes —'));
    expect(text).toMatch(row(`T-${trainingIds[1]}`, 'Incorrect No —'));
    expect(text).toMatch(row(`T-${trainingIds[3]}`, 'User bypass — —'));
    expect(text).not.toMatch(/\bP-\d+|\bS-\d+|\bPT-\d+/);
    // Totals: 5 training scans (the duplicate is not one): 2 correct, 2 incorrect, 1 user bypass.
    expect(text).toContain('Correct 2 40.0 %');
    expect(text).toContain('Incorrect 2 40.0 %');
    expect(text).toContain('User bypass 1 20.0 %');
    expect(text).toContain('No assessment 0 0.0 %');
    expect(text).toContain('All scans 5 100.0 %');
    expect(text).toContain('Correct rate 50.0 % (2 of 4)');
    expect(text).toContain('Approved 2 of 5');
    expect(text).toContain('Page 1 of 1');
  });

  it('names the practice scans with P- IDs and their verified flags', async () => {
    const { res, pdf } = await pdfOf(tokens.orgAdmin, PRACTICE(technician.id));
    expect(res.headers['content-disposition']).toContain(`practice-report-${technician.username}.pdf`);
    const text = pdf.pages.join(' ');
    expect(text).toContain('Practice report');
    expect(text).toContain('Practice subject');
    expect(text).toMatch(row(`P-${practiceIds[0]}`, 'Correct Yes Yes'));
    expect(text).toMatch(row(`P-${practiceIds[1]}`, 'Bypass — No'));
    expect(text).not.toMatch(/\bT-\d+/);
    expect(text).toContain('Correct rate 100.0 % (1 of 1)');
    expect(text).toContain('Verified 1 of 2');
  });

  it.each(['subAdmin', 'distributorAdmin', 'manager', 'orgAdmin'] as const)(
    'lets a %s download within its scope, listing only the scans of organizations it sees',
    async (who) => {
      const { pdf } = await pdfOf(tokens[who], TRAINING(technician.id));
      const text = pdf.pages.join(' ');
      for (const id of trainingIds) expect(text).toContain(`T-${id} `);
      if (who === 'subAdmin') {
        expect(text).toContain(`T-${otherOrgScanId} `);
      } else {
        expect(text).not.toContain(`T-${otherOrgScanId} `);
        expect(text).toContain('Only scans of organizations you have access to are listed.');
        expect(text).toContain('All scans 4 100.0 %');
      }
    },
  );

  it('reports on ORG Admin and Distributor users too (part 2 §6)', async () => {
    const orgAdminUser = await createUser(t, {
      userType: 'ORG_ADMIN',
      organizationId: clinic.id,
      firstName: 'Meera',
      lastName: 'Iyer',
    });
    const distributorUser = await createUser(t, {
      userType: 'DISTRIBUTOR_ADMIN',
      organizationId: distributor.id,
    });
    const a = await addScan(orgAdminUser.id, { type: 'PRACTICE', result: 'INCORRECT' });
    const b = await addScan(distributorUser.id, { result: 'CORRECT', organizationId: clinic.id });
    const first = await pdfOf(tokens.distributorAdmin, PRACTICE(orgAdminUser.id));
    expect(first.pdf.pages.join(' ')).toContain(`P-${a} `);
    expect(first.pdf.pages.join(' ')).toContain('ORG Admin');
    const second = await pdfOf(tokens.admin, TRAINING(distributorUser.id));
    expect(second.pdf.pages.join(' ')).toContain(`T-${b} `);
  });

  it('prints scan times in the caller’s time zone', async () => {
    const user = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id });
    const id = await addScan(user.id, { at: new Date('2026-01-10T04:30:00Z') });
    const india = await pdfOf(tokens.admin, TRAINING(user.id), { timezone: 'Asia/Kolkata' });
    expect(india.pdf.pages[0]).toContain(`T-${id} 10 Jan 2026 10:00 AM`);
    const mexico = await pdfOf(tokens.admin, TRAINING(user.id), { timezone: 'America/Mexico_City' });
    expect(mexico.pdf.pages[0]).toContain(`T-${id} 09 Jan 2026 10:30 PM`);
    expect(mexico.pdf.pages[0]).toContain('Times shown in America/Mexico_City');
    // Browsers still send the old name of India's zone: the report prints the current one.
    const calcutta = await pdfOf(tokens.admin, TRAINING(user.id), { timezone: 'Asia/Calcutta' });
    expect(calcutta.pdf.pages[0]).toContain(`T-${id} 10 Jan 2026 10:00 AM`);
    expect(calcutta.pdf.pages[0]).toContain('Times shown in Asia/Kolkata');
    // An unknown zone does not refuse the download: it prints in the default zone and says which.
    const odd = await pdfOf(tokens.admin, TRAINING(user.id), { timezone: 'Mars/Olympus' });
    expect(odd.pdf.pages[0]).toContain('Times shown in Asia/Kolkata');
  });

  it('continues a report of more rows than a page on new pages, with the header row and page numbers on each', async () => {
    const busy = await createUser(t, {
      userType: 'TECHNICIAN',
      organizationId: clinic.id,
      firstName: 'Busy',
    });
    const results = ['CORRECT', 'INCORRECT', 'BYPASS', 'USER_BYPASS', 'NO_ASSESSMENT'] as const;
    const start = Date.UTC(2025, 5, 1);
    const rows = Array.from({ length: 1100 }, (_, i) => ({
      technicianId: busy.id,
      patientId,
      organizationId: clinic.id,
      deviceSerialNumber: 'IBE-TR-0002',
      localDbId: `busy-${process.pid}-${i}`,
      // Two scans share each minute, so the batches' keyset must break ties by id.
      dateTime: new Date(start + Math.floor(i / 2) * 60_000),
      scanType: 'TRAINING' as const,
      assessmentResult: results[i % results.length] ?? 'CORRECT',
    }));
    const inserted = await t.database.db.insert(scans).values(rows).returning();
    const { pdf } = await pdfOf(tokens.orgAdmin, TRAINING(busy.id));
    const total = pdf.pages.length;
    expect(total).toBeGreaterThan(20);
    pdf.pages.forEach((text, i) => {
      // The times' zone in their column's header (issue 23.7).
      // (The header wraps after the zone's slash.)
      expect(text).toMatch(/Scan ID Date and time \(Asia\/ ?Kolkata\) Patient Device Result Approved Verified/);
      expect(text).toContain(`Page ${i + 1} of ${total}`);
    });
    expect(pdf.pages[1]).toContain('Training report – Busy');
    // Every scan exactly once, across the 500-row batches and the page breaks.
    const printed = pdf.pages.join(' ').match(/\bT-\d+(?= \d\d \w{3} \d{4})/g) ?? [];
    expect(printed).toHaveLength(1100);
    expect(new Set(printed)).toEqual(new Set(inserted.map((r) => `T-${r.id}`)));
    expect(pdf.pages.at(-1)).toContain('All scans 1100 100.0 %');
    expect(pdf.pages.at(-1)).toContain('Correct rate 50.0 % (220 of 440)');
  });

  it('records each download in the report log', async () => {
    const before = await t.database.db
      .select()
      .from(reportLogs)
      .where(eq(reportLogs.api, PRACTICE(technician.id)));
    await pdfOf(tokens.manager, PRACTICE(technician.id));
    const after = await t.database.db
      .select()
      .from(reportLogs)
      .where(eq(reportLogs.api, PRACTICE(technician.id)));
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toMatchObject({ requestedMethod: 'GET', userType: 'MANAGER' });
    // A refused download is not logged.
    await get(tokens.otherOrgAdmin, PRACTICE(technician.id));
    const refused = await t.database.db
      .select()
      .from(reportLogs)
      .where(eq(reportLogs.api, PRACTICE(technician.id)));
    expect(refused).toHaveLength(after.length);
  });

  it('prints the organization’s own details when it has no company_info, and no logo', async () => {
    const plain = await createOrganization(t, {
      name: 'Plain Clinic',
      state: 'Goa',
      zipcode: '403001',
      country: 'India',
    });
    const user = await createUser(t, { userType: 'TECHNICIAN', organizationId: plain.id });
    await addScan(user.id, { organizationId: plain.id });
    const { pdf } = await pdfOf(tokens.admin, TRAINING(user.id));
    expect(pdf.pages[0]).toContain('Plain Clinic');
    expect(pdf.pages[0]).toContain('Goa 403001, India');
    expect(pdf.images[0]).toBe(0);
    const [stored] = await t.database.db.select().from(organizations).where(eq(organizations.id, plain.id));
    expect(stored?.companyInfo).toEqual({});
  });
});
