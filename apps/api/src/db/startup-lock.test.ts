// Several instances starting at once on one empty PostgreSQL database (a rolling deploy, a scaled-out start): the
// migrations and the demo load run under one advisory lock, so one instance does the work, the others wait for it,
// and none fails. PostgreSQL only (TEST_DATABASE_URL); PGlite is one process per data directory (its lock file).
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../demo/accounts.ts';
import { withDatabase } from '../test/global-setup.ts';
import { spawnServer } from '../test/server-process.ts';
import { MIGRATIONS_DIR, openPostgres, runMigrations, withStartupLock, type Database } from './client.ts';

const url = process.env.TEST_DATABASE_URL;
const created: string[] = [];

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new empty database (no template: nothing migrated) and its URL. */
async function emptyDatabase(): Promise<string> {
  const name = `sc_lock_${process.pid}_${Date.now()}_${created.length}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  created.push(name);
  return withDatabase(url!, name);
}

afterAll(async () => {
  if (!url) return;
  await admin(async (c) => {
    for (const name of created) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
});

const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

describe.skipIf(!url)('the start-up lock (PostgreSQL)', () => {
  it('lets four instances migrate an empty database at once: all succeed, each migration is applied once', async () => {
    const target = await emptyDatabase();
    // Four pools, as four server processes would have.
    const instances: Database[] = Array.from({ length: 4 }, () => openPostgres(target));
    try {
      const outcomes = await Promise.allSettled(instances.map((database) => runMigrations(database)));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
      const rows = await instances[0]!.query<{ hash: string; n: number }>(
        'SELECT hash, count(*)::int AS n FROM drizzle.__drizzle_migrations GROUP BY hash',
      );
      expect(rows).toHaveLength(journal.entries.length);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      // Every instance sees the head: a table of the last migration is there for each.
      for (const database of instances) {
        const [row] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
        expect(row?.n).toBe(journal.entries.length);
      }
      // No instance kept the lock (its connection was closed).
      const [held] = await instances[0]!.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(held?.n).toBe(0);
    } finally {
      await Promise.all(instances.map((database) => database.close()));
    }
  });

  it('runs the work of instances starting together one after another, and releases the lock when it throws', async () => {
    const target = await emptyDatabase();
    const instances: Database[] = Array.from({ length: 3 }, () => openPostgres(target));
    try {
      let inside = 0;
      let most = 0;
      let waited = 0;
      const enter = async () => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 50));
        inside--;
      };
      // The first instance holds the lock until the two others have been told they wait.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const firstIn = new Promise<void>((resolve) => (entered = resolve));
      const first = withStartupLock(instances[0]!, async () => {
        entered();
        await enter();
        await held;
      });
      await firstIn;
      const others = instances.slice(1).map((database) => withStartupLock(database, enter, { onWait: () => waited++ }));
      for (let i = 0; i < 200 && waited < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(waited).toBe(2);
      release();
      await Promise.all([first, ...others]);
      expect(most).toBe(1);

      // A failed migration (or demo load) leaves the lock free for the next instance.
      await expect(
        withStartupLock(instances[0]!, () => Promise.reject(new Error('migration failed'))),
      ).rejects.toThrow('migration failed');
      await expect(withStartupLock(instances[1]!, () => Promise.resolve('next'))).resolves.toBe('next');
    } finally {
      await Promise.all(instances.map((database) => database.close()));
    }
  });

  it('loads the demo once when two servers with LOAD_DEMO=always start together on an empty database', async () => {
    const target = await emptyDatabase();
    const servers = [8113, 8114].map((port) =>
      spawnServer({ PORT: String(port), DATABASE_URL: target, LOAD_DEMO: 'always', SHUTDOWN_TIMEOUT_SECONDS: '5' }),
    );
    const database = openPostgres(target);
    try {
      // Both come up (neither fails on the other's migrations or demo rows)…
      await Promise.all(servers.map((server) => server.ready(90_000)));
      // …and one of them loaded the demo, once.
      const loaded = servers.filter((server) => server.output().includes('Demo data loaded'));
      expect(loaded).toHaveLength(1);
      const emails = DEMO_ACCOUNTS.map((a) => a.email.toLowerCase());
      const rows = await database.query<{ email: string; n: number }>(
        'SELECT lower(email) AS email, count(*)::int AS n FROM users WHERE lower(email) = ANY($1) GROUP BY 1',
        [emails],
      );
      expect(rows).toHaveLength(emails.length);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      // And they stop cleanly.
      for (const server of servers) server.child.kill('SIGTERM');
      expect((await Promise.all(servers.map((server) => server.exited))).map((e) => e.code)).toEqual([0, 0]);
    } finally {
      for (const server of servers) server.child.kill('SIGKILL');
      await database.close();
    }
  }, 150_000);
});
