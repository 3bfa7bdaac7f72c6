// HTTP benchmark of the statistics endpoints (issue 9 "Speed"): each endpoint is called by CLIENTS concurrent clients
// through the whole app (authentication, scope, validation, queries, serialization) for REQUESTS requests after a
// warm-up; req/s, p50 and p95 are printed. Targets at a million scans on PostgreSQL: p95 under 50 ms for the
// dashboard and the 30-day leaderboard, under 150 ms for all time.
import { eq } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { createSession } from '../modules/auth/sessions.service.ts';
import { reportQueryFor } from '@sc/shared/reports';

const CLIENTS = 10;
const REQUESTS = 200;
const WARM_UP = 10;

type Endpoint = { name: string; url: string; as: 'ADMIN' | 'ORG_ADMIN' };

/**
 * The configuration of the server the benches measure: as it runs in production, answers written as built, not checked
 * again (CHECK_RESPONSES=true checks them; http/serializer.ts).
 */
export const benchConfig = (): Config =>
  loadConfig(process.env, { CHECK_RESPONSES: process.env.CHECK_RESPONSES === 'true' ? 'true' : 'false' });

export type HttpResult = { 'req/s': number; p50: number; p95: number; max: number };

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** `BENCH_ONLY=chart,devices npm run bench` measures only the lines whose names contain one of those words. */
export const benchSelected = (name: string): boolean => {
  const only = process.env.BENCH_ONLY?.split(',').map((w) => w.trim().toLowerCase()).filter(Boolean);
  return !only?.length || only.some((w) => name.toLowerCase().includes(w));
};

/** A session token of the first demo user of `userType` (the benches call the API as that user). */
export async function benchToken(database: Database, config: Config, userType: 'ADMIN' | 'ORG_ADMIN'): Promise<string> {
  const [user] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.userType, userType))
    .orderBy(users.id)
    .limit(1);
  if (!user) throw new Error(`No ${userType} user to bench with.`);
  return (await createSession({ config, database, now: () => new Date() }, { userId: user.id })).token;
}

