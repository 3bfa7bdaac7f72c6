// Starts the built console + API once per e2e worker, each on a free port with its own throwaway database loaded
// with demo data: PGlite in a temporary DATA_DIR, or a throwaway PostgreSQL database when TEST_DATABASE_URL is set.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export type Server = { baseUrl: string; stop: () => Promise<void> };

/**
 * One console + API with its own throwaway database (PGlite in a temporary DATA_DIR, or a PostgreSQL database). Also
 * the web bench's server (web-bench.ts).
 */
export async function startServer(): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Not 'test': the server must run its job workers so webhooks are delivered.
    NODE_ENV: 'development',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOAD_DEMO: 'always',
    RATE_LIMIT_DISABLED: 'true',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  let dbName: string | undefined;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    dbName = `sc_e2e_${process.pid}_${port}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  }
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (output += d.toString()));

  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl && dbName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  // Demo data loads in ~15 s on an idle machine; two servers starting together at a load average of 20 took longer.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`server exited early:\n${output}`);
    }
    try {
      const r = await fetch(`${baseUrl}/api/v1/timezone/`);
      if (r.ok && output.includes('ready')) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { baseUrl, stop };
}

/**
 * One server per Vitest worker, so two journey files run side by side without sharing data (a journey never
 * sees another file's changes half-way). browser.ts picks its worker's server by VITEST_POOL_ID.
 */
export default async function setup(project: TestProject) {
  // No more servers than files: `vitest run … e2e/one.e2e.ts` starts one. (filenamePattern: the run's CLI filters.)
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters);
  const count = Math.max(1, Math.min(project.config.maxWorkers, testFiles.length));
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer()));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failure = started.find((s) => s.status === 'rejected');
  if (failure) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failure.reason;
  }
  project.provide('baseUrls', servers.map((s) => s.baseUrl));
  project.provide('baseUrl', servers[0]!.baseUrl);

  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    /** The first server's address. */
    baseUrl: string;
    /** One server per worker (VITEST_POOL_ID 1 → index 0). */
    baseUrls: string[];
  }
}
