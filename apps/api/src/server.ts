// Entry point: configuration, database, migrations, demo data on an empty embedded database, listen.
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openPglite, openPostgres, runMigrations } from './db/client.ts';
import { DEMO_ACCOUNTS } from './demo/accounts.ts';
import { isDatabaseEmpty, seedDemo } from './demo/seed.ts';

const startedAt = Date.now();
const config = loadConfig();
const database = config.DATABASE_URL
  ? openPostgres(config.DATABASE_URL, config.DATABASE_READ_URL)
  : await openPglite(config.dataDir);

await runMigrations(database);

// Demo data: always on an empty embedded database; on PostgreSQL only when asked (LOAD_DEMO=always).
const wantsDemo = config.LOAD_DEMO === 'always' || (config.LOAD_DEMO === 'auto' && config.isEmbedded);
let demoLoaded = false;
if (wantsDemo && (await isDatabaseEmpty(database))) {
  const t0 = Date.now();
  await seedDemo(database, { password: config.DEMO_PASSWORD });
  demoLoaded = true;
  console.log(`Demo data loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
}

const app = await buildApp({ config, database });
await app.listen({ port: config.PORT, host: config.HOST });

const url = `http://localhost:${config.PORT}`;
const lines = [
  '',
  `Screening Console is ready at ${url}  (started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`,
  `API docs: ${url}/api/docs`,
  `Database: ${config.isEmbedded ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}${demoLoaded ? ' (demo data loaded)' : ''}`,
];
if (wantsDemo) {
  lines.push('', `Demo accounts (password ${config.DEMO_PASSWORD === 'Demo@2026' ? 'Demo@2026' : 'from DEMO_PASSWORD'}; or sign in by mobile, country India):`);
  for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.email.padEnd(24)} ${a.user_type.padEnd(19)} +91 ${a.mobile}  ${a.placement}`);
  if (config.outboxReadable) lines.push('', `Sign-in codes and reset links: ${url}/api/v1/dev/outbox/?to=<email or +91-mobile>`);
}
console.log(lines.join('\n'));

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
}
