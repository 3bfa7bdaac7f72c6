// Start-up decisions: where the server listens, whom it trusts for X-Forwarded-For, when demo data is loaded
// (never silently in production), and the one-line messages for failures an operator can fix.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, planDemo } from '../config.ts';
import { DatabaseInUseError, openPglite } from '../db/client.ts';
import { startupFailureMessage } from '../server.ts';

const base = { DEMO_PASSWORD: 'Demo@2026', DATABASE_URL: undefined };

describe('planDemo', () => {
  it('in production never loads demo data unless LOAD_DEMO=always', () => {
    expect(planDemo({ ...base, NODE_ENV: 'production', LOAD_DEMO: 'auto' })).toEqual({ load: false });
    expect(planDemo({ ...base, NODE_ENV: 'production', LOAD_DEMO: 'never' })).toEqual({ load: false });
    expect(planDemo({ ...base, NODE_ENV: 'production', LOAD_DEMO: 'auto', DATABASE_URL: 'postgres://db/x' })).toEqual({ load: false });
  });

  it('in production refuses to start with LOAD_DEMO=always and the published demo password', () => {
    const plan = planDemo({ ...base, NODE_ENV: 'production', LOAD_DEMO: 'always' });
    expect(plan.load).toBe(false);
    expect(plan.refuse).toMatch(/DEMO_PASSWORD/);
    expect(plan.refuse).not.toContain('\n');
    expect(planDemo({ ...base, NODE_ENV: 'production', LOAD_DEMO: 'always', DEMO_PASSWORD: 'An0ther-Pass!' })).toEqual({ load: true });
  });

  it('outside production loads into the embedded database, or PostgreSQL when asked', () => {
    expect(planDemo({ ...base, NODE_ENV: 'development', LOAD_DEMO: 'auto' })).toEqual({ load: true });
    expect(planDemo({ ...base, NODE_ENV: 'development', LOAD_DEMO: 'auto', DATABASE_URL: 'postgres://db/x' })).toEqual({ load: false });
    expect(planDemo({ ...base, NODE_ENV: 'development', LOAD_DEMO: 'always', DATABASE_URL: 'postgres://db/x' })).toEqual({ load: true });
    expect(planDemo({ ...base, NODE_ENV: 'development', LOAD_DEMO: 'never' })).toEqual({ load: false });
  });

  it('the outbox is readable only in demo mode, never in production', () => {
    expect(loadConfig({}).outboxReadable).toBe(true);
    expect(loadConfig({ LOAD_DEMO: 'never' }).outboxReadable).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).outboxReadable).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', LOAD_DEMO: 'always', DEMO_PASSWORD: 'An0ther-Pass!' }).outboxReadable).toBe(false);
  });
});

describe('configuration', () => {
  it('listens on loopback only unless HOST says otherwise', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('trusts no proxy by default; TRUST_PROXY takes true, a hop count or addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(/TRUST_PROXY/);
  });

  it('gives in-flight requests and jobs 25 s on SIGTERM unless SHUTDOWN_TIMEOUT_SECONDS says otherwise', () => {
    expect(loadConfig({}).SHUTDOWN_TIMEOUT_SECONDS).toBe(25);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '60' }).SHUTDOWN_TIMEOUT_SECONDS).toBe(60);
    for (const bad of ['0', '-5', '2.5', 'soon']) {
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: bad })).toThrow(/SHUTDOWN_TIMEOUT_SECONDS/);
    }
  });

  it('serves the API docs publicly outside production and to ADMINs in production, unless configured', () => {
    expect(loadConfig({}).apiDocs).toBe('public');
    expect(loadConfig({ NODE_ENV: 'production' }).apiDocs).toBe('admin');
    expect(loadConfig({ NODE_ENV: 'production', API_DOCS: 'off' }).apiDocs).toBe('off');
    expect(() => loadConfig({ API_DOCS: 'yes' })).toThrow();
  });
});

describe('start-up failures', () => {
  const config = { PORT: 8080, HOST: '127.0.0.1', dataDir: '/srv/data' };

  it('a second server on the same data directory is told in one line to stop the other or set DATA_DIR/PORT', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-lock-'));
    // The lock file names a live process other than this one: the parent (the test runner).
    fs.writeFileSync(path.join(dir, 'pgdata.lock'), String(process.ppid));
    try {
      const error = await openPglite(dir).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DatabaseInUseError);
      const message = startupFailureMessage(error, { ...config, dataDir: dir });
      expect(message).toContain(`process ${process.ppid}`);
      expect(message).toMatch(/stop it/);
      expect(message).toMatch(/DATA_DIR/);
      expect(message).not.toContain('\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a port already in use is told in one line to stop the other server or set PORT', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    const second = net.createServer();
    const error = await new Promise<unknown>((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    holder.close();
    const message = startupFailureMessage(error, { ...config, PORT: port });
    expect(message).toBe(`Port ${port} on 127.0.0.1 is already in use (another server?): stop it, or set PORT to a free port.`);
  });

  it('other failures keep their stack trace', () => {
    expect(startupFailureMessage(new Error('migration failed'), config)).toBeNull();
  });
});
