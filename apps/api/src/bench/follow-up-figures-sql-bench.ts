// `node --import tsx apps/api/src/bench/follow-up-figures-sql-bench.ts`: the follow-up figures' database time, one
// client, on the configured database (load a million scans first): the median of RUNS calls of each query function,
// after a warm-up. Less sensitive to a loaded machine than `npm run bench`'s ten clients: compare before and after.
import { openPglite, openPostgres } from '../db/client.ts';
import { countFigures, listOrgFigures } from '../modules/follow-up/follow-up-figures.queries.ts';
import { figuresOrderingFields } from '../modules/follow-up/follow-up-figures.queries.ts';
import { splitPeriod } from '../modules/dashboard/scan-stats.queries.ts';
import { benchConfig } from './http-bench.ts';

const RUNS = 25;
const config = benchConfig();
const database = config.DATABASE_URL ? openPostgres(config.DATABASE_URL) : await openPglite(config.dataDir);
const db = database.db;
const now = new Date();
const allTime = splitPeriod({});
const last30 = splitPeriod({ from: new Date(now.getTime() - 30 * 86_400_000), to: now });
const [busiest] = await database.query<{ id: number }>(
  'SELECT organization_id AS id FROM follow_up_cases WHERE organization_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
);
const one = { kind: 'orgs' as const, exact: [busiest?.id ?? 1], subtreePaths: [] };
const all = { kind: 'all' as const };
const page = { orderBy: [figuresOrderingFields.screen_positives], page: { limit: 10, offset: 0 } };

const lines: [string, () => Promise<unknown>][] = [
  ['figures, ADMIN, all time', () => countFigures(db, all, allTime, {}, now)],
  ['figures, ADMIN, last 30 days', () => countFigures(db, all, last30, {}, now)],
  ['figures, one organization, all time', () => countFigures(db, one, allTime, {}, now)],
  ['table per organization, all time', () => listOrgFigures(db, all, allTime, {}, now, page)],
  ['table per organization, last 30 days', () => listOrgFigures(db, all, last30, {}, now, page)],
];
const out: Record<string, { median: number; min: number }> = {};
for (const [name, run] of lines) {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  out[name] = { median: Math.round(samples[RUNS >> 1]! * 10) / 10, min: Math.round(samples[0]! * 10) / 10 };
}
console.table(out);
await database.close();
