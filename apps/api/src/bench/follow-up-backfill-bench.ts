// `node --import tsx apps/api/src/bench/follow-up-backfill-bench.ts`: runs the follow-up backfill on the configured
// database (DATABASE_URL, e.g. a demo loaded with `npm run demo -- --scale N`) twice and prints what it did and how
// long it took: the first run opens the cases of every stored positive, the second finds them all linked.
import { count } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPglite, openPostgres } from '../db/client.ts';
import { followUpCases, scans } from '../db/schema/index.ts';
import { backfillFollowUp } from '../jobs/follow-up-backfill.job.ts';

const config = loadConfig();
const database = config.DATABASE_URL ? openPostgres(config.DATABASE_URL) : await openPglite(config.dataDir);
const app = await buildApp({ config, database });
try {
  const [scanCount] = await database.db.select({ n: count() }).from(scans);
  for (const run of [1, 2]) {
    const t0 = performance.now();
    const counts = await backfillFollowUp(app.ctx);
    const ms = performance.now() - t0;
    const [cases] = await database.db.select({ n: count() }).from(followUpCases);
    console.log(`run ${run}: ${(ms / 1000).toFixed(1)} s over ${scanCount?.n} scans`, counts, `cases ${cases?.n}`);
  }
} finally {
  await app.close();
  await database.close();
}
