// The validator every route shares: text PostgreSQL cannot store is refused in any field (even one a schema
// forgets), numbers in queries are plain decimal digits, and a parameter sent twice is named in the answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { REPEATED_PARAMETER_MESSAGE } from '@sc/shared/list';
import { TEXT_MESSAGES } from '@sc/shared/validation';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();
const API = '/api/v1';
let token = '';
let orgId = 0;

beforeAll(async () => {
  orgId = (await createOrganization(t, { name: 'Validator Clinic', canCreateOrganization: true })).id;
  token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
});

const get = (url: string) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth(token) });

describe('text PostgreSQL cannot store', () => {
  it('answers 400 on the field, not 500, to a lone surrogate in a body field, a nested field or a key', async () => {
    // JSON escapes are the only way to send a lone surrogate: a UTF-8 body cannot carry one.
    for (const [payload, field] of [
      ['{"name":"Clinic \\ud83d"}', 'name'],
      ['{"company_info":{"city":"Pu\\udc00ne"}}', 'company_info.city'],
      ['{"localize":{"e\\ud800s":{}}}', 'localize.e\ud800s'],
    ] as const) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${API}/organization/${orgId}/`,
        headers: { ...auth(token), 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({ [field]: [TEXT_MESSAGES.invalidChars] });
    }
  });
});

describe('query parameters', () => {
  it.each(['limit=0x10', 'limit=1e1', 'limit=%2016', 'limit=+16', 'page=0x1', 'parent=0x10', 'organization_id=1e3'])(
    'reads only plain decimal digits as a number: %s answers 400 on the parameter',
    async (query) => {
      const path = query.startsWith('organization_id') ? '/organization/user/' : '/organization/';
      const res = await get(`${path}?${query}`);
      const name = query.slice(0, query.indexOf('='));
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ [name]: ['A valid integer is required.'] });
    },
  );

  it.each([
    ['/organization/', 'limit=1&limit=2', 'limit'],
    ['/organization/', 'page=1&page=2', 'page'],
    ['/organization/', 'search=a&search=b', 'search'],
    ['/organization/', 'ordering=name&ordering=id', 'ordering'],
    ['/organization/', 'parent=1&parent=2', 'parent'],
    ['/organization/', 'created_after=2026-01-01&created_after=2026-01-02', 'created_after'],
    ['/organization/user/', 'is_valid=true&is_valid=false', 'is_valid'],
    ['/organization/reference/', 'organization=1&organization=2', 'organization'],
    ['/organization/webhook-deliveries/', 'status=failed&status=pending', 'status'],
    [`/organization/${0}/`, 'using_read_db=true&using_read_db=false', 'using_read_db'],
  ])('%s?%s names the parameter sent twice', async (path, query, name) => {
    const url = path === '/organization/0/' ? `/organization/${orgId}/` : path;
    const res = await get(`${url}?${query}`);
    expect(res.statusCode, query).toBe(400);
    expect(res.json()).toEqual({ [name]: [REPEATED_PARAMETER_MESSAGE] });
  });

  it('keeps the parameters that are lists working when repeated (user_type, ids)', async () => {
    const users = await get('/organization/user/?user_type=ORG_ADMIN&user_type=MANAGER');
    expect(users.statusCode, users.body).toBe(200);
    const other = await createOrganization(t, { name: 'Validator Other' });
    const orgs = await get(`/organization/?ids=${orgId}&ids=${other.id}`);
    expect(orgs.statusCode, orgs.body).toBe(200);
    expect(orgs.json<{ results: { id: number }[] }>().results.map((r) => r.id).sort()).toEqual(
      [orgId, other.id].sort(),
    );
  });

  it('still reports a bad value of a list parameter as such', async () => {
    const res = await get('/organization/user/?user_type=ADMIN&user_type=ROOT');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ user_type: ['Select a valid choice. ROOT is not one of the available choices.'] });
  });
});
