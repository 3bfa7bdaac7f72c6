// GET organization/ and organization/{id}/ through HTTP on a fresh database: envelope, paging, filters, periods,
// and the scope of every role (architecture §6).
import { beforeAll, describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';

const t = await setupTestApp();
// 2024-03-15 17:30 in Kolkata, 12:00 in UTC.
t.clock.set(new Date('2024-03-15T12:00:00Z'));

const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};

// Tree: D1 (distributor) ─ D1.a ─ D1.a.x      D2 (distributor) ─ D2.a      S, S2 (stand-alone)
//                       └ D1.b
beforeAll(async () => {
  const org = async (name: string, created: string, opts: Parameters<typeof createOrganization>[1] = {}) => {
    ids[name] = (await createOrganization(t, { name, created: new Date(created), ...opts })).id;
  };
  await org('D1', '2024-01-10T10:00:00Z', {
    canCreateOrganization: true,
    country: 'India',
    address1: 'MG Road',
  });
  await org('D1.a', '2024-02-29T12:00:00Z', { parentId: ids.D1, country: 'India' });
  await org('D1.a.x', '2024-03-01T03:00:00Z', { parentId: ids['D1.a'], country: 'India' });
  // 20:00 UTC on 14 March is 01:30 on 15 March in Kolkata.
  await org('D1.b', '2024-03-14T20:00:00Z', { parentId: ids.D1, country: 'India' });
  await org('D2', '2024-03-15T10:00:00Z', {
    canCreateOrganization: true,
    country: 'Kenya',
    countryCode: 'KE',
  });
  await org('D2.a', '2024-03-15T19:00:00Z', {
    parentId: ids.D2,
    country: 'Kenya',
    countryCode: 'KE',
    address3: 'Pune',
  });
  // 20:00 UTC on 31 December 2023 is 1 January 2024 in Kolkata.
  await org('S', '2023-12-31T20:00:00Z', { country: 'Brazil', countryCode: 'BR', address2: 'Lake View' });
  await org('S2', '2024-02-10T00:00:00Z', { country: 'Brazil', countryCode: 'BR' });

  const user = async (
    key: string,
    userType: TUserType,
    organizationId: number | null = null,
    linked: number[] = [],
  ) => {
    const u = await createUser(t, {
      userType,
      organizationId,
      password: null,
      linkedOrganizationIds: linked,
    });
    tokens[key] = await signIn(t, u);
  };
  await user('admin', 'ADMIN');
  await user('subAdmin', 'SUB_ADMIN');
  await user('distributor', 'DISTRIBUTOR_ADMIN', ids.D1);
  await user('manager', 'MANAGER', null, [ids['D1.a']!, ids.D2!]);
  await user('orgAdmin', 'ORG_ADMIN', ids['D1.a']);
  await user('reviewer', 'CERVAICAL_REVIEWER');
  await user('reviewerD2', 'CERVAICAL_REVIEWER', ids.D2);
  await user('technician', 'TECHNICIAN', ids.S);
});

type ListBody = {
  count: number;
  next: string | null;
  previous: string | null;
  results: { id: number; name: string }[];
};

async function get(url: string, as = 'admin', headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { ...auth(tokens[as]!), ...headers } });
}

async function list(query = '', as = 'admin', headers: Record<string, string> = {}): Promise<ListBody> {
  const res = await get(`/api/v1/organization/${query ? `?${query}` : ''}`, as, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ListBody>();
}

const names = (body: ListBody) => body.results.map((r) => r.name);
const sorted = (body: ListBody) => names(body).sort();
const ALL = ['D1', 'D1.a', 'D1.a.x', 'D1.b', 'D2', 'D2.a', 'S', 'S2'];

describe('GET organization/ — access', () => {
  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/organization/' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('answers 401 with an unknown token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/organization/',
      headers: auth('x'.repeat(43)),
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a TECHNICIAN with 403', async () => {
    const res = await get('/api/v1/organization/', 'technician');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toHaveProperty('detail');
  });

  it('answers without a trailing slash too', async () => {
    expect((await get('/api/v1/organization')).statusCode).toBe(200);
  });
});

