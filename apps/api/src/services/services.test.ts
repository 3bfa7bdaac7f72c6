import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { outboxMessages, settings } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { stripSecrets } from './audit.service.ts';
import { createServices } from './index.ts';
import type { ServiceLogger } from './logger.ts';
import { createSecretsService } from './secrets.service.ts';
import { generateCode, generateToken, safeEqual, sha256 } from './tokens.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });

function recordingLogger() {
  const lines: string[] = [];
  const fn = (obj: Record<string, unknown>, msg: string) => void lines.push(JSON.stringify({ ...obj, msg }));
  const log: ServiceLogger = { info: fn, warn: fn, error: fn };
  return { log, lines };
}

const received: Array<{ auth: string | undefined; body: string }> = [];
let failNext = false;
const provider = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    received.push({ auth: req.headers.authorization, body });
    res.statusCode = failNext ? 502 : 200;
    res.end('{}');
  });
});
await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/sms`;
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

describe('outbox, SMS and e-mail', () => {
  it('stores a message and logs only the channel, a masked recipient and the id when no provider is set', async () => {
    const { log, lines } = recordingLogger();
    const services = createServices(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      t.database,
      () => new Date(),
      log,
    );
    const row = await services.sms.send({
      to: '+91-9876500001',
      body: '123456 is your code',
      code: '123456',
    });
    expect(row.status).toBe('stored');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('+91-******0001');
    expect(lines[0]).toContain(`"outboxId":${row.id}`);
    expect(lines[0]).not.toContain('123456');
    expect(lines[0]).not.toContain('9876500001');
    await services.close();
  });

  it('posts an SMS to the provider after storing it, and records a failed delivery', async () => {
    const { log, lines } = recordingLogger();
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SMS_PROVIDER_URL: providerUrl,
      SMS_PROVIDER_TOKEN: 'provider-token',
    });
    const services = createServices(config, t.database, () => new Date(), log);
    const sent = await services.sms.send({
      to: '+91-9876500002',
      body: '654321 is your code',
      code: '654321',
    });
    expect(sent.status).toBe('sent');
    expect(received.at(-1)).toEqual({
      auth: 'Bearer provider-token',
      body: JSON.stringify({ to: '+919876500002', body: '654321 is your code' }),
    });

    failNext = true;
    const failed = await services.sms.send({
      to: '+91-9876500003',
      body: '111222 is your code',
      code: '111222',
    });
    failNext = false;
    expect(failed.status).toBe('failed');
    const [row] = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.id, failed.id));
    expect(row?.lastError).toContain('502');
    expect(lines.join('\n')).not.toMatch(/654321|111222/);
    await services.close();
  });

  it('records a failed e-mail when the SMTP server cannot be reached', async () => {
    const { log } = recordingLogger();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SMTP_URL: 'smtp://127.0.0.1:1' });
    const services = createServices(config, t.database, () => new Date(), log);
    const row = await services.mail.send({
      to: 'a@example.com',
      subject: 'Hi',
      body: 'link',
      link: 'http://x/reset',
    });
    expect(row.status).toBe('failed');
    await services.close();
  });
});

describe('signing secret', () => {
  it('is generated once, stored in settings and shared by every instance', async () => {
    const a = createSecretsService({ SECRET_KEY: undefined }, t.database);
    const b = createSecretsService({ SECRET_KEY: undefined }, t.database);
    const [first, second] = await Promise.all([a.getSigningSecret(), b.getSigningSecret()]);
    expect(first).toBe(second);
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    const [row] = await t.database.db.select().from(settings).where(eq(settings.key, 'signing_secret'));
    expect(row?.value).toBe(first);
  });

  it('is SECRET_KEY when configured', async () => {
    expect(
      await createSecretsService({ SECRET_KEY: 'configured-secret-key' }, t.database).getSigningSecret(),
    ).toBe('configured-secret-key');
  });
});

describe('tokens', () => {
  it('draws tokens of at least 128 bits and 6-digit codes', () => {
    expect(Buffer.from(generateToken(8), 'base64url').length).toBe(16);
    expect(generateToken()).not.toBe(generateToken());
    for (let i = 0; i < 50; i++) expect(generateCode()).toMatch(/^\d{6}$/);
  });

  it('compares in constant time and hashes with SHA-256', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(sha256('x')).toHaveLength(64);
  });
});

describe('audit details', () => {
  it('drop every key that names a secret', () => {
    expect(
      stripSecrets({
        email: 'a@b.c',
        password: 'p',
        code: '1',
        nested: { token: 't', ok: 1 },
        reason: 'wrong_password',
        pin_hash: 'h',
      }),
    ).toEqual({
      email: 'a@b.c',
      nested: { ok: 1 },
      reason: 'wrong_password',
    });
  });
});
