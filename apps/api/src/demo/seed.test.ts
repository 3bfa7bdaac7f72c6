import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidMobile, ORG_TEXT_PATTERN } from '@sc/shared/validation';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import type { Database } from '../db/client.ts';
import { createTestDatabase } from '../test/database.ts';
import { DEMO_ACCOUNTS } from './accounts.ts';
import { isDatabaseEmpty, seedDemo, type SeedSummary } from './seed.ts';
import { findOfferedSlot, slotsOfDate, weekdayOf } from '../modules/bookings/slots.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const NOW = new Date('2026-06-15T08:00:00Z');

describe('demo data', () => {
  let database: Database;
  let summary: SeedSummary;

  beforeAll(async () => {
    database = await createTestDatabase();
    expect(await isDatabaseEmpty(database)).toBe(true);
    summary = await seedDemo(database, { password: 'Demo@2026', now: NOW, scale: 1500 });
  }, 120_000);

  afterAll(async () => {
    await database.close();
  });

  type UserRow = {
    email: string;
    user_type: string;
    organization_id: number | null;
    mobile: string;
    mobile_country_code: string;
    password_hash: string;
  };
  const demoUser = async (email: string) => {
    const [row] = await database.query<UserRow>('SELECT * FROM users WHERE email = $1', [email]);
    if (!row) throw new Error(`${email} missing`);
    return row;
  };
  type OrgRow = {
    id: number;
    name: string;
    parent_id: number | null;
    tree_path: string;
    can_create_organization: boolean;
  };
  const org = async (id: number) => {
    const [row] = await database.query<OrgRow>('SELECT * FROM organizations WHERE id = $1', [id]);
    if (!row) throw new Error(`organization ${id} missing`);
    return row;
  };

  it('is no longer empty after seeding', async () => {
    expect(await isDatabaseEmpty(database)).toBe(false);
  });

  it('fills every main table', () => {
    for (const [table, count] of Object.entries(summary.counts)) expect(count, table).toBeGreaterThan(0);
    expect(summary.counts.scans).toBe(1500);
    expect(summary.counts.organizations).toBeGreaterThanOrEqual(40);
    expect(summary.counts.users).toBeGreaterThanOrEqual(60);
    expect(summary.counts.devices).toBeGreaterThanOrEqual(30);
  });

  it('creates every demo account with its role, an Indian mobile and a password', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const user = await demoUser(account.email);
      expect(user.user_type).toBe(account.user_type);
      expect(user.mobile).toBe(`+91-${account.mobile}`);
      expect(user.mobile_country_code).toBe('IN');
      expect(isValidMobile(account.mobile, 'IN')).toBe(true);
      expect(user.password_hash).toMatch(/^\$argon2id\$/);
    }
  });

  it('puts the ORG_ADMIN and the TECHNICIAN in the same stand-alone clinic', async () => {
    const admin = await demoUser('orgadmin@demo.test');
    const technician = await demoUser('technician@demo.test');
    expect(admin.organization_id).not.toBeNull();
    expect(technician.organization_id).toBe(admin.organization_id);
    const clinic = await org(admin.organization_id ?? 0);
    expect(clinic.parent_id).toBeNull();
    expect(clinic.can_create_organization).toBe(false);
    expect(clinic.tree_path).toBe(`/${clinic.id}/`);
  });

  it('puts the DISTRIBUTOR_ADMIN at a distributor with sub-organizations', async () => {
    const user = await demoUser('distributor@demo.test');
    const distributor = await org(user.organization_id ?? 0);
    expect(distributor.can_create_organization).toBe(true);
    const children = await database.query<OrgRow>('SELECT * FROM organizations WHERE parent_id = $1', [
      distributor.id,
    ]);
    expect(children.length).toBeGreaterThan(1);
    for (const child of children) expect(child.tree_path).toBe(`${distributor.tree_path}${child.id}/`);
  });

  it('links the MANAGER to organizations under two different top-level organizations', async () => {
    const user = await demoUser('manager@demo.test');
    expect(user.organization_id).toBeNull();
    const rows = await database.query<{ tree_path: string }>(
      `SELECT o.tree_path FROM manager_organizations m JOIN organizations o ON o.id = m.organization_id
        JOIN users u ON u.id = m.user_id WHERE u.email = $1`,
      ['manager@demo.test'],
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const roots = new Set(rows.map((r) => r.tree_path.split('/')[1]));
    expect(roots.size).toBeGreaterThanOrEqual(2);
    for (const r of rows) expect(r.tree_path.split('/').length).toBeGreaterThan(3);
  });

  it('leaves the CERVAICAL_REVIEWER without an organization', async () => {
    expect((await demoUser('reviewer@demo.test')).organization_id).toBeNull();
  });

  it('keeps every tree_path equal to the ancestors chain', async () => {
    const rows = await database.query<{ id: number; tree_path: string; expected: string }>(
      `SELECT o.id, o.tree_path, coalesce(p.tree_path, '/') || o.id || '/' AS expected
         FROM organizations o LEFT JOIN organizations p ON p.id = o.parent_id`,
    );
    for (const r of rows) expect(r.tree_path).toBe(r.expected);
  });

  it('spreads organizations over at least five countries with valid names', async () => {
    const rows = await database.query<{ country: string; name: string }>(
      'SELECT country, name FROM organizations',
    );
    expect(new Set(rows.map((r) => r.country)).size).toBeGreaterThanOrEqual(5);
    for (const r of rows) expect(r.name).toMatch(ORG_TEXT_PATTERN);
  });

  it('makes English language 1 and the default', async () => {
    const [english] = await database.query<{ name: string; iso_code: string }>(
      'SELECT * FROM languages WHERE id = 1',
    );
    expect(english).toMatchObject({ name: 'English', iso_code: 'en' });
  });

  it('gives generated users valid, unique mobiles and never a demo mobile or e-mail', async () => {
    const demoEmails = DEMO_ACCOUNTS.map((a) => a.email);
    const demoMobiles = DEMO_ACCOUNTS.map((a) => `+91-${a.mobile}`);
    const rows = await database.query<{
      email: string | null;
      mobile: string | null;
      mobile_country_code: string;
    }>('SELECT email, mobile, mobile_country_code FROM users WHERE NOT (email = ANY($1))', [demoEmails]);
    for (const r of rows) {
      if (r.mobile) {
        expect(demoMobiles).not.toContain(r.mobile);
        expect(isValidMobile(r.mobile.split('-')[1] ?? '', r.mobile_country_code), r.mobile).toBe(true);
      }
      if (r.email) expect(r.email.endsWith('@demo.test')).toBe(false);
    }
  });

  it('gives the demo accounts training and practice histories with a mix of results (the report PDFs have rows)', async () => {
    const rows = await database.query<{
      email: string;
      scan_type: string;
      n: number;
      results: number;
      before: number;
    }>(
      `SELECT u.email, s.scan_type, count(*)::int AS n, count(DISTINCT s.assessment_result)::int AS results,
              count(*) FILTER (WHERE u.certificate_issue_date IS NULL OR s.date_time::date < u.certificate_issue_date)::int AS before
         FROM scans s JOIN users u ON u.id = s.technician_id
        WHERE u.email IN ('technician@demo.test', 'orgadmin@demo.test', 'distributor@demo.test')
          AND s.scan_type IN ('TRAINING', 'PRACTICE') AND s.parent_scan_id IS NULL
        GROUP BY 1, 2`,
    );
    const of = (email: string, type: string) => rows.find((r) => r.email === email && r.scan_type === type);
    for (const type of ['TRAINING', 'PRACTICE']) {
      const mine = of('technician@demo.test', type);
      expect(mine?.n, type).toBeGreaterThanOrEqual(10);
      expect(mine?.results, type).toBeGreaterThanOrEqual(3);
      expect(mine?.before, type).toBeGreaterThanOrEqual(10);
    }
    expect(of('orgadmin@demo.test', 'TRAINING')?.n).toBeGreaterThan(0);
    expect(of('distributor@demo.test', 'TRAINING')?.n).toBeGreaterThan(0);
  });

  it("puts cervical and ORCA exams in every MANAGER's and the demo distributor's scope, and re-certification work before both", async () => {
    // Each scope: the subtrees of a manager's linked organizations, or of the distributor's own organization.
    const scopes = await database.query<{ who: string; cervical: number; orca: number; due: number }>(
      `WITH roots AS (
         SELECT u.id::text AS who, o.tree_path FROM users u
           JOIN manager_organizations m ON m.user_id = u.id JOIN organizations o ON o.id = m.organization_id
          WHERE u.user_type = 'MANAGER'
         UNION ALL
         SELECT u.email, o.tree_path FROM users u JOIN organizations o ON o.id = u.organization_id
          WHERE u.email = 'distributor@demo.test'),
       scope AS (SELECT DISTINCT r.who, o.id FROM roots r JOIN organizations o ON o.tree_path LIKE r.tree_path || '%')
       SELECT s.who,
              (SELECT count(*) FROM cervical_exams c WHERE c.organization_id IN (SELECT id FROM scope x WHERE x.who = s.who))::int AS cervical,
              (SELECT count(*) FROM orca_exams e WHERE e.organization_id IN (SELECT id FROM scope x WHERE x.who = s.who))::int AS orca,
              (SELECT count(*) FROM users t WHERE t.user_type = 'TECHNICIAN' AND t.ibe_training_status = 'CERTIFIED'
                  AND t.certificate_expiry_date <= $1::date
                  AND t.organization_id IN (SELECT id FROM scope x WHERE x.who = s.who))::int AS due
         FROM (SELECT DISTINCT who FROM roots) s`,
      ['2026-07-15'],
    );
    const managers = await database.query<{ id: number }>("SELECT id FROM users WHERE user_type = 'MANAGER'");
    expect(scopes).toHaveLength(managers.length + 1);
    for (const scope of scopes) {
      expect(scope.cervical, scope.who).toBeGreaterThan(0);
      expect(scope.orca, scope.who).toBeGreaterThan(0);
    }
    const manager = await demoUser('manager@demo.test');
    const [demoManagerId] = await database.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [
      manager.email,
    ]);
    expect(scopes.find((s) => s.who === String(demoManagerId?.id))?.due).toBeGreaterThanOrEqual(2);
    expect(scopes.find((s) => s.who === 'distributor@demo.test')?.due).toBeGreaterThanOrEqual(2);
  });

  it('has scans of every type, duplicates and a believable share of positives', async () => {
    const types = await database.query<{ scan_type: string }>('SELECT DISTINCT scan_type FROM scans');
    expect(types.map((t) => t.scan_type).sort()).toEqual(['PRACTICE', 'PRE_TRAINING', 'SCAN', 'TRAINING']);
    const [stats] = await database.query<{
      duplicates: number;
      positive: number;
      total: number;
      recent: number;
    }>(
      `SELECT count(*) FILTER (WHERE parent_scan_id IS NOT NULL)::int AS duplicates,
              count(*) FILTER (WHERE scan_type = 'SCAN' AND is_positive)::int AS positive,
              count(*) FILTER (WHERE scan_type = 'SCAN')::int AS total,
              count(*) FILTER (WHERE date_time > $1::timestamptz - interval '30 days')::int AS recent
         FROM scans`,
      [NOW.toISOString()],
    );
    expect(stats?.duplicates).toBeGreaterThan(0);
    const share = (stats?.positive ?? 0) / (stats?.total ?? 1);
    expect(share).toBeGreaterThan(0.08);
    expect(share).toBeLessThan(0.18);
    expect(stats?.recent).toBeGreaterThan(50);
  });

  it('follows the two-reviewer rule on cervical exams', async () => {
    const rows = await database.query<{
      id: number;
      reviewer_one_id: number | null;
      reviewer_one_status: string;
      docs: number;
      one_reviews: number;
      one_invalid: number;
    }>(
      `SELECT e.id, e.reviewer_one_id, e.reviewer_one_status,
              (SELECT count(*)::int FROM cervical_documents d WHERE d.exam_id = e.id) AS docs,
              (SELECT count(*)::int FROM cervical_document_reviews r JOIN cervical_documents d ON d.id = r.document_id
                WHERE d.exam_id = e.id AND r.user_id = e.reviewer_one_id) AS one_reviews,
              (SELECT count(*)::int FROM cervical_document_reviews r JOIN cervical_documents d ON d.id = r.document_id
                WHERE d.exam_id = e.id AND r.user_id = e.reviewer_one_id AND r.review_status = 'IN_VALID') AS one_invalid
         FROM cervical_exams e`,
    );
    for (const r of rows) {
      const expected = r.one_reviews < r.docs ? 'NOT_REVIEWED' : r.one_invalid > 0 ? 'IN_VALID' : 'VALID';
      expect(r.reviewer_one_status, `exam ${r.id}`).toBe(expected);
    }
    expect(new Set(rows.map((r) => r.reviewer_one_status)).size).toBe(3);
  });

  it('keeps licence counts consistent with the reports that used them', async () => {
    const rows = await database.query<{ count: number; total_license_count: number }>(
      'SELECT count, total_license_count FROM licences',
    );
    for (const r of rows) {
      expect(r.count).toBeGreaterThanOrEqual(0);
      expect(r.count).toBeLessThanOrEqual(r.total_license_count);
    }
  });

  it('puts every demo booking in a slot the API offers on its date, in the organization time zone', async () => {
    const rows = await database.query<{
      id: number;
      start: Date;
      end: Date;
      timezone: string;
      available_days: number[];
    }>(
      `SELECT b.id, s.start, s."end", o.timezone, o.available_days
         FROM bookings b JOIN slots s ON s.id = b.slot_id JOIN organizations o ON o.id = b.organization_id`,
    );
    expect(rows.length).toBeGreaterThan(50);
    let upcoming = 0;
    for (const r of rows) {
      const settings = { timezone: r.timezone, availableDays: r.available_days };
      const date = dayjs(r.start).tz(r.timezone).format('YYYY-MM-DD');
      // The slot of that local date that starts at this instant: an open day, a slot boundary, its own end.
      expect(settings.availableDays, `booking ${r.id}`).toContain(weekdayOf(date));
      const slot = slotsOfDate(date, r.timezone).find((s) => s.start.getTime() === r.start.getTime());
      expect(slot?.end.getTime(), `booking ${r.id} at ${r.start.toISOString()}`).toBe(r.end.getTime());
      // A slot still ahead is one the public page offers now.
      if (r.start.getTime() > NOW.getTime()) {
        upcoming++;
        expect(findOfferedSlot(r.start, settings, NOW), `booking ${r.id}`).not.toBeNull();
      }
    }
    expect(upcoming).toBeGreaterThan(0);
  });

  it('dates each demo booking before its slot and not after now, spread over many times', async () => {
    const rows = await database.query<{ created: Date; start: Date }>(
      'SELECT b.created, s.start FROM bookings b JOIN slots s ON s.id = b.slot_id',
    );
    for (const r of rows) {
      expect(r.created.getTime()).toBeLessThan(r.start.getTime());
      expect(r.created.getTime()).toBeLessThanOrEqual(NOW.getTime());
    }
    // No one moment holds a large share of them (the booking list is sorted by created).
    const perMoment = new Map<number, number>();
    for (const r of rows) perMoment.set(r.created.getTime(), (perMoment.get(r.created.getTime()) ?? 0) + 1);
    expect(Math.max(...perMoment.values())).toBeLessThan(rows.length * 0.05);
  });

  // Issue 23.8: the demo's time ends when it is loaded. Every timestamp of something that happened (created, modified,
  // date_time, synced, sent, …) is at most now; only appointments (slots, a booking's slot) lie ahead.
  it('dates nothing that already happened after the moment of loading', async () => {
    // Appointments, expiry times and when an active follow-up case becomes overdue are meant to lie ahead.
    const FUTURE_KINDS = new Set(['slots.start', 'slots.end', 'follow_up_cases.due_at']);
    const ahead = (column: string) => column === 'expires_at' || column.endsWith('_expiry');
    const columns = await database.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('timestamp with time zone', 'timestamp without time zone')`,
    );
    const late: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      if (FUTURE_KINDS.has(`${table}.${column}`) || ahead(column) || table.startsWith('__')) continue;
      const [row] = await database.query<{ n: number; max: Date | null }>(
        `SELECT count(*)::int AS n, max("${column}") AS max FROM "${table}" WHERE "${column}" > $1`,
        [NOW.toISOString()],
      );
      if (row && row.n > 0) late.push(`${table}.${column}: ${row.n} after now (latest ${row.max?.toISOString()})`);
    }
    expect(late).toEqual([]);
  });

  it("creates each patient no later than the patient's first scan or exam", async () => {
    const rows = await database.query<{ id: number; created: Date; first: Date }>(
      `SELECT p.id, p.created, min(e.date_time) AS first FROM patients p
         JOIN (SELECT patient_id, date_time FROM scans UNION ALL SELECT patient_id, date_time FROM cervical_exams
               UNION ALL SELECT patient_id, date_time FROM orca_exams) e ON e.patient_id = p.id
        GROUP BY p.id, p.created HAVING p.created > min(e.date_time)`,
    );
    expect(rows.map((r) => `patient ${r.id} created ${r.created.toISOString()} after ${r.first.toISOString()}`)).toEqual(
      [],
    );
  });

  it('gives every demo role that handles bookings some in its scope', async () => {
    const countUnder = async (treePaths: string[]) => {
      const [row] = await database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM bookings b JOIN organizations o ON o.id = b.organization_id
          WHERE o.tree_path LIKE ANY($1::text[])`,
        [treePaths.map((p) => `${p}%`)],
      );
      return row?.n ?? 0;
    };
    const links = await database.query<{ tree_path: string }>(
      `SELECT o.tree_path FROM manager_organizations m JOIN organizations o ON o.id = m.organization_id
        JOIN users u ON u.id = m.user_id WHERE u.email = 'manager@demo.test'`,
    );
    expect(await countUnder(links.map((l) => l.tree_path))).toBeGreaterThan(0);
    for (const email of ['distributor@demo.test', 'orgadmin@demo.test']) {
      const own = await org((await demoUser(email)).organization_id ?? 0);
      expect(await countUnder([own.tree_path]), email).toBeGreaterThan(0);
    }
  });

  it('logs each licence as the API does: a grant, one row per report that used one, renewals, in order', async () => {
    const licences = await database.query<{ id: number; count: number; total_license_count: number }>(
      'SELECT id, count, total_license_count FROM licences ORDER BY id',
    );
    const logs = await database.query<{ license_id: number; before_count: number; after_count: number }>(
      'SELECT license_id, before_count, after_count FROM licence_logs ORDER BY license_id, created, id',
    );
    const reports = await database.query<{ license_id: number; n: number; last: number | null }>(
      'SELECT license_id, count(*)::int AS n, max(current_report_count) AS last FROM orca_exams WHERE license_id IS NOT NULL GROUP BY license_id',
    );
    let paged = 0;
    for (const licence of licences) {
      const rows = logs.filter((r) => r.license_id === licence.id);
      expect(rows[0]?.before_count, `licence ${licence.id}`).toBe(0);
      rows
        .slice(1)
        .forEach((r, k) => expect(r.before_count, `licence ${licence.id}`).toBe(rows[k]?.after_count));
      expect(rows.at(-1)?.after_count).toBe(licence.count);
      const granted = rows.reduce((sum, r) => sum + Math.max(0, r.after_count - r.before_count), 0);
      expect(granted).toBe(licence.total_license_count);
      const used = rows.filter((r) => r.after_count === r.before_count - 1).length;
      expect(used).toBe(licence.total_license_count - licence.count);
      const orca = reports.find((r) => r.license_id === licence.id);
      if (orca) expect(orca.last).toBe(used);
      // The License Details log shows 20 rows a page.
      if (rows.length > 20) paged++;
    }
    expect(paged).toBeGreaterThan(0);
  });

  it('moves id sequences past the loaded rows', async () => {
    const [row] = await database.query<{ id: number }>(
      "INSERT INTO firmware (version, path) VALUES ('v9.99', 'firmware/v9_99.ibe') RETURNING id",
    );
    expect(row?.id).toBe((summary.counts.firmware ?? 0) + 1);
  });

  it('generates the same programme from the same seed', async () => {
    const other = await createTestDatabase();
    try {
      await seedDemo(other, { password: 'other', now: NOW, scale: 200 });
      const query = 'SELECT id, name, tree_path FROM organizations ORDER BY id';
      expect(await other.query(query)).toEqual(await database.query(query));
      const users = 'SELECT id, username, email, mobile, user_type, organization_id FROM users ORDER BY id';
      expect(await other.query(users)).toEqual(await database.query(users));
    } finally {
      await other.close();
    }
  }, 120_000);
});
