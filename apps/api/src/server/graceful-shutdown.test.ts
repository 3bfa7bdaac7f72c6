// A rolling restart loses nothing: on SIGTERM the server (a real child process, on PostgreSQL with TEST_DATABASE_URL,
// else on its own PGlite directory) stops accepting connections, closes idle keep-alive ones, lets a request already
// in flight finish with its answer, and exits 0; a request that never finishes is cut at SHUTDOWN_TIMEOUT_SECONDS.
// The in-flight request is made slow by the test itself: its body is sent in two halves, the second after SIGTERM.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { spawnServer, type ServerProcess } from '../test/server-process.ts';

// A valid Indian number with no account: the answer is 200 'Code sent.' all the same (and no SMS leaves).
const BODY = JSON.stringify({ mobile: '8681562330', mobile_country_code: 'IN' });

const database = process.env.TEST_DATABASE_URL ? await createTestDatabase() : null;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-shutdown-'));
afterAll(async () => {
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the server on `port` (PostgreSQL or its own PGlite directory) and waits until it is ready. */
async function startServer(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const server = spawnServer({
    PORT: String(port),
    DATA_DIR: path.join(dataDir, String(port)),
    ...(database ? { DATABASE_URL: database.pool!.options.connectionString! } : {}),
    ...env,
  });
  try {
    // A fresh PGlite directory is migrated at start: ~25 s on a loaded machine.
    await server.ready(90_000);
  } catch (error) {
    server.child.kill('SIGKILL');
    throw error;
  }
  return server;
}

/** A raw HTTP/1.1 connection: what it received, and whether the server closed it. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return { socket, received: () => received, closed };
}

/** Whether a new TCP connection to `port` is refused. */
function isRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const until = async (check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
};

const requestHead = (length: number) =>
  'POST /api/v1/auth/otp/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
  `Content-Length: ${length}\r\n\r\n`;

describe('SIGTERM', () => {
  it('finishes the request in flight, refuses new connections, closes idle ones and exits 0', async () => {
    const port = 8111;
    const server = await startServer(port, { SHUTDOWN_TIMEOUT_SECONDS: '20' });
    try {
      // An idle keep-alive connection (one answered request), as a proxy keeps.
      const idle = connect(port);
      idle.socket.write('GET /api/v1/no-such-path/ HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(await until(() => idle.received().includes('\r\n\r\n'), 10_000)).toBe(true);
      expect(idle.received()).toMatch(/^HTTP\/1\.1 404/);

      // A request in flight: its headers and half its body sent.
      const inFlight = connect(port);
      inFlight.socket.write(requestHead(Buffer.byteLength(BODY)) + BODY.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 500));

      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      expect(await until(() => isRefused(port), 5_000)).toBe(true);
      await idle.closed;
      expect(server.child.exitCode).toBeNull();

      inFlight.socket.write(BODY.slice(10));
      await inFlight.closed;
      const answer = inFlight.received();
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(answer).toContain('"detail":"Code sent."');

      const { code, at } = await server.exited;
      expect(code).toBe(0);
      expect(at - signalledAt).toBeLessThan(20_000);
      expect(server.output()).not.toMatch(/shutdown (took too long|failed)/);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 150_000);

  it('cuts a request that does not finish within SHUTDOWN_TIMEOUT_SECONDS and exits 1', async () => {
    const port = 8112;
    const server = await startServer(port, { SHUTDOWN_TIMEOUT_SECONDS: '2' });
    try {
      const stuck = connect(port);
      stuck.socket.write(requestHead(Buffer.byteLength(BODY)) + BODY.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const { code, at } = await server.exited;
      expect(code).toBe(1);
      expect(at - signalledAt).toBeGreaterThanOrEqual(1_900);
      expect(at - signalledAt).toBeLessThan(6_000);
      await stuck.closed;
      expect(stuck.received()).toBe('');
      expect(server.output()).toContain('shutdown took too long');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 150_000);
});
