// What a probe and a scrape cost (issue 25): /healthz and /readyz polled 1000 times, /metrics scraped 100 times,
// through app.inject (the app's own work, no socket), on a fresh migrated database: the embedded one in a temporary
// folder, or PostgreSQL at DATABASE_URL. Wall and process CPU per request.
// `node --import tsx apps/api/src/bench/readiness-bench.ts` (add DATABASE_URL=postgres://… for PostgreSQL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPglite, openPostgres, runMigrations } from '../db/client.ts';

const METRICS_TOKEN = 'bench-metrics-token-0123456789';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-readiness-bench-'));
const url = process.env.DATABASE_URL;
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATA_DIR: dataDir,
  SECRET_KEY: 'bench-secret-key-0123456789',
  METRICS_TOKEN,
  ...(url ? { DATABASE_URL: url } : {}),
});
const database = url ? openPostgres(url) : await openPglite(dataDir);
await runMigrations(database);
const app = await buildApp({ config, database, logger: false });
await app.ready();

async function measure(label: string, n: number, request: InjectOptions) {
  const first = await app.inject(request);
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await app.inject(request);
    if (res.statusCode !== first.statusCode)
      throw new Error(`${label}: ${res.statusCode} after ${first.statusCode}`);
  }
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    request: label,
    status: first.statusCode,
    n,
    'wall ms/request': Math.round((wall / n) * 1000) / 1000,
    'cpu ms/request': Math.round(((used.user + used.system) / 1000 / n) * 1000) / 1000,
  };
}

try {
  console.log(`readiness bench on ${database.kind}`);
  console.table([
    await measure('GET /healthz', 1000, { method: 'GET', url: '/healthz' }),
    await measure('GET /readyz', 1000, { method: 'GET', url: '/readyz' }),
    await measure('GET /metrics', 100, {
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    }),
  ]);
} finally {
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
