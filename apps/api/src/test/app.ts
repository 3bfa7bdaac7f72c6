// Builds the app on a fresh database for one test file, with a controllable clock and the outbox as mail/SMS.
import { afterAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createTestDatabase } from './database.ts';

export type TestClock = { now: () => Date; advance: (ms: number) => void; set: (d: Date) => void };

export function createClock(): TestClock {
  let offset = 0;
  let fixed: Date | null = null;
  return {
    now: () => new Date((fixed ?? new Date()).getTime() + offset),
    advance: (ms) => {
      offset += ms;
    },
    set: (d) => {
      fixed = d;
      offset = 0;
    },
  };
}

export type TestContext = { app: FastifyInstance; database: Database; clock: TestClock };

/** Call at the top of a test file: `const t = await setupTestApp();` The app closes after the file. */
export async function setupTestApp(env: Record<string, string> = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const clock = createClock();
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '.test-data', SECRET_KEY: 'test-secret-key-0123456789', ...env },
  );
  const app = await buildApp({ config, database, logger: false, now: clock.now });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database, clock };
}
