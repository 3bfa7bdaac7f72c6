// POST organization/, PUT and PATCH organization/{id}/ through HTTP on a fresh database: who may create where
// (architecture §7b), role-restricted fields (part 1 §6), every validation message of part 1 §5, the tree rules
// (parent, cycles, tree paths, distributor flag), uploaded images, webhook addresses and the audit log.
import { AUDIT_REDACTED } from '@sc/shared/audit';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE_ID } from '@sc/shared/constants';
import { ORGANIZATION_MESSAGES } from '@sc/shared/organization-input';
import { MESSAGES } from '@sc/shared/validation';
import { auditLog, files, organizations } from '../../db/schema/index.ts';
import { setupTestApp, type TestContext } from '../../test/app.ts';
import {
  auth,
  createLanguage,
  createOrganization,
  createUploadedFile,
  createUser,
  signIn,
  type OrganizationRow,
} from '../../test/factories.ts';

const t = await setupTestApp();
const tPrivate = await setupTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });

type Role =
  | 'admin'
  | 'subAdmin'
  | 'distributor'
  | 'manager'
  | 'orgAdmin'
  | 'orgAdminDist'
  | 'reviewer'
  | 'technician';
const tokens = {} as Record<Role, string>;
const users = {} as Record<Role, { id: number }>;
const orgs = {} as Record<'D1' | 'D1a' | 'D2' | 'S', OrganizationRow>;
let privateAdminToken = '';

const COMPANY = {
  name: 'Acme Health',
  city: 'Pune',
  zip_code: '411001',
  state: 'Maharashtra',
  address: '1 MG Road',
  email: 'info@acme.org',
  contact_number: '9876543210',
  country_code: 'IN',
};
const body = (extra: Record<string, unknown> = {}) => ({ name: 'New Clinic', country: 'India', company_info: COMPANY, ...extra });

// Tree: D1 (distributor) ─ D1a      D2 (distributor)      S (stand-alone)
beforeAll(async () => {
  const en = await createLanguage(t, { name: 'English', isoCode: 'en' });
  expect(en.id).toBe(DEFAULT_LANGUAGE_ID);
  await createLanguage(t, { name: 'Spanish', isoCode: 'es' });
  await createLanguage(t, { name: 'French', isoCode: 'fr' });
  orgs.D1 = await createOrganization(t, { name: 'D1', canCreateOrganization: true });
  orgs.D1a = await createOrganization(t, { name: 'D1a', parentId: orgs.D1.id });
  orgs.D2 = await createOrganization(t, { name: 'D2', canCreateOrganization: true });
  orgs.S = await createOrganization(t, { name: 'S' });
  const make = async (role: Role, opts: Parameters<typeof createUser>[1]) => {
    const u = await createUser(t, opts);
    users[role] = u;
    tokens[role] = await signIn(t, u);
  };
  await make('admin', { userType: 'ADMIN' });
  await make('subAdmin', { userType: 'SUB_ADMIN' });
  await make('distributor', { userType: 'DISTRIBUTOR_ADMIN', organizationId: orgs.D1.id });
  await make('manager', { userType: 'MANAGER', linkedOrganizationIds: [orgs.D1.id] });
  await make('orgAdmin', { userType: 'ORG_ADMIN', organizationId: orgs.D1a.id });
  await make('orgAdminDist', { userType: 'ORG_ADMIN', organizationId: orgs.D2.id });
  await make('reviewer', { userType: 'CERVAICAL_REVIEWER' });
  await make('technician', { userType: 'TECHNICIAN', organizationId: orgs.S.id });
  privateAdminToken = await signIn(tPrivate, await createUser(tPrivate, { userType: 'ADMIN' }));
});

