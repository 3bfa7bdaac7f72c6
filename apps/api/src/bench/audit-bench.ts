// The audit trail at ten million rows (issue 27 "it stays fast"): fills audit_log of a PostgreSQL database of its own
// to AUDIT_BENCH_ROWS rows (default 10,000,000; generate_series, spread over 3 years, 2,000 users, 200 organizations
// under 10 distributors, the actions' real groups, a few impersonations and failures), then calls the audit list
// through the whole app with 10 concurrent clients and prints p50/p95 per case, and each case's plan shape.
//
//   createdb -h 127.0.0.1 -U postgres hb_bench10m
//   AUDIT_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/hb_bench10m npx tsx src/bench/audit-bench.ts
//
// Filling is resumable (it tops the table up to the target) and takes minutes; AUDIT_BENCH_FILL_ONLY=true stops after it.
import { ZAuditListQuery, auditGroupOf } from '@sc/shared/audit';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPostgres, runMigrations, type Database } from '../db/client.ts';
import type { Actor } from '../http/actor.ts';
import { createSession } from '../modules/auth/sessions.service.ts';
import { auditFilters } from '../modules/audit/audit.service.ts';
import { countAuditQuery, listAuditQuery } from '../modules/audit/audit.queries.ts';

const CLIENTS = 10;
const REQUESTS = 200;
const WARM_UP = 10;
const TARGET = Number(process.env.AUDIT_BENCH_ROWS ?? 10_000_000);
const CHUNK = 500_000;
const DISTRIBUTORS = 10;
const CLINICS_PER_DISTRIBUTOR = 19;
const USERS = 2000;
const YEARS = 3;

const url = process.env.AUDIT_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/hb_bench10m';
const database: Database = openPostgres(url);
await runMigrations(database);

/** Actions with their weight (reads and sign-ins dominate a real trail) and the target they name. */
const ACTIONS: [action: string, weight: number, target: string | null][] = [
  ['patient.read', 30, 'patient'],
  ['sign_in.password', 18, null],
  ['scan.read', 12, 'scan'],
  ['session.signed_out', 8, null],
  ['patient.updated', 6, 'patient'],
  ['patient.created', 5, 'patient'],
  ['scan.created', 5, 'scan'],
  ['cervical.exam.read', 3, 'cervical_exam'],
  ['follow_up.case.read', 3, 'follow_up_case'],
  ['follow_up.action.added', 2, 'follow_up_case'],
  ['export.csv', 2, null],
  ['user.updated', 1, 'user'],
  ['user.created', 1, 'user'],
  ['device.assigned', 1, 'device'],
  ['organization.updated', 1, 'organization'],
  ['booking.status_changed', 1, 'booking'],
  ['tutorial.module.updated', 0.3, 'tutorial'],
  ['licence.issued', 0.3, 'licence'],
  ['firmware.uploaded', 0.1, 'firmware'],
  ['audit.retention_updated', 0.01, 'settings'],
];

async function ensurePeople(): Promise<void> {
  const [{ n } = { n: 0 }] = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM organizations WHERE name LIKE 'Bench %'");
  if (n > 0) return;
  console.log('Creating the organizations and users…');
  await database.exec(`
    INSERT INTO organizations (name, country, country_code)
      SELECT 'Bench distributor ' || d, 'India', 'IN' FROM generate_series(1, ${DISTRIBUTORS}) d;
    UPDATE organizations SET tree_path = '/' || id || '/' WHERE name LIKE 'Bench distributor %';
    INSERT INTO organizations (name, country, country_code, parent_id)
      SELECT 'Bench clinic ' || d.id || '-' || c, 'India', 'IN', d.id
        FROM organizations d, generate_series(1, ${CLINICS_PER_DISTRIBUTOR}) c WHERE d.name LIKE 'Bench distributor %';
    UPDATE organizations o SET tree_path = p.tree_path || o.id || '/' FROM organizations p
      WHERE o.parent_id = p.id AND o.name LIKE 'Bench clinic %';
    INSERT INTO users (first_name, last_name, username, user_type, organization_id)
      SELECT 'Bench', 'User ' || g, 'bench-user-' || g,
             (CASE WHEN g = 1 THEN 'ADMIN' WHEN g = 2 THEN 'DISTRIBUTOR_ADMIN' WHEN g % 10 = 0 THEN 'ORG_ADMIN' ELSE 'TECHNICIAN' END),
             (CASE WHEN g = 1 THEN NULL
                   WHEN g = 2 THEN (SELECT min(id) FROM organizations WHERE name LIKE 'Bench distributor %')
                   ELSE (SELECT array_agg(id ORDER BY id) FROM organizations WHERE name LIKE 'Bench clinic %')[1 + g % ${DISTRIBUTORS * CLINICS_PER_DISTRIBUTOR}] END)
        FROM generate_series(1, ${USERS}) g;
  `);
}

