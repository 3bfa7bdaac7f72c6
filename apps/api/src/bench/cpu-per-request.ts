// Node CPU per request of the hot list endpoints, one request at a time through app.inject (no sockets, no
// concurrency): what each request costs the server's event loop, steadier than a concurrent bench's latencies on a
// shared 2-core machine. `node --import tsx apps/api/src/bench/cpu-per-request.ts` with DATABASE_URL of a demo
// database (npm run demo -- --scale 1000000); ONLY=<name> runs one line, N=<requests> sets the count (default 1000).
import { buildApp } from '../app.ts';
import { openPostgres } from '../db/client.ts';
import { benchConfig, benchToken } from './http-bench.ts';

const config = benchConfig();
if (!config.DATABASE_URL) throw new Error('Set DATABASE_URL to a PostgreSQL demo database.');
const database = openPostgres(config.DATABASE_URL);
const app = await buildApp({ config, database, logger: false });
const token = await benchToken(database, config, 'ADMIN');
const headers = { authorization: `Token ${token}`, timezone: 'Asia/Kolkata' };
const [busiest] = await database.query<{ id: number }>(
  'SELECT organization_id AS id FROM scans WHERE organization_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const now = new Date();
const last30 = `date_time_after=${isoDay(new Date(now.getTime() - 30 * 86_400_000))}&date_time_before=${isoDay(now)}`;
const lines: Record<string, string> = {
  // What every signed-in request costs before its own work: routing, hooks, the session, validation, a tiny answer.
  'baseline: a signed-in lookup (app versions, latest)': '/api/v1/app_version/latest/?type=IBE',
  'scans, one organization, 30 days': `/api/v1/scan/?organization=${busiest?.id ?? 1}&${last30}&using_read_db=true`,
  'scans, all': '/api/v1/scan/?using_read_db=true',
  "scans, search 'sha'": '/api/v1/scan/?search=sha&using_read_db=true',
  'patients, all': '/api/v1/patient/?using_read_db=true',
  "patients, search 'sha'": '/api/v1/patient/?search=sha&using_read_db=true',
};
const N = Number(process.env.N ?? 1000);
const rows: Record<string, { 'wall ms': number; 'node cpu ms': number }> = {};
for (const [name, url] of Object.entries(lines)) {
  if (process.env.ONLY && !name.includes(process.env.ONLY)) continue;
  for (let i = 0; i < 200; i++) await app.inject({ method: 'GET', url, headers });
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const res = await app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  const used = process.cpuUsage(cpu);
  rows[name] = {
    'wall ms': Math.round(((performance.now() - t0) / N) * 100) / 100,
    'node cpu ms': Math.round(((used.user + used.system) / 1000 / N) * 100) / 100,
  };
}
console.table(rows);
await app.close();
await database.close();