describe('GET organization/ — envelope and paging', () => {
  it('answers the envelope with the count, newest first by default', async () => {
    const body = await list();
    expect(Object.keys(body).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(body.count).toBe(8);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
    expect(names(body)).toEqual(['D2.a', 'D2', 'D1.b', 'D1.a.x', 'D1.a', 'S2', 'D1', 'S']);
  });

  it('presents the small list row and nothing internal', async () => {
    const body = await list(`ids=${ids.D2}`);
    expect(body.results[0]).toEqual({
      id: ids.D2,
      name: 'D2',
      country: 'Kenya',
      country_code: 'KE',
      country_data: { name: 'Kenya', dial_code: '+254', code: 'KE', currency_code: 'KES' },
      state: null,
      address_1: null,
      address_2: null,
      address_3: null,
      zipcode: null,
      timezone: 'Asia/Kolkata',
      language: null,
      parent: null,
      can_create_organization: true,
      created: '2024-03-15T10:00:00.000Z',
      scans_count: 0,
      dynamic_positivity_percentage: 0,
      last_sync_date: null,
    });
  });

  it('links the next and previous pages, keeping the other parameters', async () => {
    const p1 = await list('ordering=name&limit=3');
    expect(names(p1)).toEqual(['D1', 'D1.a', 'D1.a.x']);
    expect(p1.previous).toBeNull();
    expect(p1.next).toBe('/api/v1/organization/?ordering=name&limit=3&page=2');

    const p2 = await list('ordering=name&limit=3&page=2');
    expect(names(p2)).toEqual(['D1.b', 'D2', 'D2.a']);
    expect(p2.previous).toBe('/api/v1/organization/?ordering=name&limit=3');
    expect(p2.next).toBe('/api/v1/organization/?ordering=name&limit=3&page=3');

    const p3 = await list('ordering=name&limit=3&page=3');
    expect(names(p3)).toEqual(['S', 'S2']);
    expect(p3.next).toBeNull();
    expect(p3.count).toBe(8);
  });

  it('answers 404 Invalid page. past the last page', async () => {
    const res = await get('/api/v1/organization/?limit=3&page=4');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Invalid page.' });
  });

  it('answers page 1 of an empty result', async () => {
    const body = await list('search=nothing-like-this');
    expect(body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it.each([
    ['limit=0', { limit: ['Ensure limit is greater than or equal to 1.'] }],
    ['limit=1001', { limit: ['Ensure limit is less than or equal to 1000.'] }],
    ['limit=ten', { limit: ['A valid integer is required.'] }],
    ['page=abc', { page: ['A valid integer is required.'] }],
    ['page=0', { page: ['Ensure page is greater than or equal to 1.'] }],
    ['page=1.5', { page: ['A valid integer is required.'] }],
  ])('refuses %s with a field error', async (query, fields) => {
    const res = await get(`/api/v1/organization/?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(fields);
  });

  it('accepts the largest page size', async () => {
    expect((await list('limit=1000')).count).toBe(8);
  });
});

describe('GET organization/ — ordering', () => {
  it('orders by a whitelisted field, descending with -', async () => {
    expect(names(await list('ordering=-name'))).toEqual([...ALL].reverse());
    expect(names(await list('ordering=id'))).toEqual(ALL.map((n) => n).sort((a, b) => ids[a]! - ids[b]!));
  });

  it('orders by several fields, ties broken by id', async () => {
    expect(names(await list('ordering=country,-name'))).toEqual([
      'S2',
      'S',
      'D1.b',
      'D1.a.x',
      'D1.a',
      'D1',
      'D2.a',
      'D2',
    ]);
  });

  it('refuses an unknown ordering field with 400', async () => {
    const res = await get('/api/v1/organization/?ordering=name,tree_path');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ ordering: ['Invalid ordering field: tree_path.'] });
  });
});

describe('GET organization/ — filters', () => {
  it('lists the children of one organization with parent', async () => {
    expect(sorted(await list(`parent=${ids.D1}`))).toEqual(['D1.a', 'D1.b']);
  });

  it('lists distributors with can_create_organization=true and the others with false', async () => {
    expect(sorted(await list('can_create_organization=true'))).toEqual(['D1', 'D2']);
    expect(sorted(await list('can_create_organization=false'))).toEqual([
      'D1.a',
      'D1.a.x',
      'D1.b',
      'D2.a',
      'S',
      'S2',
    ]);
  });

  it('lists sub-organizations with sub_organisation=true and stand-alone ones with false', async () => {
    expect(sorted(await list('sub_organisation=true'))).toEqual(['D1.a', 'D1.a.x', 'D1.b', 'D2.a']);
    // Stand-alone: no parent and not a distributor.
    expect(sorted(await list('sub_organisation=false'))).toEqual(['S', 'S2']);
  });

  it('lists the organizations named by ids', async () => {
    expect(sorted(await list(`ids=${ids.D1},${ids.S}`))).toEqual(['D1', 'S']);
  });

  it.each([
    ['ids=1,abc', { ids: ['Enter a whole number.'] }],
    ['parent=abc', { parent: ['A valid integer is required.'] }],
    ['can_create_organization=maybe', 'can_create_organization'],
    ['sub_organisation=2', 'sub_organisation'],
  ])('refuses %s with a field error', async (query, fields) => {
    const res = await get(`/api/v1/organization/?${query}`);
    expect(res.statusCode).toBe(400);
    if (typeof fields === 'string') expect(Object.keys(res.json<object>())).toEqual([fields]);
    else expect(res.json()).toEqual(fields);
  });

  it('searches the name case-insensitively', async () => {
    expect(sorted(await list('search=d1.A'))).toEqual(['D1.a', 'D1.a.x']);
  });

  it('searches the address lines', async () => {
    expect(sorted(await list('search=pune'))).toEqual(['D2.a']);
    expect(sorted(await list('search=mg%20road'))).toEqual(['D1']);
    expect(sorted(await list('search=lake%20VIEW'))).toEqual(['S']);
  });

  it('treats % in the search as a character, not a wildcard', async () => {
    expect((await list('search=%25')).count).toBe(0);
  });

  it('combines filters with the scope', async () => {
    expect(sorted(await list(`parent=${ids.D1}`, 'orgAdmin'))).toEqual(['D1.a']);
    expect(sorted(await list('can_create_organization=true', 'manager'))).toEqual(['D2']);
  });
});

describe('GET organization/ — period filters', () => {
  it('reads created_after alone as that one day in Asia/Kolkata by default', async () => {
    expect(sorted(await list('created_after=2024-01-01'))).toEqual(['S']);
  });

  it('reads the same day in the Timezone header (UTC), which moves the boundary', async () => {
    expect(sorted(await list('created_after=2024-01-01', 'admin', { timezone: 'UTC' }))).toEqual([]);
    expect(sorted(await list('created_after=2023-12-31', 'admin', { timezone: 'UTC' }))).toEqual(['S']);
  });

  it('includes both days of a date_time_after/date_time_before range', async () => {
    expect(
      sorted(
        await list('date_time_after=2024-02-29&date_time_before=2024-03-01', 'admin', { timezone: 'UTC' }),
      ),
    ).toEqual(['D1.a', 'D1.a.x']);
  });

  it('reads created_before alone as everything up to the end of that day', async () => {
    expect(sorted(await list('created_before=2024-01-10', 'admin', { timezone: 'UTC' }))).toEqual([
      'D1',
      'S',
    ]);
  });

  it('reads day=today and day=yesterday in the caller time zone', async () => {
    expect(sorted(await list('day=today'))).toEqual(['D1.b', 'D2']);
    expect(sorted(await list('day=today', 'admin', { timezone: 'UTC' }))).toEqual(['D2', 'D2.a']);
    expect(sorted(await list('day=yesterday'))).toEqual([]);
    expect(sorted(await list('day=yesterday', 'admin', { timezone: 'UTC' }))).toEqual(['D1.b']);
  });

  it('reads month=this_month, last_month and yesterday', async () => {
    expect(sorted(await list('month=this_month'))).toEqual(['D1.a.x', 'D1.b', 'D2', 'D2.a']);
    expect(sorted(await list('month=last_month'))).toEqual(['D1.a', 'S2']);
    expect(sorted(await list('month=yesterday', 'admin', { timezone: 'UTC' }))).toEqual(['D1.b']);
  });

  it.each([
    [
      'date_time_after=2024-03-05&date_time_before=2024-03-01',
      { date_time_before: ['End date must not be before the start date.'] },
    ],
    ['created_after=2024-02-30', { created_after: ['Enter a valid date in YYYY-MM-DD format.'] }],
    ['date_time_before=15-03-2024', { date_time_before: ['Enter a valid date in YYYY-MM-DD format.'] }],
    ['day=tomorrow', { day: ['Select a valid choice: today, yesterday.'] }],
    ['month=next_month', { month: ['Select a valid choice: this_month, last_month, yesterday.'] }],
  ])('refuses %s with a field error', async (query, fields) => {
    const res = await get(`/api/v1/organization/?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(fields);
  });

  it('ignores the Timezone header when no period filter is asked for', async () => {
    expect((await list('', 'admin', { timezone: 'Mars/Olympus' })).count).toBe(8);
  });

  it('refuses an unknown Timezone header', async () => {
    const res = await get('/api/v1/organization/?day=today', 'admin', { timezone: 'Mars/Olympus' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ Timezone: ['Unknown time zone.'] });
  });
});

describe('GET organization/ — scope by role', () => {
  it('lets ADMIN and SUB_ADMIN list every organization', async () => {
    expect(sorted(await list('', 'admin'))).toEqual(ALL);
    expect(sorted(await list('', 'subAdmin'))).toEqual(ALL);
  });

  it('lets a DISTRIBUTOR_ADMIN list its organization and its whole subtree only', async () => {
    const body = await list('', 'distributor');
    expect(body.count).toBe(4);
    expect(sorted(body)).toEqual(['D1', 'D1.a', 'D1.a.x', 'D1.b']);
  });

  it('lets a MANAGER list the linked organizations under two distributors and their descendants', async () => {
    expect(sorted(await list('', 'manager'))).toEqual(['D1.a', 'D1.a.x', 'D2', 'D2.a']);
  });

  it('does not let an ORG_ADMIN see a sibling, its parent or its sub-organizations', async () => {
    const body = await list('', 'orgAdmin');
    expect(body.count).toBe(1);
    expect(sorted(body)).toEqual(['D1.a']);
  });

  it('lets a CERVAICAL_REVIEWER without an organization list every organization', async () => {
    expect(sorted(await list('', 'reviewer'))).toEqual(ALL);
  });

  it('lets a CERVAICAL_REVIEWER with an organization list that organization tree', async () => {
    expect(sorted(await list('', 'reviewerD2'))).toEqual(['D2', 'D2.a']);
  });

  it('does not reveal out-of-scope organizations through ids', async () => {
    expect(sorted(await list(`ids=${ids.D1},${ids['D1.a']},${ids.S}`, 'orgAdmin'))).toEqual(['D1.a']);
  });

  it('reads from the read database with using_read_db=true', async () => {
    const body = await list('using_read_db=true', 'distributor');
    expect(sorted(body)).toEqual(['D1', 'D1.a', 'D1.a.x', 'D1.b']);
  });
});

describe('GET organization/{id}/', () => {
  it('answers the full organization to a caller in scope', async () => {
    const res = await get(`/api/v1/organization/${ids.D1}/`, 'distributor');
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      id: ids.D1,
      name: 'D1',
      address_1: 'MG Road',
      can_create_organization: true,
      parent: null,
      qr_enabled_for_training: true,
      webhook_switch: false,
      webhook_url: null,
      webhook_auth_token: null,
      price: null,
      ibe_consent_form: [],
      available_days: [],
      localize: {},
      company_info: {},
      created: '2024-01-10T10:00:00.000Z',
    });
    for (const key of [
      'latitude',
      'longitude',
      'mobile',
      'has_web_access',
      'is_orca_navigation_allowed',
      'is_cervaical_navigation_allowed',
      'enable_send_sms_to_patient',
      'enable_send_email_to_patient',
      'include_consent_form_in_report',
      'automatic_tile_selection_enabled',
      'is_storage_optimised',
      'allow_offline_payment',
      'currency',
      'total_bookings_per_slot',
      'can_be_cancel_before',
      'customized_message',
      'customized_message_qr_path',
      'last_sync_date',
      'modified',
      'created_by',
      'modified_by',
      'timezone',
      'language',
    ]) {
      expect(body, key).toHaveProperty(key);
    }
    expect(body).not.toHaveProperty('tree_path');
    expect(body).not.toHaveProperty('treePath');
  });

  it('presents nested company info, consent forms and localize as stored', async () => {
    const org = await createOrganization(t, {
      name: 'Detailed',
      price: 150_00,
      currency: 'INR',
      availableDays: [0, 2, 4],
      ibeConsentForm: ['I agree.'],
      localize: {
        es: {
          name: 'Spanish',
          ibe_consent_form: ['Acepto.'],
          cervaical_consent_form: [],
          orca_consent_form: [],
        },
      },
      companyInfo: { name: 'Detailed Ltd', contact_number: '+91-9876543210', country_code: 'IN' },
      webhookUrl: 'https://hooks.example.com/scan',
      webhookSwitch: true,
    });
    const body = (await get(`/api/v1/organization/${org.id}/`)).json<Record<string, unknown>>();
    expect(body).toMatchObject({
      price: 15000,
      currency: 'INR',
      available_days: [0, 2, 4],
      ibe_consent_form: ['I agree.'],
      localize: {
        es: {
          name: 'Spanish',
          ibe_consent_form: ['Acepto.'],
          cervaical_consent_form: [],
          orca_consent_form: [],
        },
      },
      company_info: { name: 'Detailed Ltd', contact_number: '+91-9876543210', country_code: 'IN' },
      webhook_url: 'https://hooks.example.com/scan',
      webhook_switch: true,
    });
  });

  it('lets an ORG_ADMIN read its own organization', async () => {
    expect((await get(`/api/v1/organization/${ids['D1.a']}/`, 'orgAdmin')).statusCode).toBe(200);
  });

  it('answers 404 to an ORG_ADMIN asking for a sibling organization, with the body of a missing one', async () => {
    const sibling = await get(`/api/v1/organization/${ids['D1.b']}/`, 'orgAdmin');
    const missing = await get('/api/v1/organization/999999/', 'orgAdmin');
    expect(sibling.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(sibling.json()).toEqual({ detail: 'Not found.' });
    expect(missing.json()).toEqual(sibling.json());
  });

  it('answers 404 to a DISTRIBUTOR_ADMIN asking for another distributor', async () => {
    expect((await get(`/api/v1/organization/${ids.D2}/`, 'distributor')).statusCode).toBe(404);
  });

  it('answers 404 to a MANAGER asking for the parent of a linked organization', async () => {
    expect((await get(`/api/v1/organization/${ids.D1}/`, 'manager')).statusCode).toBe(404);
    expect((await get(`/api/v1/organization/${ids['D1.a.x']}/`, 'manager')).statusCode).toBe(200);
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('answers 404 for the id %s', async (id) => {
    const res = await get(`/api/v1/organization/${id}/`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers 401 without a token and 403 to a TECHNICIAN', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/organization/${ids.S}/` })).statusCode).toBe(
      401,
    );
    expect((await get(`/api/v1/organization/${ids.S}/`, 'technician')).statusCode).toBe(403);
  });

  it('reads from the read database with using_read_db=true', async () => {
    const res = await get(`/api/v1/organization/${ids.S}/?using_read_db=true`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'S' });
  });
});

describe('OpenAPI', () => {
  it('documents the organization and lookup paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/v1/organization/']).toHaveProperty('get');
    expect(doc.paths['/api/v1/organization/{id}/']).toHaveProperty('get');
    expect(doc.paths['/api/v1/country/']).toHaveProperty('get');
    expect(doc.paths['/api/v1/timezone/']).toHaveProperty('get');
  });
});

// Last: it adds organizations the counting and ordering tests above do not expect.
describe('country_data', () => {
  it('gives country_data (part 2 §3) in rows and in the detail: the country list entry, null when none is known', async () => {
    const byName = await createOrganization(t, { name: 'Named only', country: 'brazil', countryCode: null });
    const byCompany = await createOrganization(t, {
      name: 'Company only',
      country: null,
      countryCode: null,
      companyInfo: { country_code: 'KE' },
    });
    const none = await createOrganization(t, { name: 'Nowhere', country: null, countryCode: null });
    const body = await list(`ids=${byName.id},${byCompany.id},${none.id}&ordering=name`);
    const rows = body.results as unknown as Array<{ name: string; country: string | null; country_data: unknown }>;
    expect(rows.map((o) => [o.name, o.country, o.country_data])).toEqual([
      ['Company only', 'Kenya', { name: 'Kenya', dial_code: '+254', code: 'KE', currency_code: 'KES' }],
      ['Named only', 'brazil', { name: 'Brazil', dial_code: '+55', code: 'BR', currency_code: 'BRL' }],
      ['Nowhere', null, null],
    ]);
    const detail = (await get(`/api/v1/organization/${ids.S}/`)).json<Record<string, unknown>>();
    expect(detail.country_data).toEqual({ name: 'Brazil', dial_code: '+55', code: 'BR', currency_code: 'BRL' });
    // The OpenAPI document describes the field (the spec's shape).
    const doc = t.app.swagger() as unknown as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    expect(JSON.stringify(doc.paths['/api/v1/organization/']!.get.responses['200'])).toContain('country_data');
  });
});
