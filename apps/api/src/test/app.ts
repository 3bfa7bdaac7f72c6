// Builds the app on a fresh database for one test file, with a controllable clock and the outbox as mail/SMS.
import { Writable } from 'node:stream';
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

export type TestAppOptions = {
  /** Write the app's log lines (JSON, at LOG_LEVEL, default info) here instead of discarding them. */
  logStream?: NodeJS.WritableStream;
};

/** Call at the top of a test file: `const t = await setupTestApp();` The app closes after the file. */
export async function setupTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const clock = createClock();
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: options.logStream ? 'info' : 'silent',
      DATA_DIR: '.test-data',
      SECRET_KEY: 'test-secret-key-0123456789',
      ...env,
    },
  );
  const logger = options.logStream ? { stream: options.logStream } : false;
  const app = await buildApp({ config, database, logger, now: clock.now });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database, clock };
}

/** A writable stream that keeps what is written: `const log = captureLog(); … expect(log.text()).not.toContain(x)`. */
export function captureLog(): NodeJS.WritableStream & { text: () => string; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return Object.assign(stream, {
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  });
}
