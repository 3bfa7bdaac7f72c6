// `npm run create-admin` (admin/create-admin.ts, admin/cli.ts): the first ADMIN of an empty database signs in through
// the printed set-password link and the real API routes; taken contacts and bad options change nothing; --if-none;
// and the command itself in a child process (exit codes, its lines, the link e-mailed through a real SMTP server).
// On PostgreSQL with TEST_DATABASE_URL (the child then migrates an empty database of its own).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLog, outboxMessages, users } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { createUser, uniqueMobile } from '../test/factories.ts';
import { withDatabase } from '../test/global-setup.ts';
import { runCommand } from '../test/server-process.ts';
import { startSmtpServer } from '../test/smtp-server.ts';
import { runCreateAdmin } from './create-admin.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });
const ctx = t.app.ctx;
const API = '/api/v1';
const PG_URL = process.env.TEST_DATABASE_URL;

const userCount = async () => (await t.database.db.select({ n: count() }).from(users))[0]!.n;
const tokenOf = (link: string) => new URL(link).searchParams.get('token');

describe('create-admin', () => {
  it('creates an ADMIN in no organization whose printed link sets a password; sign-in then works as ADMIN', async () => {
    const result = await runCreateAdmin(ctx, [
      '--email',
      ' First.Admin@Example.ORG ',
      '--name',
      'Asha  Rao Menon',
      '--mobile',
      '+91 98765 43210',
    ]);
    expect(result.code, result.lines.join('\n')).toBe(0);
    const [user] = await t.database.db.select().from(users).where(eq(users.id, result.userId!));
    expect(user).toMatchObject({
      userType: 'ADMIN',
      organizationId: null,
      email: 'first.admin@example.org',
      firstName: 'Asha',
      lastName: 'Rao Menon',
      mobile: '+91-9876543210',
      mobileCountryCode: 'IN',
      passwordHash: null,
    });
    // The link is printed with its expiry (7 days, the console's set-password link) and is the one in the outbox.
    expect(result.lines[1]).toMatch(/not e-mailed \(no SMTP_URL\).*until \d{4}-\d\d-\d\dT/);
    expect(result.lines[2]).toBe(result.link);
    const [mail] = await t.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, 'first.admin@example.org'));
    expect(mail).toMatchObject({
      link: result.link,
      subject: 'Set your Screening Console password',
      status: 'stored',
    });

    const confirm = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/password-reset/confirm/`,
      payload: { token: tokenOf(result.link!), password: 'First-admin-pass1' },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/password/`,
      payload: { email: 'first.admin@example.org', password: 'First-admin-pass1' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const session = await t.app.inject({
      method: 'POST',
      url: `${API}/user/login/`,
      payload: {
        id_token: login.json<{ id_token: string }>().id_token,
        source: 'DASHBOARD',
        user_type: 'ADMIN',
        is_login: true,
        mobile_country_code: 'IN',
      },
    });
    expect(session.statusCode, session.body).toBe(200);
    const headers = { authorization: `Token ${session.json<{ token: string }>().token}` };
    const me = await t.app.inject({ method: 'GET', url: `${API}/user/`, headers });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({
      id: result.userId,
      user_type: 'ADMIN',
      email: 'first.admin@example.org',
    });
    // An ADMIN's call answers: the user list.
    const list = await t.app.inject({ method: 'GET', url: `${API}/organization/user/`, headers });
    expect(list.statusCode, list.body).toBe(200);

    const audit = await t.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, String(result.userId))));
    // The command's two rows (the sign-in above added its own), with no actor: the operator at the shell.
    const mine = audit.filter((a) => (a.details as { via?: string }).via === 'create-admin');
    expect(mine.map((a) => a.action).sort()).toEqual(['user.created', 'user.password_link_sent']);
    expect(mine.every((a) => a.actorId === null)).toBe(true);
  });

  it('refuses (exit 1, one line, nothing written) a taken e-mail or mobile', async () => {
    const existing = await createUser(t, { userType: 'TECHNICIAN', mobile: uniqueMobile() });
    const before = await userCount();
    const byEmail = await runCreateAdmin(ctx, ['--email', existing.email!.toUpperCase(), '--name', 'A B']);
    expect(byEmail).toEqual({
      code: 1,
      lines: [`--email: user with this email already exists. (${existing.email})`],
    });
    const national = existing.mobile!.replace('-', ' ');
    const byMobile = await runCreateAdmin(ctx, [
      '--email',
      'other@example.org',
      '--name',
      'A B',
      '--mobile',
      national,
    ]);
    expect(byMobile.code, byMobile.lines.join('\n')).toBe(1);
    expect(byMobile.lines).toHaveLength(1);
    expect(byMobile.lines[0]).toMatch(/^--mobile: /);
    expect(await userCount()).toBe(before);
  });

  it.each([
    [['--email', 'not-an-email', '--name', 'A B'], '--email: Enter a valid email address.'],
    [
      ['--email', 'a@example.org', '--name', 'A B', '--mobile', '+91 123'],
      /^--mobile: Please enter a valid Phone Number/,
    ],
    [['--email', 'a@example.org', '--name', 'A B', '--mobile', '98765 43210'], /^--mobile: /],
    [['--email', 'a@example.org', '--name', 'Asha'], /^--name: give a first and a last name/],
    [['--email', 'a@example.org', '--name', 'A <b>'], /^--name: Only letters/],
    [
      ['--email', 'a@example.org', '--name', `A ${'b'.repeat(151)}`],
      /^--name: Ensure this field has no more than 150/,
    ],
    [['--email', 'a@example.org', '--name', 'A B', '--country', 'ZZ'], '--country: Select a valid country.'],
    [
      ['--email', 'a@example.org', '--name', 'A B', '--organization', 'Org'],
      /^--organization: an ADMIN belongs to no organization/,
    ],
    [['--name', 'A B'], /^--email is required/],
    [['--email', 'a@example.org', '--name', 'A B', '--password', 'x'], /^Unknown option '--password'/],
  ])('refuses %j with exit 2 and one line, writing nothing', async (argv, line) => {
    const before = await userCount();
    const result = await runCreateAdmin(ctx, argv);
    expect(result.code).toBe(2);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(line);
    expect(await userCount()).toBe(before);
  });

  it('--if-none does nothing while an ADMIN who can sign in exists', async () => {
    // The first test made one.
    const before = await userCount();
    const result = await runCreateAdmin(ctx, [
      '--email',
      'second@example.org',
      '--name',
      'Second Admin',
      '--if-none',
    ]);
    expect(result.code).toBe(0);
    expect(result.lines[0]).toMatch(/^An ADMIN already exists \(user \d+\); nothing done \(--if-none\)\.$/);
    expect(await userCount()).toBe(before);
    // Disabled ADMINs give no way in, so they do not count.
    await t.database.db.update(users).set({ isValid: false }).where(eq(users.userType, 'ADMIN'));
    const made = await runCreateAdmin(ctx, [
      '--email',
      'second@example.org',
      '--name',
      'Second Admin',
      '--if-none',
    ]);
    expect(made.code, made.lines.join('\n')).toBe(0);
    expect(made.lines[0]).toMatch(/^Created ADMIN Second Admin/);
    expect(await userCount()).toBe(before + 1);
  });

  // PostgreSQL only: there instances share the database; PGlite is one process per data directory (its lock file).
  it.skipIf(!PG_URL)(
    'two --if-none runs at once on PostgreSQL make one ADMIN (the start-up lock)',
    async () => {
      await t.database.db.update(users).set({ isValid: false }).where(eq(users.userType, 'ADMIN'));
      const results = await Promise.all(
        ['race-a@example.org', 'race-b@example.org'].map((email) =>
          runCreateAdmin(ctx, ['--email', email, '--name', 'Race Admin', '--if-none']),
        ),
      );
      expect(results.map((r) => r.code)).toEqual([0, 0]);
      expect(results.filter((r) => r.lines[0]!.startsWith('Created ADMIN'))).toHaveLength(1);
      const valid = await t.database.db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.userType, 'ADMIN'), eq(users.isValid, true)));
      expect(valid[0]!.n).toBe(1);
    },
  );
});

