// Entry point: configuration, database, migrations, demo data on an empty database in demo mode, listen.
// Start-up failures an operator can fix (demo password, data directory or port in use) print one line saying
// what to do and exit with code 1; anything else keeps its stack trace.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { markNotReady } from './http/health.ts';
import { DEFAULT_DEMO_PASSWORD, loadConfig, type Config } from './config.ts';
import {
  DatabaseInUseError,
  openPglite,
  openPostgres,
  runMigrations,
  withStartupLock,
  type Database,
} from './db/client.ts';
import { DEMO_ACCOUNTS } from './demo/accounts.ts';
import { isDatabaseEmpty, seedDemo } from './demo/seed.ts';

/** One line telling the operator what to do about a start-up failure, or null when it is not one of ours. */
export function startupFailureMessage(error: unknown, config: Pick<Config, 'PORT' | 'HOST' | 'dataDir'>): string | null {
  if (error instanceof DatabaseInUseError) {
    return (
      `Another server (process ${error.pid}) is using the database in ${error.directory}: stop it first, ` +
      `or give this one its own DATA_DIR (and PORT).`
    );
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') {
    return `Port ${config.PORT} on ${config.HOST} is already in use (another server?): stop it, or set PORT to a free port.`;
  }
  if (code === 'EADDRNOTAVAIL') return `HOST=${config.HOST} is not an address of this machine: set HOST to one that is.`;
  if (code === 'EACCES') return `Port ${config.PORT} needs privileges this process does not have: set PORT above 1024.`;
  return null;
}

function bannerLines(config: Config, demoLoaded: boolean, seconds: number): string[] {
  const everywhere = config.HOST === '0.0.0.0' || config.HOST === '::';
  const host = everywhere || config.HOST === '127.0.0.1' || config.HOST === '::1' ? 'localhost' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
  const reach = everywhere
    ? 'on every network interface'
    : config.HOST === '127.0.0.1' || config.HOST === '::1'
      ? 'this machine only; set HOST=0.0.0.0 to accept others'
      : `on ${config.HOST}`;
  const lines = [
    '',
    `Screening Console is ready at ${url}  (${reach}; started in ${seconds.toFixed(1)} s)`,
    `Database: ${config.isEmbedded ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}${demoLoaded ? ' (demo data loaded)' : ''}`,
  ];
  if (config.apiDocs !== 'off') {
    lines.push(`API docs: ${url}/api/docs${config.apiDocs === 'admin' ? '  (ADMIN sessions only)' : ''}`);
  }
  if (config.demo.load) {
    const password = config.DEMO_PASSWORD === DEFAULT_DEMO_PASSWORD ? DEFAULT_DEMO_PASSWORD : 'from DEMO_PASSWORD';
    lines.push('', `Demo accounts (password ${password}; or sign in by mobile, country India):`);
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.email.padEnd(24)} ${a.user_type.padEnd(19)} +91 ${a.mobile}  ${a.placement}`);
    if (config.outboxReadable) {
      lines.push('', `Sign-in codes and reset links (from this machine): ${url}/api/v1/dev/outbox/?to=<email or +91-mobile>`);
    }
  }
  return lines;
}

export async function main(): Promise<void> {
  const startedAt = Date.now();
  const config = loadConfig();
  if (config.demo.refuse) {
    console.error(config.demo.refuse);
    process.exit(1);
  }

  let database: Database | undefined;
  let app: FastifyInstance | undefined;
  try {
    database = config.DATABASE_URL
      ? openPostgres(config.DATABASE_URL, config.DATABASE_READ_URL, { replicaMaxLagMs: config.REPLICA_MAX_LAG_MS })
      : await openPglite(config.dataDir);
    const onWait = () => console.log('Another instance is migrating or loading the demo data: waiting for it.');
    await runMigrations(database, { onWait });

    const db = database;
    // Under the start-up lock: of instances starting together on an empty database, one loads the demo, the
    // others wait and then find it loaded.
    const demoLoaded =
      config.demo.load &&
      (await withStartupLock(db, async () => {
        if (!(await isDatabaseEmpty(db))) return false;
        const t0 = Date.now();
        await seedDemo(db, { password: config.DEMO_PASSWORD });
        console.log(`Demo data loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
        return true;
      }, { onWait }));

    app = await buildApp({ config, database });
    await app.listen({ port: config.PORT, host: config.HOST });
    console.log(bannerLines(config, demoLoaded, (Date.now() - startedAt) / 1000).join('\n'));
  } catch (error) {
    const message = startupFailureMessage(error, config);
    if (!message) throw error;
    console.error(message);
    await app?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    process.exit(1);
  }

  const running = { app, database };
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      void shutDown(running, config.SHUTDOWN_TIMEOUT_SECONDS * 1000).then((code) => process.exit(code));
    });
  }
}

/**
 * A graceful stop (SIGTERM from systemd or a rolling restart; SIGINT): nothing accepted is lost.
 * 1. The workers fetch no new job (running ones go on; another instance takes the queue).
 * 2. Fastify's close: requests arriving on open keep-alive connections get 503 with `Connection: close` (the proxy
 *    sends them to another instance), idle connections are closed, the listener stops accepting, and in-flight
 *    requests run to their end; then the onClose hooks stop the queue, waiting for running jobs, and the services.
 * 3. The pools close. Exit 0.
 * Past `timeoutMs`, connections still open are cut and the process exits 1 (a job cut short is retried by pg-boss
 * after its expiry). systemd's TimeoutStopSec must be longer than SHUTDOWN_TIMEOUT_SECONDS.
 */
export async function shutDown(
  running: { app: FastifyInstance; database: Database },
  timeoutMs: number,
): Promise<number> {
  const { app, database } = running;
  const deadline = Date.now() + timeoutMs;
  app.log.info({ timeoutMs }, 'shutting down: finishing in-flight requests and jobs');
  // Readiness: /readyz answers 503 'shutdown' from now on (http/health.ts), while the job workers stop; from
  // app.close() on, Fastify answers 503 to every new request, so the proxy stops sending here.
  markNotReady(app);
  let timer: NodeJS.Timeout | undefined;
  // A connection whose answer began before the close (a long CSV) goes idle after it, and Node closes idle
  // connections only once, at the close: close each as it goes idle, or it would hold the close for keepAliveTimeout.
  const reaper = setInterval(() => app.server.closeIdleConnections(), 250);
  const overdue = new Promise<'overdue'>((resolve) => {
    timer = setTimeout(() => resolve('overdue'), timeoutMs);
  });
  const closed = (async () => {
    await app.ctx.services.queue
      .stopWorkers(deadline)
      .catch((error: unknown) => app.log.warn({ err: error }, 'job workers did not stop'));
    await app.close();
    await database.close();
    return 'closed' as const;
  })();
  try {
    if ((await Promise.race([closed, overdue])) === 'closed') return 0;
    app.log.warn({ timeoutMs }, 'shutdown took too long: closing the connections still open');
    app.server.closeAllConnections();
    return 1;
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    return 1;
  } finally {
    clearTimeout(timer);
    clearInterval(reaper);
  }
}

// Run when started as a program (npm start, tsx watch), not when a test imports startupFailureMessage.
const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(path.resolve(entry)).href) await main();