type Json = Record<string, unknown>;
const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, role: Role | null, payload?: unknown, ctx: TestContext = t) =>
  ctx.app.inject({
    method,
    url,
    headers: role ? auth(tokens[role]) : {},
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
const create = (payload: unknown, role: Role = 'admin') => send('POST', '/api/v1/organization/', role, payload);
const put = (id: number, payload: unknown, role: Role = 'admin') => send('PUT', `/api/v1/organization/${id}/`, role, payload);
const patch = (id: number, payload: unknown, role: Role = 'admin') =>
  send('PATCH', `/api/v1/organization/${id}/`, role, payload);
const row = async (id: number) => {
  const [r] = await t.database.db.select().from(organizations).where(eq(organizations.id, id));
  if (!r) throw new Error('no row');
  return r;
};
const countOrganizations = async () => (await t.database.db.select({ id: organizations.id }).from(organizations)).length;

/** Expects a 400 whose body has `field` with `message`, and returns the body. */
async function expect400(res: { statusCode: number; json: () => unknown }, field: string, message: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(400);
  const errors = res.json() as Record<string, string[]>;
  expect(errors[field], JSON.stringify(errors)).toContain(message);
  return errors;
}

describe('POST organization/ — who may create where', () => {
  it('answers 401 without a token', async () => {
    const res = await send('POST', '/api/v1/organization/', null, body());
    expect(res.statusCode).toBe(401);
  });

  it.each(['reviewer', 'technician'] as const)('refuses a %s with 403, even with a bad body', async (role) => {
    expect((await create(body(), role)).statusCode).toBe(403);
    expect((await create([], role)).statusCode).toBe(403);
  });

  it('refuses an impersonation token (read-only)', async () => {
    const token = await signIn(t, users.subAdmin, { kind: 'impersonation', impersonatorId: users.admin.id });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/organization/', headers: auth(token), payload: body() });
    expect(res.statusCode).toBe(403);
  });

  it('lets an ADMIN create a top-level organization with the defaults and the success message', async () => {
    const res = await create(body({ name: 'Top Clinic' }));
    expect(res.statusCode).toBe(201);
    const org = res.json<Json>();
    expect(org).toMatchObject({
      detail: ORGANIZATION_MESSAGES.created,
      name: 'Top Clinic',
      parent: null,
      language: DEFAULT_LANGUAGE_ID,
      timezone: 'Asia/Kolkata',
      qr_enabled_for_training: true,
      can_create_organization: false,
      has_web_access: false,
      created_by: users.admin.id,
      modified_by: users.admin.id,
      company_info: { ...COMPANY, contact_number: '+91-9876543210' },
    });
    expect(org).not.toHaveProperty('tree_path');
    const stored = await row(org.id as number);
    expect(stored.treePath).toBe(`/${stored.id}/`);
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/organization/${stored.id}/`, headers: auth(tokens.admin) });
    expect({ ...org, detail: undefined }).toEqual({ ...detail.json<Json>(), detail: undefined });
  });

  it('lets a SUB_ADMIN create under a distributor, forcing can_create_organization off', async () => {
    const res = await create(body({ parent: orgs.D1.id, can_create_organization: true }), 'subAdmin');
    expect(res.statusCode).toBe(201);
    const org = res.json<{ id: number; parent: number; can_create_organization: boolean }>();
    expect(org.parent).toBe(orgs.D1.id);
    expect(org.can_create_organization).toBe(false);
    expect((await row(org.id)).treePath).toBe(`${orgs.D1.treePath}${org.id}/`);
  });

  it('lets an ADMIN create a distributor at the top level', async () => {
    const res = await create(body({ can_create_organization: true, parent: null }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ can_create_organization: true, parent: null });
  });

  it('refuses a parent that is not a distributor', async () => {
    await expect400(await create(body({ parent: orgs.S.id })), 'parent', MESSAGES.parentNotDistributor);
  });

  it('refuses a parent that does not exist', async () => {
    await expect400(await create(body({ parent: 999_999 })), 'parent', 'Invalid pk "999999" - object does not exist.');
  });

  it('creates a DISTRIBUTOR_ADMIN’s organization under its own distributor when no parent is sent', async () => {
    const res = await create(body(), 'distributor');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ parent: orgs.D1.id, can_create_organization: false });
  });

  it('does not let a DISTRIBUTOR_ADMIN create under another distributor', async () => {
    const before = await countOrganizations();
    await expect400(await create(body({ parent: orgs.D2.id }), 'distributor'), 'parent', `Invalid pk "${orgs.D2.id}" - object does not exist.`);
    expect(await countOrganizations()).toBe(before);
  });

  it('requires a MANAGER to name a parent, and accepts one in its scope', async () => {
    await expect400(await create(body(), 'manager'), 'parent', MESSAGES.parentRequired);
    await expect400(await create(body({ parent: null }), 'manager'), 'parent', MESSAGES.parentRequired);
    const res = await create(body({ parent: orgs.D1.id }), 'manager');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ parent: orgs.D1.id });
  });

  it('does not let a MANAGER create under an organization outside its links', async () => {
    await expect400(await create(body({ parent: orgs.D2.id }), 'manager'), 'parent', `Invalid pk "${orgs.D2.id}" - object does not exist.`);
  });

  it('lets an ORG_ADMIN create only under its own organization, and only when it is a distributor', async () => {
    await expect400(await create(body(), 'orgAdmin'), 'parent', MESSAGES.parentNotDistributor);
    const ok = await create(body(), 'orgAdminDist');
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ parent: orgs.D2.id });
    await expect400(await create(body({ parent: orgs.D1.id }), 'orgAdminDist'), 'parent', `Invalid pk "${orgs.D1.id}" - object does not exist.`);
  });
});

describe('role-restricted fields on create', () => {
  it.each([
    ['distributor', 'is_storage_optimised'],
    ['distributor', 'is_orca_navigation_allowed'],
    ['manager', 'is_cervaical_navigation_allowed'],
    ['orgAdminDist', 'enable_send_sms_to_patient'],
    ['orgAdminDist', 'has_web_access'],
  ] as const)('refuses a %s turning on %s and creates nothing', async (role, field) => {
    const before = await countOrganizations();
    const payload = body({ parent: role === 'orgAdminDist' ? orgs.D2.id : orgs.D1.id, [field]: true });
    await expect400(await create(payload, role), field, MESSAGES.noFieldPermission);
    expect(await countOrganizations()).toBe(before);
  });

  it('accepts the default values of restricted fields from any creating role (the form sends every field)', async () => {
    const res = await create(
      body({
        is_storage_optimised: false,
        is_orca_navigation_allowed: false,
        is_cervaical_navigation_allowed: false,
        enable_send_sms_to_patient: false,
        has_web_access: false,
        can_create_organization: false,
      }),
      'orgAdminDist',
    );
    expect(res.statusCode).toBe(201);
  });

  it('lets a DISTRIBUTOR_ADMIN and a MANAGER give web access', async () => {
    expect((await create(body({ has_web_access: true }), 'distributor')).statusCode).toBe(201);
    expect((await create(body({ has_web_access: true, parent: orgs.D1.id }), 'manager')).statusCode).toBe(201);
  });

  it('lets an ADMIN set the admin-only flags', async () => {
    const res = await create(
      body({ is_storage_optimised: true, is_orca_navigation_allowed: true, enable_send_sms_to_patient: true, has_web_access: true }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ is_storage_optimised: true, is_orca_navigation_allowed: true, has_web_access: true });
  });
});

describe('validation messages (part 1 §5)', () => {
  it.each([
    [{ name: '' }, 'name', MESSAGES.required],
    [{ name: '   ' }, 'name', MESSAGES.required],
    [{ name: undefined }, 'name', MESSAGES.required],
    [{ name: 'Clinic 🙂' }, 'name', MESSAGES.orgText],
    [{ company_info: { ...COMPANY, name: 'Acme ✨' } }, 'company_info.name', MESSAGES.orgText],
    [{ company_info: { ...COMPANY, city: '' } }, 'company_info.city', MESSAGES.required],
    [{ company_info: { ...COMPANY, zip_code: undefined } }, 'company_info.zip_code', MESSAGES.required],
    [{ company_info: { ...COMPANY, state: ' ' } }, 'company_info.state', MESSAGES.required],
    [{ company_info: { ...COMPANY, address: null } }, 'company_info.address', MESSAGES.required],
    [{ company_info: undefined }, 'company_info.name', MESSAGES.required],
    [{ company_info: { ...COMPANY, email: 'not-an-email' } }, 'company_info.email', MESSAGES.invalidEmail],
    [{ company_info: { ...COMPANY, contact_number: '12345' } }, 'company_info.contact_number', MESSAGES.invalidPhone],
    // Valid for India's dial code, not for the United States' (no US area code starts with 1).
    [{ company_info: { ...COMPANY, contact_number: '1234567890', country_code: 'US' } }, 'company_info.contact_number', MESSAGES.invalidPhone],
    [{ company_info: { ...COMPANY, contact_number: '+1-1234567890', country_code: 'US' } }, 'company_info.contact_number', MESSAGES.invalidPhone],
    [{ company_info: { ...COMPANY, country_code: null } }, 'company_info.country_code', MESSAGES.selectCountryCode],
    [{ company_info: { ...COMPANY, country_code: '' } }, 'company_info.country_code', MESSAGES.selectCountryCode],
    [{ customized_message: 'x'.repeat(1501) }, 'customized_message', MESSAGES.customizedMessageMax],
    [{ customized_message: 'Hello 🙂' }, 'customized_message', MESSAGES.orgText],
    [{ ibe_consent_form: ['ok', 'word '.repeat(401)] }, 'ibe_consent_form.1', MESSAGES.consentMaxWords],
    [{ ibe_consent_form: ['Согласие'] }, 'ibe_consent_form.0', MESSAGES.consentChars],
    [{ ibe_consent_form: ['I agree 🙂'] }, 'ibe_consent_form.0', MESSAGES.consentChars],
    [{ localize: { es: { cervaical_consent_form: ['word '.repeat(401)] } } }, 'localize.es.cervaical_consent_form.0', MESSAGES.consentMaxWords],
    [{ localize: { es: { orca_consent_form: ['你好'] } } }, 'localize.es.orca_consent_form.0', MESSAGES.consentChars],
    [{ localize: { es: {}, ES: {} } }, 'localize.ES', MESSAGES.languageAlreadySelected],
    [{ localize: { en: {} } }, 'localize.en', MESSAGES.languageNotInList],
    [{ localize: { xx: {} } }, 'localize.xx', MESSAGES.languageNotInList],
    [{ localize: { 'not a code': {} } }, 'localize.not a code', MESSAGES.languageNotInList],
    [{ timezone: 'Mars/Olympus' }, 'timezone', MESSAGES.invalidTimezone],
    [{ timezone: '+05:30' }, 'timezone', MESSAGES.invalidTimezone],
    [{ language: 999_999 }, 'language', 'Invalid pk "999999" - object does not exist.'],
    [{ latitude: 90.5 }, 'latitude', 'Ensure this value is less than or equal to 90.'],
    [{ longitude: -180.5 }, 'longitude', 'Ensure this value is greater than or equal to -180.'],
    [{ country_code: 'ZZ' }, 'country_code', MESSAGES.invalidCountryCode],
    [{ currency: 'XYZ1' }, 'currency', MESSAGES.invalidCurrency],
    [{ price: -1 }, 'price', 'Ensure this value is greater than or equal to 0.'],
    [{ price: 1.5 }, 'price', 'A valid integer is required.'],
    [{ total_bookings_per_slot: 0 }, 'total_bookings_per_slot', 'Ensure this value is greater than or equal to 1.'],
    [{ can_be_cancel_before: -1 }, 'can_be_cancel_before', 'Ensure this value is greater than or equal to 0.'],
    [{ available_days: [1, 1] }, 'available_days', MESSAGES.duplicateDays],
    [{ available_days: [7] }, 'available_days.0', 'Ensure this value is less than or equal to 6.'],
    [{ webhook_switch: true }, 'webhook_url', MESSAGES.webhookUrlRequired],
    [{ webhook_switch: true, webhook_url: '' }, 'webhook_url', MESSAGES.webhookUrlRequired],
    [{ webhook_url: 'ftp://example.com/x' }, 'webhook_url', MESSAGES.invalidUrl],
    [{ webhook_url: `https://example.com/${'a'.repeat(500)}` }, 'webhook_url', 'Ensure this field has no more than 500 characters.'],
    [{ webhook_auth_token: 'a'.repeat(501) }, 'webhook_auth_token', 'Ensure this field has no more than 500 characters.'],
    [{ company_info: { ...COMPANY, profile_image_path: 'customized/x.png' } }, 'company_info.profile_image_path', MESSAGES.invalidFilePath],
  ])('%j → 400 on %s', async (extra, field, message) => {
    const before = await countOrganizations();
    await expect400(await create(body(extra)), field, message);
    expect(await countOrganizations()).toBe(before);
  });

  it('accepts a customized message of exactly 1500 characters', async () => {
    const res = await create(body({ customized_message: 'x'.repeat(1500) }));
    expect(res.statusCode).toBe(201);
  });

  it('accepts a number written in the stored form and a lower-case country code', async () => {
    const res = await create(body({ company_info: { ...COMPANY, contact_number: '+91-98765 43210', country_code: 'in' } }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ company_info: { contact_number: '+91-9876543210', country_code: 'IN' } });
  });

  it('does not require company info in booking mode', async () => {
    const res = await create({ name: 'Booking Clinic', country: 'India', is_booking_enabled: true, price: 15000, currency: 'inr', available_days: [0, 2] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ is_booking_enabled: true, price: 15000, currency: 'INR', available_days: [0, 2] });
    expect(Object.values(res.json<{ company_info: Json }>().company_info).every((v) => v === null)).toBe(true);
  });

  it('still checks the formats of company info in booking mode', async () => {
    await expect400(
      await create({ name: 'Booking Clinic', is_booking_enabled: true, company_info: { contact_number: '98765' } }),
      'company_info.country_code',
      MESSAGES.selectCountryCode,
    );
  });

  it('accepts 400 words, accented letters and Spanish marks; drops empty texts and replaces newlines', async () => {
    const res = await create(
      body({
        ibe_consent_form: ['¿Está de acuerdo?\nSí, acepto (100%).', '', '   ', 'word '.repeat(400)],
        localize: { es: { name: 'ignored', ibe_consent_form: ['Línea uno\r\nLínea dos', ''], orca_consent_form: ['Ça va: «oui»'] } },
      }),
    );
    expect(res.statusCode).toBe(201);
    const org = res.json<{ ibe_consent_form: string[]; localize: Json }>();
    expect(org.ibe_consent_form).toEqual(['¿Está de acuerdo? Sí, acepto (100%).', 'word '.repeat(400).trim()]);
    expect(org.localize).toEqual({
      es: {
        name: 'Spanish',
        ibe_consent_form: ['Línea uno Línea dos'],
        cervaical_consent_form: [],
        orca_consent_form: ['Ça va: «oui»'],
      },
    });
  });

  it('stores localize under the language’s own iso code whatever the case sent', async () => {
    const res = await create(body({ localize: { FR: { ibe_consent_form: ['Oui.'] } } }));
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json<{ localize: Json }>().localize)).toEqual(['fr']);
  });
});

