// Sessions kept in memory (SESSION_CACHE, http/session-cache.ts): what is kept, and revocation as immediate as without
// it, whether it comes through this instance's API or from behind its back (another instance, a command, a job).
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { LISTENER_APPLICATION_NAME } from '../db/listener.ts';
import { setupTestApp } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';
import { sessionCaches } from './authenticate.ts';
import { SessionCache } from './session-cache.ts';
import type { SessionWithUser } from '../modules/auth/sessions.queries.ts';

const session = (id: number) => ({ id }) as unknown as SessionWithUser;

describe('SessionCache', () => {
  it('keeps nothing and answers nothing until its listener is live, and forgets all when it is lost', () => {
    const cache = new SessionCache();
    cache.set('a', session(1), cache.generation);
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    cache.set('a', session(1), cache.generation);
    expect(cache.get('a')?.id).toBe(1);
    cache.setLive(false);
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not keep what a lookup read before the cache was emptied', () => {
    const cache = new SessionCache();
    cache.setLive(true);
    const before = cache.generation;
    cache.clear();
    cache.set('a', session(1), before);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', session(1), cache.generation);
    expect(cache.get('a')?.id).toBe(1);
  });

  it('reads an entry again after its maximum age, and drops the oldest when full', () => {
    let now = 0;
    const cache = new SessionCache(() => now, 2, 1000);
    cache.setLive(true);
    cache.set('a', session(1), cache.generation);
    now = 1000;
    expect(cache.get('a')?.id).toBe(1);
    now = 1001;
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', session(1), cache.generation);
    cache.set('b', session(2), cache.generation);
    cache.set('c', session(3), cache.generation);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.id).toBe(3);
  });
});

describe('the session cache in the API', async () => {
  const t = await setupTestApp({ SESSION_CACHE: 'true' });
  const cache = sessionCaches.get(t.app);
  const org = await createOrganization(t);
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/user/', headers: auth(token) });

  /** Polls until `check` holds (a notification is delivered after commit, on another connection). */
  const eventually = async (check: () => Promise<boolean>, ms = 3000) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 10));
    }
    return false;
  };

  it('is live once listening, and keeps a signed-in session', async () => {
    expect(cache).toBeDefined();
    expect(await eventually(async () => cache!.isLive)).toBe(true);
    const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const token = await signIn(t, user);
    expect((await me(token)).statusCode).toBe(200);
    const size = cache!.size;
    expect(size).toBeGreaterThan(0);
    expect((await me(token)).statusCode).toBe(200);
    expect(cache!.size).toBe(size);
  });

  it.each([
    ['a session revoked', 'UPDATE sessions SET revoked_at = now() WHERE user_id = $1'],
    ['a user disabled', 'UPDATE users SET is_valid = false WHERE id = $1'],
  ])('refuses %s behind its back once the notification arrives', async (_what, statement) => {
    const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const token = await signIn(t, user);
    expect((await me(token)).statusCode).toBe(200);
    await t.database.query(statement, [user.id]);
    expect(await eventually(async () => (await me(token)).statusCode === 401)).toBe(true);
  });

  it("acts with a user's new type, changed behind its back, once the notification arrives", async () => {
    const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const token = await signIn(t, user);
    const organizations = () => t.app.inject({ method: 'GET', url: '/api/v1/organization/', headers: auth(token) });
    expect((await organizations()).statusCode).toBe(200);
    // A technician has no console list of organizations (CONSOLE_ROLES).
    await t.database.query(`UPDATE users SET user_type = 'TECHNICIAN' WHERE id = $1`, [user.id]);
    expect(await eventually(async () => (await organizations()).statusCode === 403)).toBe(true);
  });

  it('does not empty itself when a session is merely used', async () => {
    const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const token = await signIn(t, user);
    expect((await me(token)).statusCode).toBe(200);
    const generation = cache!.generation;
    await t.database.query(`UPDATE sessions SET last_seen_at = now() WHERE user_id = $1`, [user.id]);
    await t.database.query(`UPDATE users SET last_login_at = now() WHERE id = $1`, [user.id]);
    // A change that does notify, after them: the first notification to arrive is this one.
    await t.database.query(`UPDATE users SET is_valid = true WHERE id = $1`, [user.id]);
    expect(await eventually(async () => cache!.generation !== generation)).toBe(true);
    expect(cache!.generation).toBe(generation + 1);
  });

  it.runIf(t.database.kind === 'postgres')(
    'stops using what it keeps when its listening connection is lost, and listens again',
    async () => {
      const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
      const token = await signIn(t, user);
      expect((await me(token)).statusCode).toBe(200);
      await t.database.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
        [LISTENER_APPLICATION_NAME],
      );
      expect(await eventually(async () => !cache!.isLive)).toBe(true);
      expect(cache!.size).toBe(0);
      expect(await eventually(async () => cache!.isLive)).toBe(true);
      expect((await me(token)).statusCode).toBe(200);
      await t.database.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [user.id]);
      expect(await eventually(async () => (await me(token)).statusCode === 401)).toBe(true);
    },
  );
});

describe('the session cache with notifications that arrive late', async () => {
  // A listener that is live but never delivers: only what this instance does itself empties its cache.
  const database = await createTestDatabase();
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SECRET_KEY: 'test-secret-key-0123456789', SESSION_CACHE: 'true' }),
    database: {
      ...database,
      listen: (_channel, handlers) => {
        handlers.onLive();
        return { close: async () => handlers.onLost() };
      },
    },
    logger: false,
  });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  const t = app;
  const me = (token: string) => app.inject({ method: 'GET', url: '/api/v1/user/', headers: auth(token) });

  it('refuses a token on the request right after its sign-out: the instance empties its cache before answering', async () => {
    const org = await createOrganization(t);
    const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const token = await signIn(t, user);
    expect((await me(token)).statusCode).toBe(200);
    expect(sessionCaches.get(app)?.size).toBe(1);
    expect((await app.inject({ method: 'POST', url: '/api/v1/user/logout/', headers: auth(token) })).statusCode).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('empties its cache after any request that may write, and keeps it over reads', async () => {
    const org = await createOrganization(t);
    const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const token = await signIn(t, user);
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200);
    expect(sessionCaches.get(app)?.size).toBe(1);
    const dashboard = await app.inject({
      method: 'PUT',
      url: '/api/v1/user/last_dashboard_path/',
      headers: auth(token),
      payload: { url: '/scan' },
    });
    expect(dashboard.statusCode).toBe(200);
    expect(sessionCaches.get(app)?.size).toBe(0);
  });
});