async function fill(): Promise<void> {
  const [{ n: have } = { n: 0 }] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
  if (have >= TARGET) {
    console.log(`audit_log holds ${have.toLocaleString('en')} rows.`);
    return;
  }
  const total = ACTIONS.reduce((s, a) => s + a[1], 0);
  // Cumulative weights → the action of a uniform draw.
  let acc = 0;
  const bounds = ACTIONS.map((a) => (acc += a[1] / total));
  const cases = (pick: (a: (typeof ACTIONS)[number]) => string) =>
    ACTIONS.map((a, i) => `WHEN r.a < ${bounds[i]} THEN ${pick(a)}`).join(' ');
  const quote = (s: string | null) => (s === null ? 'NULL' : `'${s}'`);
  const startMs = Date.now() - YEARS * 365 * 86_400_000;
  const spanMs = YEARS * 365 * 86_400_000;
  for (let from = have; from < TARGET; from += CHUNK) {
    const to = Math.min(TARGET, from + CHUNK);
    const t0 = performance.now();
    // Users are skewed (a few very active ones: random()^2); each acts in its own organization, as real users do.
    await database.exec(`
      INSERT INTO audit_log (action, action_group, actor_id, impersonator_id, target_type, target_id, organization_id,
                             outcome, ip, user_agent, details, changes, created)
      SELECT CASE ${cases((a) => quote(a[0]))} END,
             CASE ${cases((a) => quote(auditGroupOf(a[0])))} END,
             u.id,
             CASE WHEN r.i < 0.01 THEN admin.id END,
             CASE ${cases((a) => quote(a[2]))} END,
             CASE ${cases((a) => (a[2] ? `(1 + floor(r.t * 2000000))::int::text` : 'NULL'))} END,
             u.organization_id,
             CASE WHEN r.o < 0.03 THEN 'failure' ELSE 'success' END,
             '10.' || (r.g % 250) || '.' || (r.g / 250 % 250) || '.7',
             'Mozilla/5.0 (bench)',
             '{}'::jsonb,
             CASE WHEN r.a BETWEEN ${bounds[3]} AND ${bounds[5]} THEN '[{"field":"mobile","before":"+91-9876500001","after":"+91-9876500002"}]'::jsonb END,
             to_timestamp((${startMs} + (r.g::float8 / ${TARGET}) * ${spanMs}) / 1000)
        FROM (SELECT g, random() AS a, random() AS i, random() AS o, random() AS t, random() AS u
                FROM generate_series(${from + 1}, ${to}) g) r
        JOIN users u ON u.username = 'bench-user-' || (1 + floor(power(r.u, 2) * ${USERS}))::int
        CROSS JOIN (SELECT id FROM users WHERE username = 'bench-user-1') admin;
    `);
    console.log(`${to.toLocaleString('en')} rows (${Math.round(performance.now() - t0)} ms)`);
  }
  console.log('VACUUM ANALYZE audit_log…');
  await database.exec('VACUUM ANALYZE audit_log');
}

type Case = { name: string; url: string; as: Actor['userType'] };

async function userOf(where: string): Promise<{ id: number; organizationId: number | null; userType: Actor['userType'] }> {
  const [u] = await database.query<{ id: number; organization_id: number | null; user_type: Actor['userType'] }>(
    `SELECT id, organization_id, user_type FROM users WHERE ${where} ORDER BY id LIMIT 1`,
  );
  if (!u) throw new Error(`No user ${where}`);
  return { id: u.id, organizationId: u.organization_id, userType: u.user_type };
}