describe('bad bodies answer 400, never 500', () => {
  it.each([
    ['an array', []],
    ['a name of the wrong type', { ...body(), name: 123 }],
    ['a boolean as a string', { ...body(), has_web_access: 'yes' }],
    ['company info as an array', { ...body(), company_info: [] }],
    ['company info as a string', { ...body(), company_info: 'Acme' }],
    ['localize as an array', { ...body(), localize: [] }],
    ['localize with a list value', { ...body(), localize: { es: [] } }],
    ['consent texts as a string', { ...body(), ibe_consent_form: 'I agree' }],
    ['consent texts with numbers', { ...body(), ibe_consent_form: [1, 2] }],
    ['too many consent texts', { ...body(), ibe_consent_form: Array.from({ length: 51 }, () => 'I agree.') }],
    ['a huge name', { ...body(), name: 'a'.repeat(100_000) }],
    ['a huge consent text', { ...body(), ibe_consent_form: ['a'.repeat(200_000)] }],
    ['a parent as a string', { ...body(), parent: 'one' }],
    ['a parent past the id range', { ...body(), parent: 99_999_999_999 }],
    ['a latitude as a string', { ...body(), latitude: 'north' }],
    ['available days as an object', { ...body(), available_days: { 0: true } }],
  ])('%s', async (_label, payload) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
  });

  it.each([
    ['a string', '"organization"'],
    ['a number', '42'],
    ['null', 'null'],
    ['an empty body', ''],
    ['invalid JSON', '{"name": '],
  ])('answers 400 to %s sent as JSON', async (_label, raw) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organization/',
      headers: { ...auth(tokens.admin), 'content-type': 'application/json' },
      payload: raw,
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 400 or 415, never 500, to a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organization/',
      headers: { ...auth(tokens.admin), 'content-type': 'text/plain' },
      payload: 'name=Clinic',
    });
    expect([400, 415]).toContain(res.statusCode);
  });

  it('answers 400 to invalid JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organization/',
      headers: { ...auth(tokens.admin), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 400 to a PATCH with garbage', async () => {
    expect((await patch(orgs.S.id, [])).statusCode).toBe(400);
    expect((await patch(orgs.S.id, { company_info: 7 })).statusCode).toBe(400);
  });
});

