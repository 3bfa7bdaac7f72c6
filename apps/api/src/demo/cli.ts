// `npm run demo -- [--scale N] [--seed N] [--password P] [--reset]`: loads the demo programme into the configured
// database (PGlite under DATA_DIR, or DATABASE_URL). Refuses a database that already holds data unless --reset,
// which drops every table first.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openPglite, openPostgres, runMigrations, type Database } from '../db/client.ts';
import { DEMO_ACCOUNTS } from './accounts.ts';
import { DEFAULT_SCALE, isDatabaseEmpty, seedDemo } from './seed.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    seed: { type: 'string' },
    password: { type: 'string' },
    reset: { type: 'boolean', default: false },
  },
});

const config = loadConfig();
const scale = values.scale ? Number(values.scale) : DEFAULT_SCALE;
if (!Number.isInteger(scale) || scale < 100) {
  console.error('--scale must be a whole number of scans, at least 100.');
  process.exit(2);
}

const database: Database = config.DATABASE_URL
  ? openPostgres(config.DATABASE_URL)
  : await openPglite(config.dataDir);
try {
  if (values.reset) {
    console.log('Dropping every table (--reset)…');
    await database.exec(
      'DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public;',
    );
  }
  await runMigrations(database);
  if (!(await isDatabaseEmpty(database))) {
    console.error(
      'The database already holds organizations or users. Run with --reset to replace everything with demo data.',
    );
    process.exitCode = 1;
  } else {
    console.log(
      `Loading ${scale.toLocaleString('en')} scans into ${config.isEmbedded ? `PGlite in ${config.dataDir}` : 'PostgreSQL'}…`,
    );
    const started = performance.now();
    const summary = await seedDemo(database, {
      password: values.password ?? config.DEMO_PASSWORD,
      scale,
      seed: values.seed ? Number(values.seed) : undefined,
      log: (message) =>
        console.log(`  ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  ${message}`),
    });
    console.table(summary.counts);
    console.log(`Demo data loaded in ${(summary.ms / 1000).toFixed(1)} s. Accounts:`);
    for (const a of DEMO_ACCOUNTS)
      console.log(`  ${a.email.padEnd(24)} ${a.user_type.padEnd(19)} +91 ${a.mobile}`);
  }
} finally {
  await database.close();
}