export async function benchStatistics(database: Database, config: Config): Promise<Record<string, HttpResult>> {
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  try {
    const tokens = {
      ADMIN: await benchToken(database, config, 'ADMIN'),
      ORG_ADMIN: await benchToken(database, config, 'ORG_ADMIN'),
    };
    const now = new Date();
    const last30 = `date_time_after=${isoDay(new Date(now.getTime() - 30 * 86_400_000))}&date_time_before=${isoDay(now)}`;
    const years = `custom_range=2020-01-01,${isoDay(now)}`;
    const report = (type: 'QUARTERLY' | 'ANNUALLY') => {
      const { report_log: _log, ...q } = reportQueryFor(
        type === 'QUARTERLY'
          ? { year: now.getUTCFullYear() - 1, type, index: 3 }
          : { year: now.getUTCFullYear() - 1, type, index: 0 },
      );
      return new URLSearchParams({ ...q, limit: '200' } as Record<string, string>).toString();
    };
    const endpoints: Endpoint[] = [
      { name: 'dashboard tiles, all time (ADMIN)', url: '/api/v1/scan/dashboard/', as: 'ADMIN' },
      { name: 'dashboard tiles, last 30 days (ADMIN)', url: `/api/v1/scan/dashboard/?${last30}`, as: 'ADMIN' },
      { name: 'dashboard tiles, since 2020 (ADMIN)', url: `/api/v1/scan/dashboard/?${years}`, as: 'ADMIN' },
      { name: 'dashboard tiles, all time (ORG_ADMIN)', url: '/api/v1/scan/dashboard/', as: 'ORG_ADMIN' },
      { name: 'leaderboard, last 30 days', url: `/api/v1/organization/leaderboard/?${last30}`, as: 'ADMIN' },
      { name: 'leaderboard, all time', url: '/api/v1/organization/leaderboard/', as: 'ADMIN' },
      { name: 'leaderboard, since 2020', url: `/api/v1/organization/leaderboard/?${years}`, as: 'ADMIN' },
      { name: 'by technician, last 30 days', url: `/api/v1/organization/technician-positive/?${last30}`, as: 'ADMIN' },
      { name: 'by technician, all time', url: '/api/v1/organization/technician-positive/', as: 'ADMIN' },
      { name: 'by device, last 30 days', url: `/api/v1/scan/device-positive/?${last30}`, as: 'ADMIN' },
      { name: 'by device, all time', url: '/api/v1/scan/device-positive/', as: 'ADMIN' },
      { name: 'chart, last 30 days', url: `/api/v1/scan/dashboard/chart/?${last30}`, as: 'ADMIN' },
      { name: 'chart, all time (months)', url: '/api/v1/scan/dashboard/chart/', as: 'ADMIN' },
      { name: 'chart, since 2020 (months)', url: `/api/v1/scan/dashboard/chart/?${years}`, as: 'ADMIN' },
      // Period reports (issue 9): the last quarter against the one before, and last year against the year before.
      { name: 'technician report, quarter vs previous', url: `/api/v1/organization/report-generate/?${report('QUARTERLY')}`, as: 'ADMIN' },
      { name: 'organization report, quarter vs previous', url: `/api/v1/organization/leaderboard/report-generate/?${report('QUARTERLY')}`, as: 'ADMIN' },
      { name: 'organization report, year vs previous', url: `/api/v1/organization/leaderboard/report-generate/?${report('ANNUALLY')}`, as: 'ADMIN' },
      { name: 'technician report, year vs previous (ORG_ADMIN)', url: `/api/v1/organization/report-generate/?${report('ANNUALLY')}`, as: 'ORG_ADMIN' },
      // The patient list (issue 8) is measured over HTTP with the scan list (scans-bench.ts).
      // Follow-up (issue 26): the dashboard's card and table per organization, and the worklist.
      { name: 'follow-up figures, all time (ADMIN)', url: '/api/v1/follow-up/figures/', as: 'ADMIN' },
      { name: 'follow-up figures, this month (ADMIN)', url: '/api/v1/follow-up/figures/?month=this_month', as: 'ADMIN' },
      { name: 'follow-up figures, last 30 days (ADMIN)', url: `/api/v1/follow-up/figures/?${last30}`, as: 'ADMIN' },
      { name: 'follow-up figures, all time (ORG_ADMIN)', url: '/api/v1/follow-up/figures/', as: 'ORG_ADMIN' },
      { name: 'follow-up figures by organization, all time', url: '/api/v1/follow-up/figures/organizations/', as: 'ADMIN' },
      { name: 'follow-up figures by organization, last 30 days', url: `/api/v1/follow-up/figures/organizations/?${last30}`, as: 'ADMIN' },
      { name: 'follow-up worklist, default order (ADMIN)', url: '/api/v1/follow-up/', as: 'ADMIN' },
      { name: 'follow-up worklist, overdue only (ADMIN)', url: '/api/v1/follow-up/?overdue=true', as: 'ADMIN' },
      { name: 'follow-up worklist, default order (ORG_ADMIN)', url: '/api/v1/follow-up/', as: 'ORG_ADMIN' },
      // The audit trail (issue 27): its first page; at ten million rows see audit-bench.ts.
      { name: 'audit trail, first page (ADMIN)', url: '/api/v1/audit/', as: 'ADMIN' },
      { name: 'audit trail, first page (ORG_ADMIN)', url: '/api/v1/audit/', as: 'ORG_ADMIN' },
    ];

    const results: Record<string, HttpResult> = {};
    for (const e of endpoints.filter((x) => benchSelected(x.name))) {
      const call = async () => {
        const t0 = performance.now();
        const res = await app.inject({
          method: 'GET',
          url: e.url,
          headers: { authorization: `Token ${tokens[e.as]}`, timezone: 'Asia/Kolkata' },
        });
        if (res.statusCode !== 200) throw new Error(`${e.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
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
      results[e.name] = {
        'req/s': Math.round((samples.length / elapsed) * 1000),
        p50: at(0.5),
        p95: at(0.95),
        max: at(1),
      };
    }
    return results;
  } finally {
    await app.close();
  }
}