// ---- The command in a child process -----------------------------------------------------------------------------------

const CLI = path.join(import.meta.dirname, 'cli.ts');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-create-admin-test-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** The command as an operator runs it. Migrating an empty embedded database takes 15-20 s on an idle 2-core machine,
 * three times that beside CI's journeys. */
const cli = (argv: string[], env: Record<string, string>) =>
  runCommand(CLI, argv, { NODE_ENV: 'development', LOG_LEVEL: 'warn', ...env }, { timeout: 150_000 });

describe('npm run create-admin (child process)', () => {
  it('migrates an empty database, creates the ADMIN, e-mails the link and prints it; a second run is refused', async () => {
    const smtp = await startSmtpServer();
    const dbName = `sc_create_admin_${process.pid}_${Date.now()}`;
    let env: Record<string, string>;
    if (PG_URL) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      env = { DATABASE_URL: withDatabase(PG_URL, dbName) };
    } else {
      env = { DATA_DIR: path.join(root, 'data') };
    }
    env = { ...env, SMTP_URL: smtp.url, PUBLIC_URL: 'https://console.example.org' };
    try {
      const first = await cli(['--email', 'root@example.org', '--name', 'Root Admin', '--if-none'], env);
      expect(first.code, first.stderr).toBe(0);
      const lines = first.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^Created ADMIN Root Admin <root@example.org> \(user \d+\)\.$/);
      expect(lines[1]).toMatch(
        /^Set-password link, e-mailed to root@example.org\. It works once, until \S+Z:$/,
      );
      expect(lines[2]).toMatch(/^https:\/\/console\.example\.org\/reset-password\?token=[\w-]+$/);
      const mail = await smtp.waitFor((m) => m.to.includes('root@example.org'));
      expect(mail.subject).toBe('Set your Screening Console password');
      expect(mail.text).toContain(lines[2]);

      const again = await cli(['--email', 'root@example.org', '--name', 'Root Admin'], env);
      expect(again).toMatchObject({ code: 1, stdout: '' });
      expect(again.stderr.trim()).toBe('--email: user with this email already exists. (root@example.org)');
      // A wrong option: exit 2 before the database is opened.
      const bad = await cli(['--email', 'x', '--name', 'X Y'], env);
      expect(bad).toMatchObject({ code: 2, stdout: '' });
      expect(bad.stderr.trim()).toBe('--email: Enter a valid email address.');
    } finally {
      await smtp.stop();
      if (PG_URL) {
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    }
  }, 200_000);

  it.skipIf(PG_URL)('refuses, with one line, an embedded database another process holds', async () => {
    const dataDir = path.join(root, 'held');
    fs.mkdirSync(dataDir, { recursive: true });
    // This test's own process holds it: the lock file names a live process (db/client.ts openPglite).
    fs.writeFileSync(path.join(dataDir, 'pgdata.lock'), String(process.pid));
    const held = await cli(['--email', 'root@example.org', '--name', 'Root Admin'], { DATA_DIR: dataDir });
    expect(held.code).toBe(1);
    expect(held.stderr.trim()).toBe(
      `The embedded database in ${dataDir} is in use by process ${process.pid} (the server?): stop it, then run this again.`,
    );
  });
});
