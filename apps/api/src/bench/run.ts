// `npm run bench`: times a few list queries against the configured database (load a large set first with
// `npm run demo -- --scale 1000000`; an empty database gets the default demo set so the command always runs). Each query runs once to warm up, then RUNS times; min, median and max
// are printed. The SQL is what the list endpoints run (a page of 10 plus its count), written out plainly.
import { openPglite, openPostgres, runMigrations, type Database } from '../db/client.ts';
import { isDatabaseEmpty, seedDemo } from '../demo/seed.ts';
import { benchConfig, benchSelected, benchStatistics } from './http-bench.ts';
import { benchScans } from './scans-bench.ts';
import { benchUploads } from './uploads-bench.ts';
import { benchCompression } from './compression-bench.ts';
import { sessionCacheOn } from '../http/session-cache.ts';

const RUNS = 7;

type Case = { name: string; sql: string; params: unknown[] };

const config = benchConfig();
const database: Database = config.DATABASE_URL
  ? openPostgres(config.DATABASE_URL)
  : await openPglite(config.dataDir);
await runMigrations(database);
if (await isDatabaseEmpty(database)) {
  console.log('The database is empty: loading the default demo data set (use `npm run demo -- --scale N` for more).');
  await seedDemo(database, { password: config.DEMO_PASSWORD });
}

async function time(c: Case): Promise<{ min: number; median: number; max: number; rows: number }> {
  let rows = (await database.query(c.sql, c.params)).length;
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    rows = (await database.query(c.sql, c.params)).length;
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const pick = (i: number) => Math.round((samples[i] ?? 0) * 10) / 10;
  return { min: pick(0), median: pick(Math.floor(samples.length / 2)), max: pick(samples.length - 1), rows };
}

