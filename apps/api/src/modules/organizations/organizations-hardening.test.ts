// Organizations after the attacker's probe of issue 6, through HTTP on a fresh database: hostile text answers a
// field error and stores nothing (never 500), mobiles are one number however typed, webhook ports, role-restricted
// fields refused rather than dropped, the webhook token shown only to editors, company_info with every key, and
// never an organization without a country.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES } from '@sc/shared/webhooks';
import { MESSAGES, TEXT_MESSAGES } from '@sc/shared/validation';
import { organizations } from '../../db/schema/index.ts';
import { setupTestApp, type TestContext } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow } from '../../test/factories.ts';

const t = await setupTestApp();
const tPrivate = await setupTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });

type Role = 'admin' | 'subAdmin' | 'distributor' | 'manager' | 'orgAdmin' | 'reviewer';
const tokens = {} as Record<Role, string>;
let privateAdminToken = '';
let distributor: OrganizationRow;
let clinic: OrganizationRow;

const COMPANY = { name: 'Acme Health', city: 'Pune', zip_code: '411001', state: 'Maharashtra', address: '1 MG Road' };
type Json = Record<string, unknown>;
const body = (extra: Json = {}) => ({ name: 'Hardened Clinic', country: 'India', company_info: COMPANY, ...extra });

beforeAll(async () => {
  distributor = await createOrganization(t, { name: 'Distributor', canCreateOrganization: true });
  clinic = await createOrganization(t, { name: 'Clinic', parentId: distributor.id, webhookAuthToken: 'whk_secret_token' });
  const make = async (role: Role, opts: Parameters<typeof createUser>[1]) => {
    tokens[role] = await signIn(t, await createUser(t, opts));
  };
  await make('admin', { userType: 'ADMIN' });
  await make('subAdmin', { userType: 'SUB_ADMIN' });
  await make('distributor', { userType: 'DISTRIBUTOR_ADMIN', organizationId: distributor.id });
  await make('manager', { userType: 'MANAGER', linkedOrganizationIds: [distributor.id] });
  await make('orgAdmin', { userType: 'ORG_ADMIN', organizationId: clinic.id });
  await make('reviewer', { userType: 'CERVAICAL_REVIEWER' });
  privateAdminToken = await signIn(tPrivate, await createUser(tPrivate, { userType: 'ADMIN' }));
});

const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, token: string, payload?: unknown, ctx: TestContext = t) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth(token),
    ...(payload === undefined ? {} : typeof payload === 'string' ? { payload, headers: { ...auth(token), 'content-type': 'application/json' } } : { payload: payload as Json }),
  });
const create = (payload: unknown, role: Role = 'admin') => send('POST', '/organization/', tokens[role], payload);
const patch = (id: number, payload: unknown, role: Role = 'admin') => send('PATCH', `/organization/${id}/`, tokens[role], payload);
const row = async (id: number) => {
  const [r] = await t.database.db.select().from(organizations).where(eq(organizations.id, id));
  if (!r) throw new Error('no row');
  return r;
};
const countOrganizations = async () => (await t.database.db.select({ id: organizations.id }).from(organizations)).length;

function expectFieldError(res: { statusCode: number; body: string; json: () => unknown }, field: string, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ [field]: [message] });
}