async function measure(): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: url }, { CHECK_RESPONSES: 'false' });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const ctx = { config, database, now: () => new Date() };
  const people = {
    ADMIN: await userOf("username = 'bench-user-1'"),
    DISTRIBUTOR_ADMIN: await userOf("username = 'bench-user-2'"),
    // A clinic's admin (its clinic holds about 1 % of the rows).
    ORG_ADMIN: await userOf("username = 'bench-user-10'"),
  };
  const tokens: Record<string, string> = {};
  for (const [k, u] of Object.entries(people)) tokens[k] = (await createSession(ctx, { userId: u.id })).token;
  const [mid] = await database.query<{ id: number }>('SELECT (max(id) * 0.4)::int AS id FROM audit_log');
  const [target] = await database.query<{ t: string }>(
    "SELECT target_id AS t FROM audit_log WHERE target_type = 'patient' AND id > (SELECT max(id) * 0.7 FROM audit_log) LIMIT 1",
  );
  const [actor] = await database.query<{ id: number }>("SELECT id FROM users WHERE username = 'bench-user-500'");
  const day = new Date(Date.now() - 500 * 86_400_000).toISOString().slice(0, 10);
  const cases: Case[] = [
    { name: 'first page (ADMIN)', url: '/api/v1/audit/', as: 'ADMIN' },
    { name: 'a page deep in: before= 40 % of the ids (ADMIN)', url: `/api/v1/audit/?before=${mid!.id}`, as: 'ADMIN' },
    { name: 'group: reads (ADMIN)', url: '/api/v1/audit/?group=reads', as: 'ADMIN' },
    { name: 'group: settings, rare (ADMIN)', url: '/api/v1/audit/?group=settings', as: 'ADMIN' },
    { name: 'actor: a user of average activity (ADMIN)', url: `/api/v1/audit/?actor=${actor!.id}`, as: 'ADMIN' },
    { name: 'one organization (ORG_ADMIN scope)', url: '/api/v1/audit/', as: 'ORG_ADMIN' },
    { name: 'a distributor, 20 organizations (DISTRIBUTOR_ADMIN scope)', url: '/api/v1/audit/', as: 'DISTRIBUTOR_ADMIN' },
    { name: 'target: a patient History (ADMIN)', url: `/api/v1/audit/?target_type=patient&target_id=${target!.t}`, as: 'ADMIN' },
    { name: `period: one day 500 days ago (ADMIN)`, url: `/api/v1/audit/?created_after=${day}`, as: 'ADMIN' },
    { name: 'period: last month, failures (ADMIN)', url: '/api/v1/audit/?month=last_month&outcome=failure', as: 'ADMIN' },
  ];
  const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
  try {
    for (const c of cases.filter((x) => !only || only.some((w) => x.name.includes(w)))) {
      const call = async () => {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url: c.url, headers: { authorization: `Token ${tokens[c.as]}`, timezone: 'Asia/Kolkata' } });
        if (res.statusCode !== 200) throw new Error(`${c.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        return performance.now() - t0;
      };
      for (let i = 0; i < WARM_UP; i++) await call();
      const samples: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < REQUESTS) {
            next++;
            samples.push(await call());
          }
        }),
      );
      const elapsed = performance.now() - started;
      samples.sort((a, b) => a - b);
      const at = (q: number) => Math.round((samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0) * 10) / 10;
      const body = (await app.inject({ method: 'GET', url: c.url, headers: { authorization: `Token ${tokens[c.as]}` } })).json<{ count: number; count_capped?: boolean; results: unknown[] }>();
      console.log(
        `${c.name.padEnd(62)} p50 ${String(at(0.5)).padStart(6)} ms  p95 ${String(at(0.95)).padStart(6)} ms  ${Math.round((samples.length / elapsed) * 1000)} req/s  rows ${body.results.length}, count ${body.count}${body.count_capped ? '+' : ''}`,
      );
      // The plan of the page's query and of its count, as the service builds them.
      const person = people[c.as as keyof typeof people];
      const actorOf: Actor = { ...person, email: null, sessionId: 0, impersonatorId: null };
      const query = ZAuditListQuery.parse(Object.fromEntries(new URL(c.url, 'http://x').searchParams));
      const where = await auditFilters(database.db, actorOf, query, 'Asia/Kolkata', new Date());
      for (const [what, built] of [
        ['page', listAuditQuery(database.db, where, { before: query.before }, query.limit + 1, query.actor !== undefined)],
        ['count', countAuditQuery(database.db, where, query.limit + 1001, query.actor !== undefined)],
      ] as const) {
        const { sql, params } = built.toSQL();
        const plan = await database.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`, params);
        const lines = plan.map((p) => p['QUERY PLAN']);
        const shape = lines
          .filter((l) => /Scan|Sort|Limit|Aggregate|Loop|Join|Append|Execution/.test(l))
          .map((l) => l.trim().replace(/\s+\(actual rows=\d+ loops=\d+\)/, '').replace(/^->\s*/, ''))
          .filter((l) => !/^(Index Scan using (users_pkey|organizations_pkey))/.test(l));
        console.log(`    ${what}: ${shape.join(' | ')}`);
      }
    }
  } finally {
    await app.close();
  }
}

try {
  await ensurePeople();
  await fill();
  if (process.env.AUDIT_BENCH_FILL_ONLY !== 'true') await measure();
} finally {
  await database.close();
}
