// `npm run create-admin -- --email E --name "First Last" [--mobile +91…] [--country IN] [--if-none]`, on the
// configured database (DATABASE_URL, or the embedded one under DATA_DIR, which needs the server stopped). Migrates
// first, under the start-up lock, like a starting server. Exit codes: 0 done, 1 refused (one line), 2 wrong options.
import { loadConfig } from '../config.ts';
import { DatabaseInUseError, openPglite, openPostgres, runMigrations, type Database } from '../db/client.ts';
import { createAuditService } from '../services/audit.service.ts';
import { createConsoleLogger } from '../services/logger.ts';
import { createMailService } from '../services/mail.service.ts';
import { createOutboxService } from '../services/outbox.service.ts';
import { parseCreateAdminArgs, runCreateAdmin } from './create-admin.ts';

async function main(argv: string[]): Promise<number> {
  // A wrong command line is refused before the database is opened: nothing is changed, not even a migration.
  const checked = parseCreateAdminArgs(argv);
  if (typeof checked === 'string') {
    console.error(checked);
    return 2;
  }
  const config = loadConfig();
  let database: Database;
  try {
    database = config.DATABASE_URL ? openPostgres(config.DATABASE_URL) : await openPglite(config.dataDir);
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    console.error(
      `The embedded database in ${error.directory} is in use by process ${error.pid} (the server?): stop it, then run this again.`,
    );
    return 1;
  }
  const now = () => new Date();
  // Mail only: the outbox keeps the message (and the link) whether or not SMTP_URL is set.
  const mail = createMailService(config, createOutboxService(database, now, createConsoleLogger('warn')));
  try {
    await runMigrations(database, {
      onWait: () => console.log('Another instance is migrating; waiting for it…'),
    });
    const result = await runCreateAdmin(
      { config, database, now, services: { mail, audit: createAuditService(database, now) } },
      argv,
    );
    for (const line of result.lines) (result.code === 0 ? console.log : console.error)(line);
    return result.code;
  } finally {
    mail.close();
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