describe('webhook address', () => {
  it.each(['http://127.0.0.1/hook', 'http://10.0.0.5/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest'])(
    'refuses %s',
    async (url) => {
      await expect400(await create(body({ webhook_url: url, webhook_switch: true })), 'webhook_url', MESSAGES.webhookUrlPrivate);
    },
  );

  it('accepts a public address and keeps the token', async () => {
    const res = await create(body({ webhook_url: 'https://93.184.216.34/hook', webhook_auth_token: 'tok-123', webhook_switch: true }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ webhook_url: 'https://93.184.216.34/hook', webhook_auth_token: 'tok-123', webhook_switch: true });
  });

  it('accepts a private address when WEBHOOK_ALLOW_PRIVATE is set', async () => {
    const res = await tPrivate.app.inject({
      method: 'POST',
      url: '/api/v1/organization/',
      headers: auth(privateAdminToken),
      payload: body({ webhook_url: 'http://127.0.0.1:9000/hook', webhook_switch: true }),
    });
    expect(res.statusCode).toBe(201);
  });

  it('refuses switching the webhook on for an organization without a URL', async () => {
    const org = await createOrganization(t, {});
    await expect400(await patch(org.id, { webhook_switch: true }), 'webhook_url', MESSAGES.webhookUrlRequired);
    expect((await row(org.id)).webhookSwitch).toBe(false);
  });

  it('refuses a private address on PATCH and leaves the stored one', async () => {
    const org = await createOrganization(t, { webhookUrl: 'https://93.184.216.34/a' });
    await expect400(await patch(org.id, { webhook_url: 'http://192.168.1.10/hook' }), 'webhook_url', MESSAGES.webhookUrlPrivate);
    expect((await row(org.id)).webhookUrl).toBe('https://93.184.216.34/a');
  });
});