describe('hostile text in organization fields', () => {
  it('answers 400 on the field, not 500, to a lone surrogate in company_info on POST and PATCH, and stores nothing', async () => {
    const before = await countOrganizations();
    const created = await create(JSON.stringify(body()).replace('"Pune"', '"Pu\\ud800ne"'));
    expectFieldError(created, 'company_info.city', TEXT_MESSAGES.invalidChars);
    expect(await countOrganizations()).toBe(before);

    const stored = await row(clinic.id);
    const patched = await patch(clinic.id, `{"company_info":${JSON.stringify(COMPANY).replace('"Acme Health"', '"Acme \\udfff"')}}`);
    expectFieldError(patched, 'company_info.name', TEXT_MESSAGES.invalidChars);
    expect(await row(clinic.id)).toEqual(stored);
  });

  it.each([
    ['name', 'Clinic\r\nBcc: x', TEXT_MESSAGES.lineBreak],
    ['name', 'Clinic\nTwo', TEXT_MESSAGES.lineBreak],
    ['name', 'Clinic \u202egnp.exe', TEXT_MESSAGES.bidiControl],
    ['address_1', 'Street \u2066 1', TEXT_MESSAGES.bidiControl],
    ['state', 'Maha\u0007rashtra', TEXT_MESSAGES.controlChar],
  ])('refuses %s = %j with a field error and stores nothing', async (field, value, message) => {
    const stored = await row(clinic.id);
    expectFieldError(await patch(clinic.id, { [field]: value }), field, message);
    expect(await row(clinic.id)).toEqual(stored);
  });

  it('refuses a bidi control in a company_info field and in a consent text', async () => {
    expectFieldError(await create(body({ company_info: { ...COMPANY, address: '1 MG \u202e Road' } })), 'company_info.address', TEXT_MESSAGES.bidiControl);
    expectFieldError(await create(body({ ibe_consent_form: ['I agree \u2067'] })), 'ibe_consent_form.0', TEXT_MESSAGES.bidiControl);
  });

  it('stores names in NFC', async () => {
    const res = await create(body({ name: 'Cli\u0301nica Sa\u0303o Joa\u0303o' }));
    expect(res.statusCode, res.body).toBe(201);
    expect((await row(res.json<{ id: number }>().id)).name).toBe('Clínica São João');
  });
});

describe('mobile numbers of an organization', () => {
  it.each(['+918681562330', '+91 86815 62330', '+91-8681562330', '8681562330'])(
    'stores %j as the same number, for the organization and its company contact',
    async (typed) => {
      const res = await create(body({ mobile: typed, company_info: { ...COMPANY, contact_number: typed, country_code: 'IN' } }));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ mobile: '+91-8681562330', company_info: { contact_number: '+91-8681562330' } });
    },
  );

  it.each(['+1555', '0000000000', '12345678901234567890', '8681562330,9876500001', '8681562330\n9876500001', '８６８１５６２３３０', '٨٦٨١٥٦٢٣٣٠'])(
    'refuses %j with the phone message and stores nothing',
    async (bad) => {
      const before = await countOrganizations();
      expectFieldError(await create(body({ mobile: bad })), 'mobile', MESSAGES.invalidPhone);
      expectFieldError(
        await create(body({ company_info: { ...COMPANY, contact_number: bad, country_code: 'IN' } })),
        'company_info.contact_number',
        MESSAGES.invalidPhone,
      );
      expect(await countOrganizations()).toBe(before);
    },
  );

  it('reads the organization mobile in its own country', async () => {
    const res = await patch(clinic.id, { mobile: '0712 345 678', country_code: 'KE' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ mobile: '+254-712345678' });
  });
});