try {
  const [size] = await database.query<{ scans: number; patients: number; organizations: number }>(
    `SELECT (SELECT count(*) FROM scans)::int AS scans, (SELECT count(*) FROM patients)::int AS patients,
            (SELECT count(*) FROM organizations)::int AS organizations`,
  );
  if (!size || size.scans === 0) {
    console.error('No scans to measure: load data first with `npm run demo -- --scale 1000000`.');
    process.exitCode = 1;
  } else {
    const [busiest] = await database.query<{ id: number }>(
      'SELECT organization_id AS id FROM scans WHERE organization_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
    );
    const orgId = busiest?.id ?? 1;
    const last30 = "date_time >= now() - interval '30 days'";
    const cases: Case[] = [
      {
        name: 'scans: page of 10, one organization, last 30 days',
        sql: `SELECT * FROM scans WHERE organization_id = $1 AND ${last30} ORDER BY date_time DESC LIMIT 10`,
        params: [orgId],
      },
      {
        name: 'scans: count, one organization, last 30 days',
        sql: `SELECT count(*) FROM scans WHERE organization_id = $1 AND ${last30}`,
        params: [orgId],
      },
      {
        name: 'scans: page of 10, all, newest first',
        sql: 'SELECT * FROM scans ORDER BY date_time DESC LIMIT 10',
        params: [],
      },
      {
        name: "scans: search patient name ILIKE '%shar%', page of 10",
        sql: `SELECT s.* FROM scans s WHERE s.patient_id IN (
                SELECT id FROM patients WHERE (first_name || ' ' || last_name || ' ' || coalesce(mobile, '') || ' ' || coalesce(email, '')) ILIKE $1)
              ORDER BY s.date_time DESC LIMIT 10`,
        params: ['%shar%'],
      },
      {
        name: "organizations: search ILIKE '%clinic%', page + count",
        sql: `SELECT *, count(*) OVER () AS total FROM organizations
               WHERE name ILIKE $1 OR (coalesce(address_1, '') || ' ' || coalesce(address_2, '') || ' ' || coalesce(address_3, '')) ILIKE $1
               ORDER BY created DESC LIMIT 10`,
        params: ['%clinic%'],
      },
      {
        name: 'dashboard: scans and positives, all organizations, last 30 days',
        sql: `SELECT count(*) AS scans, count(*) FILTER (WHERE is_positive) AS positives FROM scans WHERE scan_type = 'SCAN' AND ${last30}`,
        params: [],
      },
      {
        name: 'leaderboard: scans per organization, 365 days',
        sql: `SELECT organization_id, count(*) AS scans, count(*) FILTER (WHERE is_positive) AS positives FROM scans
               WHERE scan_type = 'SCAN' AND date_time >= now() - interval '365 days' GROUP BY organization_id ORDER BY scans DESC`,
        params: [],
      },
      {
        // GET device/ (devices.queries.ts): the active link, its organization and each device's scan count, summed
        // from the daily device statistics.
        name: 'devices: page of 10 with organization and scan count, newest first',
        sql: `SELECT d.*, l.id AS link_id, l.organization_id, o.name AS organization_name,
                (SELECT coalesce(sum(x.scans), 0)::int FROM scan_stats_device_daily x WHERE x.device_serial_number = d.serial_number) AS scan_count
               FROM devices d
               LEFT JOIN organization_devices l ON l.device_id = d.id AND l.is_active
               LEFT JOIN organizations o ON o.id = l.organization_id
              ORDER BY d.created DESC, d.id DESC LIMIT 10`,
        params: [],
      },
      {
        name: 'devices: page of 10 by scan count (GET device/?ordering=-scan_count)',
        sql: `SELECT d.id, (SELECT coalesce(sum(x.scans), 0)::int FROM scan_stats_device_daily x WHERE x.device_serial_number = d.serial_number) AS scan_count
               FROM devices d ORDER BY 2 DESC, d.id DESC LIMIT 10`,
        params: [],
      },
      {
        name: "devices: silent over 30 days, search '%IBE2%', count",
        sql: `SELECT count(*) FROM devices d LEFT JOIN organization_devices l ON l.device_id = d.id AND l.is_active
               WHERE d.serial_number ILIKE $1 AND coalesce(d.last_sync_date, d.created) < now() - interval '30 days'`,
        params: ['%IBE2%'],
      },
    ];
    console.log(
      `${config.isEmbedded ? 'PGlite' : 'PostgreSQL'}: ${size.scans.toLocaleString('en')} scans, ${size.patients.toLocaleString('en')} patients, ` +
        `${size.organizations} organizations; ${RUNS} runs after a warm-up, times in ms.`,
    );
    const table: Record<string, { min: number; median: number; max: number; rows: number }> = {};
    for (const c of cases.filter((x) => benchSelected(x.name))) table[c.name] = await time(c);
    console.table(table);
    console.log('Statistics endpoints over HTTP (app.inject): 10 concurrent clients, 200 requests each, times in ms.');
    console.table(await benchStatistics(database, config));
    // BENCH_ONLY selects lines here too ('scan list', 'map points', 'CSV').
    const scanLines = await benchScans(database, config);
    if (Object.keys(scanLines).length > 0) {
      const cached = sessionCacheOn(config.sessionCache, database.kind);
      console.log(
        'Scan and patient lists, map points and CSV over HTTP (a local port): 10 concurrent clients unless noted, ' +
          `times in ms; sessions ${cached ? 'kept in memory' : 'looked up on each request'} (SESSION_CACHE).`,
      );
      console.table(scanLines);
    }
    // Compressed answers (issue 24): BENCH_ONLY=compression.
    const compression = await benchCompression(database, config);
    if (Object.keys(compression.page).length > 0) {
      console.log('A page of 50 scans (JSON): bytes and CPU ms of one compression per level, and whole requests (app.inject).');
      console.table(compression.page);
      console.log('The CSV of every scan over a local port, as sent; then each level on its first 32 MB, scaled.');
      console.table(compression.csv);
    }
    // Last: the uploads add scans (to an organization of their own, dated 2021).
    const uploadLines = await benchUploads(database, config);
    if (Object.keys(uploadLines).length > 0) {
      console.log('Device uploads over HTTP (app.inject), times in ms.');
      console.table(uploadLines);
    }
  }
} finally {
  await database.close();
}