describe('uploaded images', () => {
  it('gives an uploaded logo and QR image to the new organization', async () => {
    const logo = await createUploadedFile(t, { folder: 'companylogo', userId: users.admin.id });
    const qr = await createUploadedFile(t, { folder: 'customized', userId: users.admin.id });
    const res = await create(body({ company_info: { ...COMPANY, profile_image_path: logo.path }, customized_message_qr_path: qr.path }));
    expect(res.statusCode).toBe(201);
    const org = res.json<{ id: number; company_info: Json; customized_message_qr_path: string }>();
    expect(org.company_info.profile_image_path).toBe(logo.path);
    expect(org.customized_message_qr_path).toBe(qr.path);
    const owners = await t.database.db.select({ organizationId: files.organizationId }).from(files).where(eq(files.path, logo.path));
    expect(owners[0]?.organizationId).toBe(org.id);
  });

  it('refuses a path that is not an upload', async () => {
    await expect400(
      await create(body({ customized_message_qr_path: 'customized/never-uploaded.png' })),
      'customized_message_qr_path',
      MESSAGES.invalidFilePath,
    );
  });

  it('refuses an upload of another folder stored under a matching name', async () => {
    const other = await createUploadedFile(t, { folder: 'test', userId: users.admin.id });
    const [fake] = await t.database.db
      .update(files)
      .set({ path: `companylogo/${other.path.split('/')[1] ?? 'x'}` })
      .where(eq(files.id, other.id))
      .returning();
    await expect400(
      await create(body({ company_info: { ...COMPANY, profile_image_path: fake?.path } })),
      'company_info.profile_image_path',
      MESSAGES.invalidFilePath,
    );
  });

  it('does not let a DISTRIBUTOR_ADMIN take an image of an organization outside its scope', async () => {
    const foreign = await createUploadedFile(t, { folder: 'companylogo', userId: users.admin.id, organizationId: orgs.D2.id });
    await expect400(
      await create(body({ company_info: { ...COMPANY, profile_image_path: foreign.path } }), 'distributor'),
      'company_info.profile_image_path',
      MESSAGES.invalidFilePath,
    );
  });
});