describe('webhook URL ports', () => {
  it('refuses a webhook URL on a port other than 80 and 443 with a field error', async () => {
    const stored = await row(clinic.id);
    expectFieldError(await patch(clinic.id, { webhook_url: 'http://93.184.216.34:8080/hook' }), 'webhook_url', WEBHOOK_MESSAGES.port);
    expect(await row(clinic.id)).toEqual(stored);
  });

  it('allows any port when WEBHOOK_ALLOW_PRIVATE is set (the loopback receiver of the end-to-end tests)', async () => {
    const res = await send('POST', '/organization/', privateAdminToken, body({ webhook_url: 'http://127.0.0.1:45678/hook', webhook_switch: true }), tPrivate);
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('fields a role may not set are refused, not dropped', () => {
  it('refuses can_create_organization: true from a DISTRIBUTOR_ADMIN or MANAGER creating under its distributor', async () => {
    for (const role of ['distributor', 'manager'] as const) {
      const before = await countOrganizations();
      const res = await create(body({ parent: distributor.id, can_create_organization: true }), role);
      expectFieldError(res, 'can_create_organization', MESSAGES.noFieldPermission);
      expect(await countOrganizations()).toBe(before);
    }
  });

  it('refuses parent and can_create_organization changed by an ORG_ADMIN on its own organization', async () => {
    const other = await createOrganization(t, { name: 'Other distributor', canCreateOrganization: true });
    expectFieldError(await patch(clinic.id, { parent: other.id }, 'orgAdmin'), 'parent', MESSAGES.noFieldPermission);
    expectFieldError(await patch(clinic.id, { parent: null }, 'orgAdmin'), 'parent', MESSAGES.noFieldPermission);
    expectFieldError(await patch(clinic.id, { can_create_organization: true }, 'orgAdmin'), 'can_create_organization', MESSAGES.noFieldPermission);
    expect(await row(clinic.id)).toMatchObject({ parentId: distributor.id, canCreateOrganization: false });
  });

  it('accepts the unchanged values, which the form sends with every save', async () => {
    const res = await patch(clinic.id, { parent: distributor.id, can_create_organization: false }, 'orgAdmin');
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('the webhook auth token is shown only to those who may edit the organization', () => {
  it.each(['admin', 'subAdmin', 'distributor', 'manager', 'orgAdmin'] as const)('shows it to a %s', async (role) => {
    const res = await send('GET', `/organization/${clinic.id}/`, tokens[role]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ webhook_auth_token: 'whk_secret_token' });
  });

  it('does not show it to a CERVAICAL_REVIEWER, who reads every organization', async () => {
    const res = await send('GET', `/organization/${clinic.id}/`, tokens.reviewer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: clinic.id, webhook_auth_token: null });
    expect(res.body).not.toContain('whk_secret_token');
  });
});

describe('company_info keys', () => {
  it('answers every company_info key, null when empty, however the row was stored', async () => {
    const sparse = await createOrganization(t, { companyInfo: { name: 'Sparse Ltd', email: '' } });
    const res = await send('GET', `/organization/${sparse.id}/`, tokens.admin);
    expect(res.json<{ company_info: Json }>().company_info).toEqual({
      name: 'Sparse Ltd',
      city: null,
      zip_code: null,
      state: null,
      address: null,
      email: null,
      contact_number: null,
      country_code: null,
      profile_image_path: null,
    });
  });

  it('accepts null for the optional company_info keys', async () => {
    const res = await create(
      body({ company_info: { ...COMPANY, email: null, contact_number: null, country_code: null, profile_image_path: null } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ company_info: { email: null, contact_number: null, profile_image_path: null } });
  });
});

describe('never an organization without a country', () => {
  it('requires the country on create, and on PUT', async () => {
    const { country: _country, ...withoutCountry } = body();
    expectFieldError(await create(withoutCountry), 'country', MESSAGES.required);
    expectFieldError(await create(body({ country: '  ' })), 'country', MESSAGES.required);
    expectFieldError(await send('PUT', `/organization/${clinic.id}/`, tokens.admin, withoutCountry), 'country', MESSAGES.required);
  });

  it('refuses clearing the country with PATCH', async () => {
    expectFieldError(await patch(clinic.id, { country: '' }), 'country', MESSAGES.required);
    expectFieldError(await patch(clinic.id, { country: null }), 'country', MESSAGES.required);
  });

  it('presents an older row without a country with the country of its country codes, in the detail and the list', async () => {
    const byOwnCode = await createOrganization(t, { name: 'Old Kenyan', country: null, countryCode: 'KE' });
    const byCompany = await createOrganization(t, { name: 'Old Spanish', country: null, countryCode: null, companyInfo: { country_code: 'ES' } });
    expect((await send('GET', `/organization/${byOwnCode.id}/`, tokens.admin)).json()).toMatchObject({ country: 'Kenya' });
    expect((await send('GET', `/organization/${byCompany.id}/`, tokens.admin)).json()).toMatchObject({ country: 'Spain' });
    const list = await send('GET', `/organization/?ids=${byOwnCode.id},${byCompany.id}&ordering=name`, tokens.admin);
    expect(list.json<{ results: Json[] }>().results.map((r) => r.country)).toEqual(['Kenya', 'Spain']);
  });
});
