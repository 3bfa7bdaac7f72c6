// E-mail through a real SMTP server (test/smtp-server.ts: smtp-server with AUTH, messages parsed back with
// mailparser), not the outbox alone: what leaves is what a mailbox would read, a reset link that arrives works, and a
// refused login, a server that is down or silent, or a certificate we cannot trust never fails the user's request:
// the outbox row says 'failed' with the reason, and the answer is the same as when the mail went.
import net from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import { loadConfig } from '../config.ts';
import { outboxMessages } from '../db/schema/index.ts';
import { captureLog, setupTestApp, type TestContext } from '../test/app.ts';
import { createUser } from '../test/factories.ts';
import { startSmtpServer } from '../test/smtp-server.ts';
import { createMailService } from './mail.service.ts';
import { createOutboxService } from './outbox.service.ts';

const MAIL_FROM = 'Screening Console <mailer@screening.test>';
const PUBLIC_URL = 'https://console.screening.test';

const smtp = await startSmtpServer();
afterAll(() => smtp.stop());
const t = await setupTestApp({ SMTP_URL: smtp.url, MAIL_FROM, PUBLIC_URL });

const badLog = captureLog();
const wrongPassword = 'not-the-mail-password';
const bad = await setupTestApp(
  { SMTP_URL: smtp.url.replace(encodeURIComponent(smtp.password), wrongPassword), MAIL_FROM, PUBLIC_URL },
  { logStream: badLog },
);

const post = (ctx: TestContext, url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload });

const outboxOf = async (ctx: TestContext, to: string) =>
  ctx.database.db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.to, to))
    .orderBy(desc(outboxMessages.id));

/** The mail service of `t`'s database with another SMTP_URL: the outbox and its rows are the app's. */
const mailServiceFor = (smtpUrl: string) =>
  createMailService(
    { SMTP_URL: smtpUrl, MAIL_FROM },
    createOutboxService(t.database, t.clock.now, {
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    }),
  );

describe('e-mail through a real SMTP server', () => {
  it('sends a message from MAIL_FROM to the recipient with its subject and body, and marks it sent', async () => {
    const to = `reader-${Date.now()}@example.org`;
    const row = await t.app.ctx.services.mail.send({
      to,
      subject: 'Your booking at Clinic Nord',
      body: 'Your booking is confirmed.\nhttps://console.screening.test/bookings/7',
      link: 'https://console.screening.test/bookings/7',
    });
    const mail = await smtp.waitFor((m) => m.to.includes(to));
    expect(mail.from).toBe('mailer@screening.test');
    expect(mail.parsed.from?.value[0]?.name).toBe('Screening Console');
    expect(mail.envelope).toEqual({ from: 'mailer@screening.test', to: [to] });
    expect(mail.subject).toBe('Your booking at Clinic Nord');
    expect(mail.text).toContain('https://console.screening.test/bookings/7');
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row.sentAt).not.toBeNull();
  });

  it('delivers a password reset link that arrives working: the token from the e-mail sets the new password', async () => {
    const user = await createUser(t, { firstName: 'Meera' });
    const res = await post(t, 'auth/password-reset/', { email: user.email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: AUTH_MESSAGES.resetLinkSent(user.email!) });

    const mail = await smtp.waitFor((m) => m.to.includes(user.email!.toLowerCase()));
    expect(mail.subject).toBe('Reset your Screening Console password');
    expect(mail.text).toContain('Hello Meera,');
    const link = /https:\/\/console\.screening\.test\/reset-password\?token=\S+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token')!;

    const done = await post(t, 'auth/password-reset/confirm/', { token, password: 'Mailed-link-pass7' });
    expect(done.statusCode, done.body).toBe(200);
    const signIn = await post(t, 'auth/password/', { email: user.email, password: 'Mailed-link-pass7' });
    expect(signIn.statusCode).toBe(200);
  });

  it('sends over STARTTLS when the server offers it, with certificate checks as SMTP_URL says', async () => {
    const tls = await startSmtpServer({ starttls: true });
    try {
      const to = `tls-${Date.now()}@example.org`;
      const row = await mailServiceFor(tls.url).send({ to, subject: 'Over TLS', body: 'sealed' });
      expect(row.status).toBe('sent');
      expect((await tls.waitFor((m) => m.to.includes(to))).text).toContain('sealed');

      // Without `tls.rejectUnauthorized=false` the self-signed certificate is refused: checks are on by default.
      const strict = tls.url.replace('&tls.rejectUnauthorized=false', '');
      const refused = await mailServiceFor(strict).send({ to, subject: 'Not sent', body: 'x' });
      expect(refused.status).toBe('failed');
      expect(refused.lastError).toMatch(/certificate/i);
      expect(tls.messages.filter((m) => m.subject === 'Not sent')).toEqual([]);
    } finally {
      await tls.stop();
    }
  });
});

describe('SMTP_URL', () => {
  it('is refused at start-up unless it is an smtp:// or smtps:// URL', () => {
    for (const url of ['mail.example.org:587', 'http://mail.example.org', 'smtp:/mail.example.org']) {
      expect(() => loadConfig({ SMTP_URL: url })).toThrow(/SMTP_URL: an smtp:\/\/ or smtps:\/\/ URL/);
    }
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.org:465' }).SMTP_URL).toBe(
      'smtps://u:p@mail.example.org:465',
    );
    expect(loadConfig({ SMTP_URL: '' }).SMTP_URL).toBe('');
  });
});

describe('e-mail that cannot be delivered never fails the request', () => {
  it('answers a reset request as usual when the SMTP server refuses our login, and records why in the outbox', async () => {
    const user = await createUser(bad);
    const failuresBefore = smtp.authFailures;
    const res = await post(bad, 'auth/password-reset/', { email: user.email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: AUTH_MESSAGES.resetLinkSent(user.email!) });

    const [row] = await outboxOf(bad, user.email!);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
    expect(row!.lastError).toMatch(/Invalid login: 535/);
    expect(smtp.authFailures).toBeGreaterThan(failuresBefore);
    expect(smtp.messages.filter((m) => m.to.includes(user.email!.toLowerCase()))).toEqual([]);
    // The reason is logged; the password in SMTP_URL and the reset link's token are not.
    expect(badLog.text()).toContain('message delivery failed');
    expect(badLog.text()).not.toContain(wrongPassword);
    expect(badLog.text()).not.toContain(row!.link!.split('token=')[1]);
  });

  it('records a failure at once when nothing listens at SMTP_URL', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const started = Date.now();
    const row = await mailServiceFor(`smtp://u:p@127.0.0.1:${port}`).send({
      to: 'down@example.org',
      subject: 's',
      body: 'b',
    });
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up on a server that takes the connection and never greets, after the greeting timeout', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const started = Date.now();
      // The defaults (SMTP_TIMEOUTS: 10 s) are shortened through SMTP_URL's query, as an operator may.
      const row = await mailServiceFor(`smtp://u:p@127.0.0.1:${port}?greetingTimeout=300`).send({
        to: 'silent@example.org',
        subject: 's',
        body: 'b',
      });
      expect(row.status).toBe('failed');
      expect(row.lastError).toMatch(/Greeting never received/i);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      silent.close();
    }
  });
});