describe('PUT and PATCH organization/{id}/', () => {
  it('answers 401 without a token and 403 to a reviewer and a technician', async () => {
    expect((await send('PUT', `/api/v1/organization/${orgs.S.id}/`, null, body())).statusCode).toBe(401);
    expect((await send('PATCH', `/api/v1/organization/${orgs.S.id}/`, null, {})).statusCode).toBe(401);
    expect((await put(orgs.S.id, body(), 'reviewer')).statusCode).toBe(403);
    expect((await patch(orgs.S.id, { name: 'X' }, 'technician')).statusCode).toBe(403);
  });

  it('lets an ADMIN save the whole form and answers the organization with the success message', async () => {
    const org = await createOrganization(t, { name: 'Before' });
    const res = await put(org.id, body({ name: 'After', address_1: 'Line 1', latitude: 18.5, longitude: 73.8, timezone: 'Europe/Madrid', language: null }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: org.id,
      detail: ORGANIZATION_MESSAGES.updated,
      name: 'After',
      address_1: 'Line 1',
      latitude: 18.5,
      longitude: 73.8,
      timezone: 'Europe/Madrid',
      language: null,
      modified_by: users.admin.id,
      company_info: { name: 'Acme Health' },
    });
  });

  it('changes only the fields a PATCH sends', async () => {
    const org = await createOrganization(t, { name: 'Patch me', address1: 'Keep', hasWebAccess: true });
    const res = await patch(org.id, { name: 'Patched' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Patched', address_1: 'Keep', has_web_access: true });
  });

  it('validates a PUT like a create', async () => {
    await expect400(await put(orgs.S.id, { name: 'No company' }), 'company_info.name', MESSAGES.required);
  });

  it('checks a PATCHed company info whole unless booking mode is sent with it', async () => {
    const org = await createOrganization(t, { isBookingEnabled: true });
    await expect400(await patch(org.id, { company_info: { city: 'Pune' } }), 'company_info.name', MESSAGES.required);
    expect((await patch(org.id, { is_booking_enabled: true, company_info: { city: 'Pune' } })).statusCode).toBe(200);
  });

  it.each(['abc', '0', '99999999999', '999999'])('answers 404 for the id %s', async (id) => {
    const res = await send('PATCH', `/api/v1/organization/${id}/`, 'admin', { name: 'X' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers 404 to a DISTRIBUTOR_ADMIN saving another distributor and to an ORG_ADMIN saving its parent', async () => {
    expect((await patch(orgs.D2.id, { name: 'Mine now' }, 'distributor')).statusCode).toBe(404);
    expect((await patch(orgs.D1.id, { name: 'Mine now' }, 'orgAdmin')).statusCode).toBe(404);
    expect((await patch(orgs.S.id, { name: 'Mine now' }, 'manager')).statusCode).toBe(404);
    expect((await row(orgs.D2.id)).name).toBe('D2');
  });

  it('lets a DISTRIBUTOR_ADMIN and a MANAGER save an organization of their tree, and an ORG_ADMIN its own', async () => {
    const child = await createOrganization(t, { name: 'Child', parentId: orgs.D1.id });
    expect((await patch(child.id, { name: 'Child by distributor' }, 'distributor')).statusCode).toBe(200);
    expect((await patch(child.id, { name: 'Child by manager' }, 'manager')).statusCode).toBe(200);
    const own = await createOrganization(t, { name: 'Own', parentId: orgs.D1.id });
    const admin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: own.id });
    tokens.orgAdmin = await signIn(t, admin);
    expect((await patch(own.id, { name: 'Own renamed' }, 'orgAdmin')).statusCode).toBe(200);
    tokens.orgAdmin = await signIn(t, { id: users.orgAdmin.id });
  });
});

describe('role-restricted fields on save', () => {
  const flagsOf = (r: OrganizationRow) => ({
    is_orca_navigation_allowed: r.isOrcaNavigationAllowed,
    is_cervaical_navigation_allowed: r.isCervaicalNavigationAllowed,
    enable_send_sms_to_patient: r.enableSendSmsToPatient,
    is_storage_optimised: r.isStorageOptimised,
    has_web_access: r.hasWebAccess,
    can_create_organization: r.canCreateOrganization,
    parent: r.parentId,
  });

  it('accepts the stored values from an ORG_ADMIN saving the whole form', async () => {
    const current = await row(orgs.D1a.id);
    const res = await put(orgs.D1a.id, body({ name: 'D1a', ...flagsOf(current) }), 'orgAdmin');
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['orgAdmin', 'is_storage_optimised', true],
    ['orgAdmin', 'has_web_access', true],
    ['orgAdmin', 'enable_send_sms_to_patient', true],
    ['distributor', 'is_orca_navigation_allowed', true],
    ['distributor', 'is_cervaical_navigation_allowed', true],
    ['manager', 'is_storage_optimised', true],
  ] as const)('refuses a %s changing %s and changes nothing else', async (role, field, value) => {
    const before = await row(orgs.D1a.id);
    const res = await put(orgs.D1a.id, body({ name: 'Renamed', ...flagsOf(before), [field]: value }), role);
    await expect400(res, field, MESSAGES.noFieldPermission);
    const after = await row(orgs.D1a.id);
    expect(after.name).toBe(before.name);
    expect(flagsOf(after)).toEqual(flagsOf(before));
    expect(after.modified).toEqual(before.modified);
  });

  it('refuses a DISTRIBUTOR_ADMIN switching off its own distributor flag', async () => {
    await expect400(await patch(orgs.D1.id, { can_create_organization: false }, 'distributor'), 'can_create_organization', MESSAGES.noFieldPermission);
    expect((await row(orgs.D1.id)).canCreateOrganization).toBe(true);
  });

  it('refuses an ORG_ADMIN making its stand-alone organization a distributor', async () => {
    const own = await createOrganization(t, {});
    const token = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: own.id }));
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/organization/${own.id}/`,
      headers: auth(token),
      payload: { can_create_organization: true },
    });
    await expect400(res, 'can_create_organization', MESSAGES.noFieldPermission);
  });

  it('refuses a distributor flag a DISTRIBUTOR_ADMIN sends for a sub-organization instead of dropping it', async () => {
    await expect400(
      await patch(orgs.D1a.id, { can_create_organization: true }, 'distributor'),
      'can_create_organization',
      MESSAGES.noFieldPermission,
    );
    expect((await row(orgs.D1a.id)).canCreateOrganization).toBe(false);
    // The stored value, re-sent by the form, is accepted.
    expect((await patch(orgs.D1a.id, { can_create_organization: false }, 'distributor')).statusCode).toBe(200);
  });

  it('keeps the flag of a distributor nested under a distributor when an edit keeps its parent', async () => {
    const hub = await createOrganization(t, { parentId: orgs.D1.id, canCreateOrganization: true });
    await createOrganization(t, { parentId: hub.id });
    const res = await patch(hub.id, { name: 'Regional Hub North' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Regional Hub North', can_create_organization: true });
    expect((await row(hub.id)).canCreateOrganization).toBe(true);
  });

  it('refuses moving a distributor with sub-organizations under a new parent, which would turn its flag off', async () => {
    const hub = await createOrganization(t, { canCreateOrganization: true });
    await createOrganization(t, { parentId: hub.id });
    await expect400(await patch(hub.id, { parent: orgs.D1.id }), 'can_create_organization', MESSAGES.hasSubOrganizations);
    expect((await row(hub.id)).parentId).toBeNull();
  });

  it('refuses a DISTRIBUTOR_ADMIN moving an organization to another parent', async () => {
    const child = await createOrganization(t, { parentId: orgs.D1.id });
    await expect400(await patch(child.id, { parent: null }, 'distributor'), 'parent', MESSAGES.noFieldPermission);
    expect((await row(child.id)).parentId).toBe(orgs.D1.id);
  });

  it('lets a DISTRIBUTOR_ADMIN change web access', async () => {
    const child = await createOrganization(t, { parentId: orgs.D1.id });
    const res = await patch(child.id, { has_web_access: true }, 'distributor');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ has_web_access: true });
  });

  it('lets a SUB_ADMIN change the admin-only flags', async () => {
    const org = await createOrganization(t, {});
    const res = await patch(org.id, { is_storage_optimised: true, enable_send_sms_to_patient: true }, 'subAdmin');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_storage_optimised: true, enable_send_sms_to_patient: true });
  });
});

describe('the organization tree', () => {
  it('refuses an organization as its own parent', async () => {
    const d = await createOrganization(t, { canCreateOrganization: true });
    await expect400(await patch(d.id, { parent: d.id }), 'parent', MESSAGES.ownParent);
  });

  it('refuses a descendant as parent (a cycle)', async () => {
    const top = await createOrganization(t, { canCreateOrganization: true });
    const mid = await createOrganization(t, { parentId: top.id, canCreateOrganization: true });
    const low = await createOrganization(t, { parentId: mid.id });
    await expect400(await patch(top.id, { parent: mid.id }), 'parent', MESSAGES.ownParent);
    await expect400(await patch(top.id, { parent: low.id }), 'parent', MESSAGES.ownParent);
    expect((await row(top.id)).parentId).toBeNull();
  });

  it('rewrites the tree path of a moved organization and of all its descendants', async () => {
    const from = await createOrganization(t, { canCreateOrganization: true });
    const to = await createOrganization(t, { canCreateOrganization: true });
    const moved = await createOrganization(t, { parentId: from.id });
    const child = await createOrganization(t, { parentId: moved.id });
    const grandchild = await createOrganization(t, { parentId: child.id });
    const res = await patch(moved.id, { parent: to.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ parent: to.id });
    expect((await row(moved.id)).treePath).toBe(`/${to.id}/${moved.id}/`);
    expect((await row(child.id)).treePath).toBe(`/${to.id}/${moved.id}/${child.id}/`);
    expect((await row(grandchild.id)).treePath).toBe(`/${to.id}/${moved.id}/${child.id}/${grandchild.id}/`);
    expect((await row(from.id)).treePath).toBe(`/${from.id}/`);
    // The scope follows: a DISTRIBUTOR_ADMIN of the new parent now reaches the grandchild.
    const admin = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: to.id });
    const token = await signIn(t, admin);
    const get = await t.app.inject({ method: 'GET', url: `/api/v1/organization/${grandchild.id}/`, headers: auth(token) });
    expect(get.statusCode).toBe(200);
  });

  it('moves an organization to the top level', async () => {
    const parent = await createOrganization(t, { canCreateOrganization: true });
    const org = await createOrganization(t, { parentId: parent.id });
    const res = await patch(org.id, { parent: null });
    expect(res.statusCode).toBe(200);
    expect((await row(org.id)).treePath).toBe(`/${org.id}/`);
  });

  it('refuses a parent that is not a distributor when moving', async () => {
    const org = await createOrganization(t, {});
    await expect400(await patch(org.id, { parent: orgs.S.id }), 'parent', MESSAGES.parentNotDistributor);
  });

  it('turns the distributor flag off when a distributor without children gets a parent', async () => {
    const d = await createOrganization(t, { canCreateOrganization: true });
    const res = await patch(d.id, { parent: orgs.D1.id, can_create_organization: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ parent: orgs.D1.id, can_create_organization: false });
  });

  it('refuses turning off the distributor flag of an organization with sub-organizations', async () => {
    const d = await createOrganization(t, { canCreateOrganization: true });
    await createOrganization(t, { parentId: d.id });
    await expect400(await patch(d.id, { can_create_organization: false }), 'can_create_organization', MESSAGES.hasSubOrganizations);
    await expect400(await patch(d.id, { parent: orgs.D2.id }), 'can_create_organization', MESSAGES.hasSubOrganizations);
    const after = await row(d.id);
    expect(after.canCreateOrganization).toBe(true);
    expect(after.parentId).toBeNull();
  });
});

describe('audit log', () => {
  it('records a create and a save with the changed fields before and after, the webhook token redacted', async () => {
    const res = await create(body({ name: 'Audited', webhook_auth_token: 'super-secret-token' }));
    const id = res.json<{ id: number }>().id;
    await patch(id, { name: 'Audited 2', webhook_auth_token: 'another-secret' });
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'organization'), eq(auditLog.targetId, String(id))));
    const created = rows.find((r) => r.action === 'organization.created');
    const updated = rows.find((r) => r.action === 'organization.updated');
    expect(created?.actorId).toBe(users.admin.id);
    expect(created?.organizationId).toBe(id);
    expect(created?.changes).toContainEqual({ field: 'name', before: null, after: 'Audited' });
    expect(updated?.organizationId).toBe(id);
    expect(updated?.changes).toEqual([
      { field: 'name', before: 'Audited', after: 'Audited 2' },
      { field: 'webhook_auth_token', before: AUDIT_REDACTED, after: AUDIT_REDACTED },
    ]);
    expect(JSON.stringify(rows)).not.toContain('secret');
  });
});

describe('OpenAPI', () => {
  it('documents the write calls', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, Json> }>();
    expect(doc.paths['/api/v1/organization/']).toHaveProperty('post');
    expect(doc.paths['/api/v1/organization/{id}/']).toHaveProperty('put');
    expect(doc.paths['/api/v1/organization/{id}/']).toHaveProperty('patch');
  });
});
