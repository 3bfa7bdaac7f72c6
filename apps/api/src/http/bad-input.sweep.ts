// Hostile input at every endpoint (architecture §4), run in two shares (bad-input.test.ts, bad-input-routes.test.ts):
// whatever a client sends, the API answers a 4xx in the DRF shape (400 {field: [msg]}, others {detail}) or a 2xx —
// never a 500 — and never returns a credential it should not.
// Data-driven: one table of endpoints, one table of bad values; each test collects every offending answer.
//
// A new endpoint joins the sweep with one entry in ROUTES: its method and path, a valid body when it takes one,
// and what it declares — `textFields` (each must refuse a lone surrogate, bidi controls and, unless multi-line,
// line breaks, with the shared message on that field), `mobileFields` (each must refuse the bad mobile forms with
// 'Please enter a valid Phone Number.') and `list: true` for a paged list (limit=0x10 and repeated page, limit
// and search answer 400 on the parameter). Every GET also gets BAD_QUERIES; every body field gets BAD_VALUES.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { REPEATED_PARAMETER_MESSAGE } from '@sc/shared/list';
import { ZOrganizationUpdate } from '@sc/shared/organization-input';
import { ZCompanyInfo } from '@sc/shared/organizations';
import { MESSAGES, TEXT_MESSAGES } from '@sc/shared/validation';
import { WEBHOOK_MESSAGES } from '@sc/shared/webhooks';
import { auditLog, organizations, outboxMessages } from '../db/schema/index.ts';
import { MULTIPART_PARSE_ERROR } from './multipart.ts';
import { NULL_CHARACTER_MESSAGE } from './validator.ts';
import { setupTestApp } from '../test/app.ts';
import {
  DEFAULT_PASSWORD,
  auth,
  createOrganization,
  createUser,
  signIn,
  uniqueMobile,
} from '../test/factories.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true', GEOCODER_URL: 'http://127.0.0.1:9' });

const API = '/api/v1';
const MB_STRING = 'x'.repeat(1024 * 1024);
const SQLISH = "' OR 1=1 --";
const EMOJI = 'Ünïcödé 🙂👩‍⚕️ \u202e';
/** Half of an emoji: JSON.stringify writes it as the escape "\ud83d", which PostgreSQL cannot store in JSONB. */
const LONE_SURROGATE = 'Acme \ud83d Care';
const CRLF = 'Acme\r\nBcc: attacker@example.com';
const BIDI_OVERRIDE = 'Acme \u202egnp.exe';
const BIDI_ISOLATE = 'Acme \u2066Care\u2069';

/** Hostile text every text field refuses on the field (issue 6), with the shared message; `oneLine`: single-line fields only. */
const HOSTILE_TEXTS: readonly { label: string; value: string; message: string; oneLine?: boolean }[] = [
  { label: 'a lone surrogate', value: LONE_SURROGATE, message: TEXT_MESSAGES.invalidChars },
  { label: 'a right-to-left override', value: BIDI_OVERRIDE, message: TEXT_MESSAGES.bidiControl },
  { label: 'a bidi isolate', value: BIDI_ISOLATE, message: TEXT_MESSAGES.bidiControl },
  { label: 'a left-to-right mark', value: 'Acme\u200eCare', message: TEXT_MESSAGES.bidiControl },
  { label: 'CR/LF', value: CRLF, message: TEXT_MESSAGES.lineBreak, oneLine: true },
  { label: 'a line separator', value: 'Acme\u2028Care', message: TEXT_MESSAGES.lineBreak, oneLine: true },
  { label: 'an escape character', value: 'Acme\u001b[31mCare', message: TEXT_MESSAGES.controlChar },
];

/** One past the largest PostgreSQL `integer`: in a query it overflows (issue 22). */
const TOO_LARGE_ID = 2_147_483_648;

/** Mobile numbers every mobile field refuses with 'Please enter a valid Phone Number.' (issue 6). */
const BAD_MOBILES: readonly string[] = [
  '+1555',
  '0000000000',
  '12345678901234567890',
  '9876500001,9876500002',
  '9876500001, 9876500002',
  '9876500001\n9876500002',
  '９８７６５００００１',
  '٩٨٧٦٥٠٠٠٠١',
];
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Wrong types and hostile strings for any JSON field. */
const BAD_VALUES: readonly unknown[] = [
  123,
  -1,
  1.5,
  1e308,
  '99999999999999999999',
  'true',
  true,
  {},
  { nested: { deeper: [1, 2] } },
  [],
  ['a', 1, null],
  null,
  '   ',
  MB_STRING,
  EMOJI,
  SQLISH,
  'a\u0000b',
  '<script>alert(1)</script>',
  { es: { ibe_consent_form: [1] }, en: {}, 'x\u0000': {} },
  LONE_SURROGATE,
  CRLF,
  BIDI_OVERRIDE,
  BIDI_ISOLATE,
  { [LONE_SURROGATE]: 'key' },
  [LONE_SURROGATE],
  TOO_LARGE_ID,
  // A JSON object with its own toString: String() of it throws.
  { toString: 1, valueOf: 1 },
  ...BAD_MOBILES,
  'http://93.184.216.34:8080/hook',
];

/** The short list, for the second role and for routes that share a schema with one already covered. */
const FEW_BAD_VALUES: readonly unknown[] = [123, null, {}, '', SQLISH, 'a\u0000b', LONE_SURROGATE, CRLF, BIDI_OVERRIDE];

/** Whole bodies that are not the object a JSON route expects. */
const BAD_BODIES: readonly { label: string; payload?: string; contentType?: string }[] = [
  { label: 'no body' },
  { label: 'empty JSON body', payload: '', contentType: 'application/json' },
  { label: 'JSON null', payload: 'null', contentType: 'application/json' },
  { label: 'JSON array', payload: '[]', contentType: 'application/json' },
  { label: 'JSON array of objects', payload: '[{"name":"x"}]', contentType: 'application/json' },
  { label: 'JSON string', payload: '"hello"', contentType: 'application/json' },
  { label: 'JSON number', payload: '42', contentType: 'application/json' },
  { label: 'malformed JSON', payload: '{"name": ', contentType: 'application/json' },
  {
    label: 'prototype pollution',
    payload: '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}',
    contentType: 'application/json',
  },
  { label: 'text/plain', payload: 'name=x', contentType: 'text/plain' },
  { label: 'form-urlencoded', payload: 'name=x', contentType: 'application/x-www-form-urlencoded' },
  {
    label: 'multipart on a JSON route',
    payload: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
    contentType: 'multipart/form-data; boundary=b',
  },
  { label: 'multipart without boundary', payload: 'garbage', contentType: 'multipart/form-data' },
  { label: 'unknown content type', payload: '\u0000\u0001', contentType: 'application/octet-stream' },
  { label: 'JSON with a charset', payload: '{}', contentType: 'application/json; charset=utf-16' },
  {
    label: 'deeply nested JSON',
    payload: `{"name": ${'['.repeat(400_000)}${']'.repeat(400_000)}}`,
    contentType: 'application/json',
  },
  {
    label: 'deeply nested objects',
    payload: `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
    contentType: 'application/json',
  },
];

const BAD_IDS = [
  'abc',
  '-1',
  '0',
  '99999999999999999999',
  '2147483648',
  '1.5',
  '1e3',
  '0x10',
  '%00',
  '%20',
  encodeURIComponent(SQLISH),
  encodeURIComponent('🙂'),
  'null',
  '%',
  '%E0%A4%A',
  'x'.repeat(300),
];

/** Query strings for every GET (lists and others): garbage paging, ordering, search, filters, periods. */
const BAD_QUERIES = [
  'page=abc',
  'page=0',
  'page=-1',
  'page=1.5',
  'page=99999999999999999999',
  'page=1e400',
  'page=',
  'limit=abc',
  'limit=0',
  'limit=100000',
  'limit=1&limit=2',
  'page=1&page=2',
  'limit=0x10',
  'page=0x2',
  'limit=1e1',
  'limit=%2B16',
  'limit=%2016',
  'limit=',
  'page=1&limit=10&page=1',
  'using_read_db=true&using_read_db=true',
  `search=${encodeURIComponent(BIDI_OVERRIDE)}`,
  `search=${encodeURIComponent(CRLF)}`,
  'search=%ED%A0%BD',
  'ordering=password_hash',
  'ordering=-name;DROP TABLE users',
  'ordering=,,,-,--name',
  'ordering=__proto__',
  'ordering=name&ordering=id',
  `ordering=${'a'.repeat(5000)}`,
  `search=${encodeURIComponent(SQLISH)}`,
  `search=${encodeURIComponent('%_\\')}`,
  `search=${encodeURIComponent(EMOJI)}`,
  `search=${'s'.repeat(5000)}`,
  'search=a&search=b',
  'search=%00',
  'search=a%00b',
  'ordering=%00',
  'to=a%00b',
  'path=companylogo%2Fa%00b',
  'custom_range=2026-01-01',
  'custom_range=2026-02-30,2026-03-01',
  'custom_range=2026-01-01,2026-01-02&custom_range=2026-01-01,2026-01-03',
  `custom_range=${encodeURIComponent('2026-01-01,2026-01-02\r\n')}`,
  'q=%00',
  'date_time_after=2026-13-45',
  'date_time_after=2026-02-30&date_time_before=2026-01-01',
  'date_time_before=0000-00-00',
  'created_after=yesterday',
  'created_after=2026-01-01&created_after=2026-01-02',
  'day=tomorrow',
  'month=next_month',
  'day=today&month=this_month&created_after=2024-01-01',
  'parent=abc',
  'parent=99999999999999999999',
  'ids=abc',
  `ids=${Array.from({ length: 3000 }, (_, i) => i + 1).join(',')}`,
  `ids=${Array.from({ length: 2000 }, () => '2147483647').join(',')}`,
  'ids=1&ids=2',
  'organization=abc',
  'organization=-1',
  'organization=1&organization=2',
  'organization_id=1.5',
  'user_type=ROOT',
  'user_type=ADMIN&user_type=ROOT',
  'is_valid=maybe',
  'is_active=2',
  'is_unassigned=true&is_unassigned=false',
  'using_read_db=yes',
  'can_create_organization=null',
  'sub_organisation[]=1',
  'status=lost',
  'scan=abc',
  'is_tutorial_available=x',
  'format=csv',
  'q=',
  `q=${'q'.repeat(500)}`,
  'q=a&q=b',
  'path=',
  'path=../../etc/passwd',
  `path=${encodeURIComponent('companylogo/../../../etc/passwd')}`,
  'path=a&path=b',
  `path=${'p'.repeat(600)}`,
  'to=a&to=b',
  'country=INDIA',
  'a[b][c]=1&__proto__[x]=1',
];

const BAD_TIMEZONES = ['Mars/Olympus', 'UTC+5:30', '../../etc/passwd', 'x'.repeat(300), '', 'utc'];

const BAD_AUTH_HEADERS = [
  'Token',
  'Token ',
  'Bearer',
  'Bearer x y',
  'Basic dXNlcjpwYXNz',
  `Token ${'a'.repeat(10 * 1024)}`,
  `Token ${'a'.repeat(40)}`,
  'Token ../../../../',
  `Token ${SQLISH}`,
  'Token\ttab-separated-token-value',
  'Token null',
];

type Route = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** With `:id` where the route takes one. */
  path: string;
  /** Routes answering without a token. */
  isPublic?: boolean;
  /** A valid body: each field is replaced in turn by every bad value. Absent: the route takes no body. */
  body?: () => Record<string, unknown>;
  /** Fields to replace besides the body's own ('company_info.email': a field of a nested object). */
  fields?: readonly string[];
  /** The body's schema is covered by another route: the short list of values only. */
  fewValues?: boolean;
  /** Ends the caller's session: called with a throwaway user's token. */
  endsSession?: boolean;
  /** Text fields ('company_info.city' for nested ones) that must refuse HOSTILE_TEXTS on the field. */
  textFields?: readonly string[];
  /** Multi-line text fields: they refuse HOSTILE_TEXTS except line breaks. */
  multilineFields?: readonly string[];
  /** Mobile number fields: each refuses BAD_MOBILES with the phone message. */
  mobileFields?: readonly string[];
  /** A paged list (page, limit, search): strict numbers and one value per parameter. */
  list?: boolean;
  /**
   * The one role the route admits, checked before the body (issue 23.23: a reviewer's review): its body is swept as
   * that role, since any other gets 403 whatever it sends.
   */
  onlyRole?: 'CERVAICAL_REVIEWER';
};

let admin: Awaited<ReturnType<typeof createUser>>;
let adminToken = '';
let orgAdminToken = '';
let reviewerToken = '';
let orgId = 0;
let otherOrgId = 0;
let referenceId = 0;
/** A technician of the target organization and a MANAGER, for the users routes. */
let targetUserId = 0;
let managerId = 0;
let sweepSeq = 0;
/** A patient of the target organization (edited and transferred), and one the DELETE sweep may remove. */
let patientId = 0;
let deletablePatientId = 0;
const mobile = uniqueMobile();

const COMPANY = {
  name: 'Acme Health',
  city: 'Pune',
  zip_code: '411001',
  state: 'Maharashtra',
  address: '1 MG Road',
  country_code: 'IN',
};
/** The organization's text fields, one-line and multi-line, and its mobile fields. */
const ORGANIZATION_TEXT_FIELDS = [
  'name',
  'address_1',
  'address_2',
  'address_3',
  'country',
  'state',
  'zipcode',
  'webhook_auth_token',
  'company_info.name',
  'company_info.city',
  'company_info.zip_code',
  'company_info.state',
  'company_info.address',
];
const ORGANIZATION_MULTILINE_FIELDS = ['customized_message'];
const ORGANIZATION_MOBILE_FIELDS = ['mobile', 'company_info.contact_number'];
/** Every field of the organization body, and of its company_info, from the shared schema. */
const ORGANIZATION_FIELDS = [
  ...Object.keys(ZOrganizationUpdate.shape),
  ...Object.keys(ZCompanyInfo.shape).map((k) => `company_info.${k}`),
];

const ROUTES: readonly Route[] = [
  {
    method: 'POST',
    path: '/auth/password/',
    isPublic: true,
    body: () => ({ email: admin.email, password: 'Wrong-pass1' }),
    textFields: ['email'],
  },
  {
    method: 'POST',
    path: '/auth/otp/',
    isPublic: true,
    body: () => ({ mobile, mobile_country_code: 'IN' }),
    mobileFields: ['mobile'],
  },
  {
    method: 'POST',
    path: '/auth/otp/verify/',
    isPublic: true,
    body: () => ({ mobile, mobile_country_code: 'IN', code: '000000' }),
    mobileFields: ['mobile'],
  },
  {
    method: 'POST',
    path: '/auth/password-reset/',
    isPublic: true,
    body: () => ({ email: 'nobody@example.com' }),
    textFields: ['email'],
  },
  {
    method: 'POST',
    path: '/auth/password-reset/confirm/',
    isPublic: true,
    body: () => ({ token: 'not-a-real-reset-token', password: 'New-pass123' }),
  },
  {
    method: 'POST',
    path: '/user/login/',
    isPublic: true,
    body: () => ({ id_token: 'not-an-id-token', source: 'DASHBOARD', is_login: true }),
    fields: ['mobile_country_code', 'user_type'],
    textFields: ['mobile_country_code'],
  },
  { method: 'GET', path: '/user/' },
  { method: 'PUT', path: '/user/last_dashboard_path/', body: () => ({ url: '/organizations' }), textFields: ['url'] },
  { method: 'POST', path: '/user/logout/', endsSession: true },
  { method: 'DELETE', path: '/user/delete/me/', endsSession: true },
  { method: 'GET', path: '/user/impersonation/:id/' },
  { method: 'DELETE', path: '/user/impersonation/' },
  { method: 'GET', path: '/organization/user/', list: true },
  { method: 'GET', path: '/organization/user/:id/' },
  {
    method: 'POST',
    path: '/organization/user/',
    body: () => ({
      first_name: 'Hostile',
      last_name: 'Tester',
      user_type: 'TECHNICIAN',
      email: `sweep${++sweepSeq}-${process.pid}@example.com`,
      mobile_country_code: 'IN',
      organization: orgId,
    }),
    fields: ['mobile', 'is_trainer', 'is_available_demo'],
    textFields: ['first_name', 'last_name', 'email', 'mobile_country_code'],
  },
  {
    method: 'PUT',
    path: '/organization/user/:id/',
    body: () => ({ first_name: 'Target', last_name: 'Tech', user_type: 'TECHNICIAN' }),
    fields: ['organization', 'is_update_scan_organization', 'email', 'mobile', 'mobile_country_code', 'is_trainer', 'is_available_demo'],
    textFields: ['first_name', 'last_name'],
  },
  {
    method: 'PATCH',
    path: '/organization/user/:id/',
    body: () => ({ organization: orgId }),
    fields: ['first_name', 'user_type', 'is_update_scan_organization'],
    fewValues: true,
  },
  { method: 'PUT', path: '/organization/user/:id/reset/pin/', body: () => ({ pin_reset_request: true }) },
  { method: 'POST', path: '/organization/user/:id/reset/password/', body: () => ({}) },
  { method: 'POST', path: '/organization/user/:id/re-certify/', body: () => ({}) },
  { method: 'GET', path: '/organization/user/:id/scan/count/' },
  { method: 'GET', path: '/user/certify/:id/' },
  { method: 'GET', path: '/tutorial/module/status/' },
  { method: 'GET', path: '/user/organizations/' },
  { method: 'POST', path: '/user/organizations/', body: () => ({ organization: orgId, user: managerId }) },
  { method: 'DELETE', path: '/user/organizations/:id/' },
  { method: 'GET', path: '/country/', isPublic: true },
  { method: 'GET', path: '/timezone/', isPublic: true },
  { method: 'GET', path: '/dev/outbox/', isPublic: true },
  { method: 'GET', path: '/geocode/' },
  { method: 'GET', path: '/language/', list: true },
  // Languages and app versions (issue 11): ADMIN writes; the sweep's ids name no language or version (404) once a body
  // is valid.
  { method: 'GET', path: '/language/:id/' },
  {
    method: 'POST',
    path: '/language/',
    body: () => ({ name: 'Sweep language', iso_code: 'zz', is_tutorial_available: false, app_version: null }),
    textFields: ['name', 'iso_code'],
  },
  {
    method: 'PUT',
    path: '/language/:id/',
    body: () => ({ name: 'Sweep language', iso_code: 'zy', is_tutorial_available: true, app_version: null }),
    textFields: ['name', 'iso_code'],
  },
  { method: 'PATCH', path: '/language/:id/', body: () => ({ name: 'Sweep language' }), fields: ['iso_code', 'app_version'], fewValues: true },
  { method: 'GET', path: '/app_version/', list: true },
  { method: 'GET', path: '/app_version/latest/' },
  { method: 'GET', path: '/app_version/:id/' },
  {
    method: 'POST',
    path: '/app_version/',
    body: () => ({ name: '9.9.9', code: `s${++sweepSeq}`, notes: { note: 'Sweep' }, type: 'ORCA', tutorial_version: 1 }),
    textFields: ['name', 'code'],
    multilineFields: ['notes.note'],
  },
  {
    method: 'PUT',
    path: '/app_version/:id/',
    body: () => ({ name: '9.9.9', code: '999', notes: { note: 'Sweep' }, type: 'ORCA', tutorial_version: null }),
    textFields: ['name', 'code'],
    multilineFields: ['notes.note'],
  },
  { method: 'PATCH', path: '/app_version/:id/', body: () => ({ name: '9.9.9' }), fields: ['code', 'notes', 'type'], fewValues: true },
  { method: 'GET', path: '/organization/', list: true },
  { method: 'GET', path: '/organization/:id/' },
  {
    method: 'POST',
    path: '/organization/',
    body: () => ({ name: 'Hostile Clinic', country: 'India', company_info: COMPANY }),
    fields: ORGANIZATION_FIELDS,
    textFields: ORGANIZATION_TEXT_FIELDS,
    multilineFields: ORGANIZATION_MULTILINE_FIELDS,
    mobileFields: ORGANIZATION_MOBILE_FIELDS,
  },
  {
    method: 'PUT',
    path: '/organization/:id/',
    body: () => ({ name: 'Target Clinic', country: 'India', company_info: COMPANY }),
    fields: ORGANIZATION_FIELDS,
    fewValues: true,
  },
  {
    method: 'PATCH',
    path: '/organization/:id/',
    body: () => ({ name: 'Target Clinic', company_info: COMPANY }),
    fields: ORGANIZATION_FIELDS,
    fewValues: true,
    textFields: ORGANIZATION_TEXT_FIELDS,
    multilineFields: ORGANIZATION_MULTILINE_FIELDS,
    mobileFields: ORGANIZATION_MOBILE_FIELDS,
  },
  { method: 'GET', path: '/organization/reference/', list: true },
  {
    method: 'POST',
    path: '/organization/reference/',
    body: () => ({ name: 'Ref', is_active: true, organization: orgId }),
    textFields: ['name'],
  },
  {
    method: 'PATCH',
    path: '/organization/reference/:id/',
    body: () => ({ name: 'Ref renamed', is_active: true }),
    textFields: ['name'],
  },
  { method: 'DELETE', path: '/organization/reference/:id/' },
  {
    method: 'POST',
    path: '/organization/previous-scans/',
    body: () => ({ organization: orgId }),
    fields: ['organization_id', 'id'],
  },
  { method: 'GET', path: '/organization/webhook-deliveries/', list: true },
  // Issue 27: the signing secret (made once-shown, status) and Replay of one delivery or a period.
  { method: 'GET', path: '/organization/:id/webhook/secret/' },
  { method: 'POST', path: '/organization/:id/webhook/secret/', body: () => ({}) },
  { method: 'POST', path: '/organization/webhook-deliveries/:id/replay/', body: () => ({}) },
  {
    method: 'POST',
    path: '/organization/webhook-deliveries/replay/',
    body: () => ({ organization: orgId, created_after: '2026-01-01', created_before: '2026-01-31', status: 'failed' }),
  },
  // Dashboard statistics (issue 9): tiles, chart, By Device, By Technician, leaderboard.
  { method: 'GET', path: '/scan/dashboard/' },
  { method: 'GET', path: '/scan/dashboard/chart/' },
  { method: 'GET', path: '/scan/device-positive/', list: true },
  { method: 'GET', path: '/organization/technician-positive/', list: true },
  { method: 'GET', path: '/organization/leaderboard/', list: true },
  { method: 'GET', path: '/user/training/report/pdf/:id/' },
  { method: 'GET', path: '/user/practice/report/pdf/:id/' },
  // A scan's recorded sensor frames (issue 8, the /chart replay page).
  { method: 'GET', path: '/scan/:id/replay/' },
  // The device upload API (issue 8): the sweep's ADMIN is refused (403) once a body is valid, its ORG_ADMIN (a
  // role that scans) is asked for the Idempotency-Key; every bad field is a 400 on the field before either.
  { method: 'GET', path: '/device/session/' },
  {
    method: 'POST',
    path: '/patient/',
    body: () => ({
      first_name: 'Asha',
      last_name: 'Rao',
      age: 40,
      gender: 'FEMALE',
      mobile: '9876543210',
      email: 'asha@example.com',
      physician_name: 'Dr. Iyer',
      clinic_patient_id: 'C-1',
      device_serial_number: 'IBE-SWEEP-1',
      local_db_id: 'p-1',
    }),
    fields: ['date_of_birth', 'mobile_country_code', 'physician_email', 'reference', 'date_time', 'most_recent_mammogram_report'],
    textFields: ['first_name', 'last_name', 'email', 'physician_name', 'clinic_patient_id', 'device_serial_number', 'local_db_id'],
    mobileFields: ['mobile'],
  },
  {
    method: 'POST',
    path: '/scan/',
    body: () => ({
      patient: 1,
      device_serial_number: 'IBE-SWEEP-1',
      local_db_id: 's-1',
      scan_type: 'SCAN',
      date_time: '2026-03-01T10:00:00Z',
      left_breast_finding: ['mass'],
      notes: { message: 'ok' },
      metadata: { device: { os_version: '14' } },
      scan_files_path: { reports: [], consent_form: [], assessment_files: [] },
    }),
    fields: [
      'breast_type',
      'right_breast_finding',
      'latitude',
      'longitude',
      'under_bust',
      'next_appointment_date',
      'assessment_result',
      'is_survivor',
      'sensor_serial_number',
      'scan_files_path.reports',
      'metadata.device',
    ],
    textFields: ['device_serial_number', 'local_db_id', 'sensor_serial_number', 'tablet_serial_number', 'hardware_version', 'software_version'],
    multilineFields: ['notes.message'],
  },
  // The console's patients (issue 8): list, one patient, edit, delete, transfer and the transfer dialog's reports.
  { method: 'GET', path: '/patient/', list: true },
  { method: 'GET', path: '/patient/:id/' },
  { method: 'GET', path: '/patient/:id/reports/' },
  {
    method: 'PATCH',
    path: '/patient/:id/',
    body: () => ({ last_name: 'Rao', mobile: '9876543210', mobile_country_code: 'IN' }),
    fields: ['age', 'date_of_birth', 'gender', 'reference', 'technician'],
    textFields: ['first_name', 'last_name', 'email', 'physician_name', 'physician_email', 'clinic_patient_id'],
    mobileFields: ['mobile'],
  },
  { method: 'DELETE', path: '/patient/:id/' },
  {
    method: 'POST',
    path: '/patient/transfer/:id/',
    body: () => ({ organization_id: orgId, technician_id: targetUserId }),
  },
  // The console's breast scans (issue 8): list (and CSV), a map cluster's ids, map points, one scan, duplicate
  // delete, transfer, the filter pickers and the report log.
  { method: 'GET', path: '/scan/', list: true },
  { method: 'POST', path: '/scan/ids/', body: () => ({ ids_list: [1, 2] }) },
  { method: 'GET', path: '/scan/lat-long/' },
  { method: 'GET', path: '/scan/sensor-serial-numbers/' },
  { method: 'GET', path: '/scan/devices/' },
  { method: 'GET', path: '/scan/report-log/', list: true },
  { method: 'GET', path: '/scan/:id/' },
  { method: 'DELETE', path: '/scan/:id/' },
  // The trash (issue 27): each area's list, a restore (the sweep's ids name no entry: 404), the single exam deletes.
  { method: 'GET', path: '/trash/patients/', list: true },
  { method: 'GET', path: '/trash/scans/', list: true },
  { method: 'GET', path: '/trash/exams/', list: true },
  { method: 'GET', path: '/trash/users/', list: true },
  { method: 'POST', path: '/trash/:id/restore/' },
  { method: 'DELETE', path: '/cervaical/:id/' },
  { method: 'DELETE', path: '/orca/:id/' },
  {
    method: 'POST',
    path: '/scan/:id/transfer/',
    body: () => ({ organization_id: orgId, technician_id: targetUserId }),
  },
  // Licences (issue 10): ADMIN-only; the sweep's ids name no licence (404) once a body is valid.
  { method: 'GET', path: '/organization/license/', list: true },
  { method: 'GET', path: '/organization/license/log/' },
  { method: 'GET', path: '/organization/license/:id/' },
  {
    method: 'POST',
    path: '/organization/license/',
    body: () => ({ organization: otherOrgId, application: 'ORCA', count: 100, is_active: true }),
  },
  { method: 'PATCH', path: '/organization/license/:id/', body: () => ({ count: 200, is_active: true }), fields: ['organization', 'application'] },
  { method: 'DELETE', path: '/organization/license/:id/' },
  // Exam device uploads (issue 10): as POST scan/, every bad field is a 400 on the field before the role check.
  {
    method: 'POST',
    path: '/cervaical/',
    body: () => ({
      patient: 1,
      device_serial_number: 'IBE-SWEEP-1',
      local_db_id: 'c-1',
      date_time: '2026-03-01T10:00:00Z',
      notes: { message: 'ok' },
      documents: [{ path: 'documents/x.png', document_type: 'IMAGE', symptom_tag: 'VIA' }],
    }),
    fields: ['latitude', 'file_path.reports', 'metadata.device', 'has_symptoms'],
    textFields: ['device_serial_number', 'local_db_id', 'sensor_serial_number', 'software_version'],
    multilineFields: ['notes.message'],
  },
  {
    method: 'POST',
    path: '/orca/',
    body: () => ({
      patient: 1,
      device_serial_number: 'IBE-SWEEP-1',
      local_db_id: 'o-1',
      date_time: '2026-03-01T10:00:00Z',
      case_history: { uses_tobacco: true, smoke_count_unit: 'day' },
      findings: [{ exam: 'intra_oral_exam', part: 'Lip', symptoms: ['Ulcer'] }],
    }),
    fields: ['license_code', 'cancer_history', 'case_history.smoking_history_time_months', 'file_path.consent_form'],
    textFields: ['device_serial_number', 'local_db_id', 'license_code', 'case_history.smoke_count_unit'],
  },
  // Cervical exams in the console (issue 10): the list, by ids, one exam, the review documents and reviews, the final
  // read.
  { method: 'GET', path: '/cervaical/', list: true },
  { method: 'POST', path: '/cervaical/ids/', body: () => ({ ids_list: [1, 2] }) },
  { method: 'GET', path: '/cervaical/:id/' },
  // Needs ?scan= (the exam): its paging is the list's, checked on GET /cervaical/.
  { method: 'GET', path: '/cervaical/document/' },
  { method: 'GET', path: '/cervaical/reviewer-agreement/' },
  {
    method: 'POST',
    path: '/cervaical/document-user/',
    body: () => ({ document: 1, review_status: 'VALID', qualities: [{ quality: 1, answer: true }], clinical_finding: [] }),
    onlyRole: 'CERVAICAL_REVIEWER',
  },
  {
    method: 'PATCH',
    path: '/cervaical/document-user/:id/',
    body: () => ({ document: 1, review_status: 'VALID', qualities: [], clinical_finding: [] }),
  },
  {
    method: 'POST',
    path: '/cervaical/:id/adjudication/',
    body: () => ({ final_status: 'VALID', note: 'Final read' }),
    multilineFields: ['note'],
  },
  // Firmware (issue 11): the console's calls (ADMIN, SUB_ADMIN; ids name no firmware: 404), the device read, and the
  // create: multipart, or JSON {version, path} of an uploaded file (issue 23.21: a bad body is a 400 on its field);
  // PUT and PATCH by id (ADMIN).
  { method: 'GET', path: '/firmware/', list: true },
  { method: 'GET', path: '/firmware/latest/' },
  { method: 'GET', path: '/firmware/:id/' },
  { method: 'GET', path: '/firmware/:id/download/' },
  { method: 'DELETE', path: '/firmware/:id/' },
  {
    method: 'POST',
    path: '/firmware/',
    body: () => ({ version: 'v9.1', path: 'firmware/none.ibe' }),
    textFields: ['version', 'path'],
  },
  { method: 'PUT', path: '/firmware/:id/', body: () => ({ version: 'v9.1', path: 'firmware/none.ibe' }), fewValues: true },
  { method: 'PATCH', path: '/firmware/:id/', body: () => ({ path: 'firmware/none.ibe' }), fewValues: true },
  // The spec's own paths with a shape of their own (issue 23.21); its aliases are the product routes above.
  { method: 'GET', path: '/scan/latlng/' },
  { method: 'GET', path: '/scan/recentscan/', list: true },
  { method: 'GET', path: '/scan/technicians/', list: true },
  { method: 'GET', path: '/orca/case-history/' },
  { method: 'GET', path: '/file/' },
  { method: 'POST', path: '/file/upload/' },
  // Bookings (issue 12): the public page by organization token (this token names none: 404 once the input is
  // valid) and the console's list, one booking, status moves, offline payment and page link.
  { method: 'GET', path: '/appointment/sweep-page/', isPublic: true },
  { method: 'GET', path: '/appointment/sweep-page/date/', isPublic: true },
  { method: 'GET', path: '/appointment/sweep-page/slot/?date=2026-03-02', isPublic: true },
  {
    method: 'POST',
    path: '/appointment/sweep-page/booking/',
    isPublic: true,
    body: () => ({ start: '2026-03-02T03:30:00.000Z', first_name: 'Asha', last_name: 'Rao', mobile, email: 'asha@example.com', age: 30 }),
    textFields: ['first_name', 'last_name', 'email'],
  },
  { method: 'GET', path: '/appointment/sweep-page/booking/sweep-booking/', isPublic: true },
  { method: 'POST', path: '/appointment/sweep-page/booking/sweep-booking/cancel/', isPublic: true },
  { method: 'GET', path: '/booking/', list: true },
  { method: 'GET', path: '/booking/link/:id/' },
  { method: 'GET', path: '/booking/:id/' },
  { method: 'POST', path: '/booking/:id/status/', body: () => ({ status: 'PAID' }) },
  { method: 'POST', path: '/booking/:id/payment/', body: () => ({ method: 'CASH', reference: 'R-1' }), textFields: ['reference'] },
  // Follow-up (issue 26): the worklist, a case (the sweep's id names none: 404 once the input is valid), its
  // assignment and actions, and the organization's settings.
  { method: 'GET', path: '/follow-up/', list: true },
  { method: 'GET', path: '/follow-up/assignees/?organization=1' },
  { method: 'GET', path: '/follow-up/:id/' },
  { method: 'PATCH', path: '/follow-up/:id/', body: () => ({ assigned_user: null }) },
  { method: 'POST', path: '/follow-up/:id/actions/', body: () => ({ kind: 'NOTE', note: 'Sweep note' }), multilineFields: ['note'] },
  { method: 'GET', path: '/organization/:id/follow-up-settings/' },
  {
    method: 'PUT',
    path: '/organization/:id/follow-up-settings/',
    body: () => ({ contact_days: 7, referral_days: 14, seen_days: 30, outcome_days: 30, digest_enabled: true, sms_enabled: false, sms_texts: { en: 'Dear {first_name}' } }),
    textFields: ['sms_texts.en'],
  },
  { method: 'PATCH', path: '/organization/:id/follow-up-settings/', body: () => ({ contact_days: 7 }), fewValues: true },
  // The audit trail (issue 27): the keyset list (no page: before/after), one row (the sweep's id names none: 404),
  // and the retention setting.
  { method: 'GET', path: '/audit/' },
  { method: 'GET', path: '/audit/:id/' },
  { method: 'GET', path: '/audit/settings/' },
  { method: 'PUT', path: '/audit/settings/', body: () => ({ retention_days: 400 }) },
  // Tutorials (issue 11): ADMIN only; the sweep's ids name no module, quiz, option or content (404 once a body is
  // valid); the device read of the tutorials and the module completion report.
  { method: 'GET', path: '/tutorial/module/', list: true },
  { method: 'GET', path: '/tutorial/module/:id/' },
  {
    method: 'POST',
    path: '/tutorial/module/',
    body: () => ({ name: 'Sweep module', z_order: 1, re_take_question_percentage: 50 }),
    fields: ['localize', 'status'],
    textFields: ['name', 'pass_text', 're_take_question_text', 're_take_module_text', 're_take_module_again_text'],
  },
  { method: 'PUT', path: '/tutorial/module/:id/', body: () => ({ name: 'Sweep module', z_order: 1 }), fewValues: true },
  { method: 'DELETE', path: '/tutorial/module/:id/' },
  { method: 'PUT', path: '/tutorial/module/order/', body: () => ({ ids: [1] }) },
  { method: 'GET', path: '/tutorial/quiz/' },
  { method: 'GET', path: '/tutorial/quiz/:id/' },
  {
    method: 'POST',
    path: '/tutorial/quiz/',
    body: () => ({ module: 1, question: 'Sweep?', z_order: 1, is_multi_select: false, options: [{ option: 'Yes' }] }),
    fields: ['localize', 'primary_image'],
    textFields: ['question'],
  },
  { method: 'PUT', path: '/tutorial/quiz/:id/', body: () => ({ module: 1, question: 'Sweep?', z_order: 1 }), fewValues: true },
  { method: 'DELETE', path: '/tutorial/quiz/:id/' },
  { method: 'PUT', path: '/tutorial/quiz/order/', body: () => ({ module: 1, ids: [1] }) },
  { method: 'GET', path: '/tutorial/quiz-option/' },
  { method: 'GET', path: '/tutorial/quiz-option/:id/' },
  {
    method: 'POST',
    path: '/tutorial/quiz-option/',
    body: () => ({ option: 'Yes', question: 1, z_order: 1, is_correct: true }),
    fields: ['is_select_all_or_none', 'localize'],
    textFields: ['option'],
  },
  { method: 'PUT', path: '/tutorial/quiz-option/:id/', body: () => ({ option: 'Yes', question: 1 }), fewValues: true },
  { method: 'DELETE', path: '/tutorial/quiz-option/:id/' },
  { method: 'GET', path: '/tutorial/content/' },
  { method: 'GET', path: '/tutorial/content/:id/' },
  {
    method: 'POST',
    path: '/tutorial/content/',
    body: () => ({ title: 'Sweep video', z_order: 1, module: 1, primary_image: 'sweep' }),
    fields: ['app_version', 'localize', 'status'],
    textFields: ['title', 'primary_image'],
    multilineFields: ['primary_text'],
  },
  { method: 'PUT', path: '/tutorial/content/:id/', body: () => ({ title: 'Sweep video', z_order: 1, module: 1 }), fewValues: true },
  { method: 'DELETE', path: '/tutorial/content/:id/' },
  { method: 'PUT', path: '/tutorial/content/order/', body: () => ({ module: 1, ids: [1] }) },
  { method: 'GET', path: '/tutorial/app/' },
  { method: 'POST', path: '/tutorial/module-completed/', body: () => ({ module: 1, progress: 50 }), fields: ['completed'] },
];

/** Routes whose body is JSON (the upload route takes multipart). */
const JSON_BODY_ROUTES = ROUTES.filter((r) => r.method !== 'GET' && r.path !== '/file/upload/');

const label = (r: Route) => `${r.method} ${r.path}`;

/** Declared fields per field-sweep test, and parts of the long value list: each test stays well under 30 s. */
const FIELDS_PER_TEST = 8;
const VALUE_PARTS = 4;

type SweepRole = 'ADMIN' | 'ORG_ADMIN' | 'CERVAICAL_REVIEWER';
type FieldSweepCase = readonly [name: string, route: Route, role: SweepRole, fields: Part, values: Part];
/** Part `index` of `count`: the items whose position modulo count is index. */
type Part = { index: number; count: number };
const inPart = (part: Part) => (_: unknown, i: number) => i % part.count === part.index;

/**
 * The field sweep's tests: per route and role, one per group of its fields and part of its values. A route's fields
 * are known only once its body is built (after beforeAll), so fields are grouped by position, by the declared count.
 */
function fieldSweepCases(routes: readonly Route[]): FieldSweepCase[] {
  const parts = (count: number) => Array.from({ length: count }, (_, index) => ({ index, count }));
  return routes.flatMap((r) =>
    (r.onlyRole ? [r.onlyRole] : (['ADMIN', 'ORG_ADMIN'] as const)).flatMap((role: SweepRole) => {
      const fieldParts = parts(Math.max(1, Math.ceil((r.fields?.length ?? 0) / FIELDS_PER_TEST)));
      // ORG_ADMIN and fewValues routes get the short list, in one part.
      const valueParts = parts(role !== 'ORG_ADMIN' && !r.fewValues ? VALUE_PARTS : 1);
      return fieldParts.flatMap((fields) =>
        valueParts.map((values): FieldSweepCase => {
          const of = (p: Part, what: string) => (p.count > 1 ? ` ${what} ${p.index + 1}/${p.count}` : '');
          return [`${label(r)} as ${role}${of(fields, 'fields')}${of(values, 'values')}`, r, role, fields, values];
        }),
      );
    }),
  );
}

/** The path with a real id (the reference's for reference routes, the organization's for the others). */
function pathOf(r: Route, id?: string): string {
  const real = r.path.startsWith('/patient/')
    ? r.method === 'DELETE'
      ? deletablePatientId
      : patientId
    : r.path.startsWith('/organization/reference/')
    ? referenceId
    : r.path.startsWith('/organization/user/')
      ? targetUserId
      : r.path.startsWith('/user/')
        ? admin.id
        : orgId;
  return `${API}${r.path.replace(':id', id ?? String(real))}`;
}

/** `body` with `field` set to `value`; 'a.b' sets b inside the object a (created when missing). */
function withField(body: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const [outer, inner] = field.split('.') as [string, string | undefined];
  if (inner === undefined) return { ...body, [outer]: value };
  const nested = body[outer];
  return {
    ...body,
    [outer]: { ...(typeof nested === 'object' && nested !== null ? nested : {}), [inner]: value },
  };
}

/** What is wrong with an answer, or null: never 5xx; 400 is {field: [string…]}; other 4xx are exactly {detail}. */
function problemOf(res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return `${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode < 400) return null;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return `${res.statusCode} with a non-JSON body: ${res.body.slice(0, 100)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `${res.statusCode} body is not an object`;
  const entries = Object.entries(body);
  if (res.statusCode === 400) {
    const ok =
      entries.length > 0 &&
      entries.every(
        ([, v]) => Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string' && m.length > 0),
      );
    return ok ? null : `400 not in the field shape: ${res.body.slice(0, 300)}`;
  }
  const ok = entries.length === 1 && typeof (body as { detail?: unknown }).detail === 'string';
  return ok ? null : `${res.statusCode} not {detail}: ${res.body.slice(0, 300)}`;
}

type Offence = { request: string; problem: string };

/** Sends every request (a few at a time) and lists the answers that break the rules. */
async function offences(
  requests: { name: string; inject: () => Promise<LightMyRequestResponse>; expectStatus?: number }[],
): Promise<Offence[]> {
  const out: Offence[] = [];
  const batch = 8;
  for (let i = 0; i < requests.length; i += batch) {
    await Promise.all(
      requests.slice(i, i + batch).map(async (req) => {
        const res = await req.inject();
        const problem =
          problemOf(res) ??
          (req.expectStatus !== undefined && res.statusCode !== req.expectStatus
            ? `expected ${req.expectStatus}, got ${res.statusCode} ${res.body.slice(0, 200)}`
            : null);
        if (problem) out.push({ request: req.name, problem });
      }),
    );
  }
  return out;
}

/** A fresh session for routes that end it, else the admin's. */
async function tokenFor(r: Route, role: SweepRole = 'ADMIN'): Promise<string> {
  if (r.onlyRole) return reviewerToken;
  if (role === 'CERVAICAL_REVIEWER') throw new Error('Only a route with onlyRole is swept as a reviewer.');
  if (!r.endsSession) return role === 'ADMIN' ? adminToken : orgAdminToken;
  const user = await createUser(t, {
    userType: role,
    organizationId: role === 'ADMIN' ? null : orgId,
    password: null,
  });
  return signIn(t, user);
}

beforeAll(async () => {
  const org = await createOrganization(t, { name: 'Target Clinic', canCreateOrganization: true });
  orgId = org.id;
  otherOrgId = (await createOrganization(t, { name: 'Other Clinic' })).id;
  admin = await createUser(t, { userType: 'ADMIN', mobile });
  adminToken = await signIn(t, admin);
  orgAdminToken = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: orgId }));
  reviewerToken = await signIn(t, await createUser(t, { userType: 'CERVAICAL_REVIEWER' }));
  targetUserId = (await createUser(t, { userType: 'TECHNICIAN', organizationId: orgId })).id;
  managerId = (await createUser(t, { userType: 'MANAGER' })).id;
  const ref = await t.app.inject({
    method: 'POST',
    url: `${API}/organization/reference/`,
    headers: auth(adminToken),
    payload: { name: 'Seed reference', organization: orgId },
  });
  expect(ref.statusCode).toBe(201);
  referenceId = ref.json<{ id: number }>().id;
  for (const name of ['Sweep', 'Deletable']) {
    const created = await t.app.inject({
      method: 'POST',
      url: `${API}/patient/`,
      headers: auth(adminToken),
      payload: { first_name: name, last_name: 'Patient', age: 40, organization: orgId, technician: targetUserId },
    });
    expect(created.statusCode, created.body).toBe(201);
    if (name === 'Sweep') patientId = created.json<{ id: number }>().id;
    else deletablePatientId = created.json<{ id: number }>().id;
  }
});

/**
 * Defines one share of the sweep's tests: share `part` of `parts` takes every parts-th route of each route table and
 * every parts-th of the other tests, in the order they are written (the same in every share), and skips the rest.
 * Each share runs as its own test file, so the two test workers share the sweep.
 */
export function badInputTests(part: number, parts: number): void {
  const mine = <T>(list: readonly T[]): T[] => list.filter((_, i) => i % parts === part);
  let written = 0;
  const share = () => (written++ % parts === part ? it : it.skip);

  describe('hostile input never answers 500 and always the DRF error shape', () => {
    // The tables below only mean something if the bodies they start from get past validation.
    share().each([
      ['PUT /user/last_dashboard_path/', 200],
      ['POST /organization/', 201],
      ['PUT /organization/:id/', 200],
      ['PATCH /organization/:id/', 200],
      ['POST /organization/reference/', 201],
      ['PATCH /organization/reference/:id/', 200],
      ['POST /organization/user/', 201],
      ['PUT /organization/user/:id/', 200],
      ['PATCH /organization/user/:id/', 200],
      ['PUT /organization/user/:id/reset/pin/', 200],
      ['POST /user/organizations/', 201],
      ['PATCH /patient/:id/', 200],
      ['POST /patient/transfer/:id/', 200],
    ] as const)('%s: the valid body the hostile variants start from is accepted', async (name, status) => {
      const r = ROUTES.find((route) => label(route) === name)!;
      const res = await t.app.inject({
        method: r.method,
        url: pathOf(r),
        headers: auth(adminToken),
        payload: r.body!(),
      });
      expect(res.statusCode, res.body).toBe(status);
    });

    share()('refuses a NUL character in a body field or a query with a field error (PostgreSQL cannot store it)', async () => {
      const cases = [
        {
          method: 'PATCH',
          url: `/organization/${orgId}/`,
          payload: { webhook_auth_token: 'a\u0000b' },
          field: 'webhook_auth_token',
        },
        {
          method: 'POST',
          url: '/organization/',
          payload: { name: 'Clinic', company_info: { ...COMPANY, city: 'Pu\u0000ne' } },
          field: 'company_info.city',
        },
        { method: 'PUT', url: '/user/last_dashboard_path/', payload: { url: '/a\u0000' }, field: 'url' },
        { method: 'GET', url: '/organization/?search=a%00b', field: 'search' },
        { method: 'GET', url: '/dev/outbox/?to=a%00b', field: 'to' },
      ] as const;
      for (const c of cases) {
        const res = await t.app.inject({
          method: c.method,
          url: `${API}${c.url}`,
          headers: auth(adminToken),
          ...('payload' in c ? { payload: c.payload } : {}),
        });
        expect(res.statusCode, c.url).toBe(400);
        expect(res.json()).toEqual({ [c.field]: [NULL_CHARACTER_MESSAGE] });
      }
    });

    share()('changes nothing when a write is refused', async () => {
      const before = (
        await t.app.inject({ method: 'GET', url: `${API}/organization/${orgId}/`, headers: auth(adminToken) })
      ).json<object>();
      for (const payload of [
        { name: 'Renamed', price: 'abc' },
        { name: 'Renamed', webhook_auth_token: 'a\u0000b' },
        { name: 'Renamed', company_info: { ...COMPANY, email: 123 } },
        { name: 'Renamed', parent: 99999999999 },
      ]) {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `${API}/organization/${orgId}/`,
          headers: auth(adminToken),
          payload,
        });
        expect(res.statusCode).toBe(400);
      }
      const after = (
        await t.app.inject({ method: 'GET', url: `${API}/organization/${orgId}/`, headers: auth(adminToken) })
      ).json<object>();
      expect(after).toEqual(before);
    });
    // One test per route, role, group of fields and part of the values (fieldSweepCases): POST organization/ in one
    // test (2 roles × 45 fields × 30 values) overran 60 s on a loaded 2-core machine.
    it.each(fieldSweepCases(mine(JSON_BODY_ROUTES.filter((r) => r.body))))(
      '%s: every field replaced by a wrong type or a hostile string',
      async (_name, r, role, fieldPart, valuePart) => {
        const base = r.body!();
        const token = await tokenFor(r, role);
        const fields = [...new Set([...Object.keys(base), ...(r.fields ?? []), 'unknown_field'])];
        // ORG_ADMIN gets the short list: the ADMIN run covers every value.
        const values = (role !== 'ORG_ADMIN' && !r.fewValues ? BAD_VALUES : FEW_BAD_VALUES).filter(inPart(valuePart));
        const requests = fields.filter(inPart(fieldPart)).flatMap((field) =>
          values.map((value) => ({
            name: `${role} ${field}=${JSON.stringify(value)?.slice(0, 40)}`,
            inject: () =>
              t.app.inject({
                method: r.method,
                url: pathOf(r),
                headers: r.isPublic ? {} : auth(token),
                payload: withField(base, field, value),
              }),
          })),
        );
        expect(await offences(requests)).toEqual([]);
      },
    );

    it.each(mine(JSON_BODY_ROUTES.map((r) => [label(r), r] as const)))(
      '%s: bodies that are not a JSON object',
      async (_name, r) => {
        const requests = [];
        for (const body of BAD_BODIES) {
          const token = await tokenFor(r);
          requests.push({
            name: body.label,
            inject: () =>
              t.app.inject({
                method: r.method,
                url: pathOf(r),
                headers: {
                  ...(r.isPublic ? {} : auth(token)),
                  ...(body.contentType ? { 'content-type': body.contentType } : {}),
                },
                ...(body.payload !== undefined ? { payload: body.payload } : {}),
              }),
          });
        }
        expect(await offences(requests)).toEqual([]);
      },
    );

    it.each(mine(ROUTES.filter((r) => r.path.includes(':id')).map((r) => [label(r), r] as const)))(
      '%s: an id that names nothing answers 404',
      async (_name, r) => {
        const requests = BAD_IDS.map((id) => ({
          name: id.slice(0, 40),
          expectStatus: 404,
          inject: () =>
            t.app.inject({
              method: r.method,
              url: pathOf(r, id),
              headers: auth(adminToken),
              ...(r.body ? { payload: r.method === 'PATCH' ? {} : r.body() } : {}),
            }),
        }));
        expect(await offences(requests)).toEqual([]);
      },
    );

    share()('answers 404 {detail} to a path that cannot be decoded or whose id is longer than any id', async () => {
      for (const url of [
        `${API}/organization/${'9'.repeat(300)}/`,
        `${API}/organization/%E0%A4%A/`,
        `${API}/user/impersonation/%/`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers: auth(adminToken) });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.' });
      }
    });

    share()('an out-of-scope organization answers 404 to an ORG_ADMIN', async () => {
      for (const method of ['GET', 'PATCH'] as const) {
        const res = await t.app.inject({
          method,
          url: `${API}/organization/${otherOrgId}/`,
          headers: auth(orgAdminToken),
          ...(method === 'PATCH' ? { payload: { name: 'Taken over' } } : {}),
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.' });
      }
    });

    it.each(mine(ROUTES.filter((r) => r.method === 'GET').map((r) => [label(r), r] as const)))(
      '%s: garbage query parameters',
      async (_name, r) => {
        const requests = [];
        for (const role of ['ADMIN', 'ORG_ADMIN'] as const) {
          const token = role === 'ADMIN' ? adminToken : orgAdminToken;
          for (const query of BAD_QUERIES) {
            requests.push({
              name: `${role} ?${query.slice(0, 60)}`,
              inject: () => t.app.inject({ method: 'GET', url: `${pathOf(r)}?${query}`, headers: auth(token) }),
            });
          }
        }
        expect(await offences(requests)).toEqual([]);
      },
    );

    it.each(mine(ROUTES.filter((r) => r.method === 'GET').map((r) => [label(r), r] as const)))(
      '%s: invalid Timezone headers, with and without period filters',
      async (_name, r) => {
        const requests = [];
        for (const timezone of BAD_TIMEZONES) {
          for (const query of [
            '',
            '?day=today',
            '?created_after=2024-01-01&created_before=2024-02-01',
            '?date_time_after=2024-01-01',
            '?month=last_month',
          ]) {
            requests.push({
              name: `Timezone: ${timezone.slice(0, 30)} ${query}`,
              inject: () =>
                t.app.inject({
                  method: 'GET',
                  url: `${pathOf(r)}${query}`,
                  headers: { ...auth(adminToken), timezone },
                }),
            });
          }
        }
        expect(await offences(requests)).toEqual([]);
      },
    );

    share()('answers an unknown Timezone on a period list with a field error', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${API}/organization/?day=today`,
        headers: { ...auth(adminToken), timezone: 'Mars/Olympus' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ Timezone: ['Unknown time zone.'] });
    });

    it.each(mine(ROUTES.map((r) => [label(r), r] as const)))('%s: Authorization header garbage', async (_name, r) => {
      const requests = BAD_AUTH_HEADERS.map((header) => ({
        name: header.slice(0, 40),
        // A protected route must refuse the caller; a public one may answer, but never with a 5xx.
        expectStatus: r.isPublic ? undefined : 401,
        inject: () =>
          t.app.inject({
            method: r.method,
            url: pathOf(r),
            headers: { authorization: header },
            ...(r.body ? { payload: r.body() } : {}),
          }),
      }));
      expect(await offences(requests)).toEqual([]);
    });

    share()('answers 401 with the exact message to a malformed or unknown token', async () => {
      for (const header of [
        'Token',
        'Bearer x y',
        `Token ${'a'.repeat(10 * 1024)}`,
        `Token ${'a'.repeat(40)}`,
      ]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${API}/user/`,
          headers: { authorization: header },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ detail: 'Invalid token.' });
      }
    });

    share()('POST file/upload/: hostile forms, JSON and text bodies', async () => {
      const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
      const pngDeclaring = (width: number, height: number) =>
        Buffer.concat([PNG.subarray(0, 8), u32(13), Buffer.from('IHDR'), u32(width), u32(height), Buffer.from([8, 6, 0, 0, 0]), u32(0)]);
      const boundary = 'sc-bad-input';
      const form = (parts: { name: string; value?: string; file?: Buffer; filename?: string }[]) =>
        Buffer.concat([
          ...parts.map((p) =>
            p.file
              ? Buffer.concat([
                  Buffer.from(
                    `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename ?? 'a.png'}"\r\nContent-Type: image/png\r\n\r\n`,
                  ),
                  p.file,
                  Buffer.from('\r\n'),
                ])
              : Buffer.from(
                  `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value ?? ''}\r\n`,
                ),
          ),
          Buffer.from(`--${boundary}--\r\n`),
        ]);
      const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}` };
      const send = (payload: string | Buffer, headers: Record<string, string>) => () =>
        t.app.inject({
          method: 'POST',
          url: `${API}/file/upload/`,
          headers: { ...auth(adminToken), ...headers },
          payload,
        });
      const hostile = [
        '',
        'abc',
        '-1',
        '0',
        '1.5',
        '99999999999999999999',
        SQLISH,
        EMOJI,
        '../../etc',
        'x'.repeat(900),
      ];
      const requests = [
        { name: 'JSON body', inject: send('{"folder":"test"}', { 'content-type': 'application/json' }) },
        { name: 'JSON array', inject: send('[]', { 'content-type': 'application/json' }) },
        { name: 'text/plain', inject: send('hello', { 'content-type': 'text/plain' }) },
        {
          name: 'no body',
          inject: () => t.app.inject({ method: 'POST', url: `${API}/file/upload/`, headers: auth(adminToken) }),
        },
        { name: 'multipart without boundary', inject: send('junk', { 'content-type': 'multipart/form-data' }) },
        {
          name: 'truncated multipart',
          inject: send(`--${boundary}\r\nContent-Disposition: form-data; name="folder"\r\n\r\ntest`, multipart),
        },
        {
          name: 'two files',
          inject: send(
            form([
              { name: 'folder', value: 'test' },
              { name: 'file', file: PNG },
              { name: 'file', file: PNG },
            ]),
            multipart,
          ),
        },
        {
          name: 'empty file',
          inject: send(
            form([
              { name: 'folder', value: 'test' },
              { name: 'file', file: Buffer.alloc(0) },
            ]),
            multipart,
          ),
        },
        {
          name: 'NUL in the file name',
          inject: send(
            Buffer.concat([
              Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="folder"\r\n\r\ntest\r\n`),
              Buffer.from(
                `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''a%00b.png\r\nContent-Type: image/png\r\n\r\n`,
              ),
              PNG,
              Buffer.from(`\r\n--${boundary}--\r\n`),
            ]),
            multipart,
          ),
        },
        {
          name: 'hostile file name',
          inject: send(
            form([
              { name: 'folder', value: 'test' },
              { name: 'file', file: PNG, filename: `../${EMOJI}"; x=.png` },
            ]),
            multipart,
          ),
        },
        {
          // A few bytes declaring 2.5 gigapixels: refused from its header, never decoded.
          name: 'PNG declaring 50000×50000 pixels',
          expectStatus: 400,
          inject: send(
            form([
              { name: 'folder', value: 'test' },
              { name: 'file', file: pngDeclaring(50_000, 50_000) },
            ]),
            multipart,
          ),
        },
        ...hostile.flatMap((value) => [
          {
            name: `folder=${value.slice(0, 30)}`,
            inject: send(
              form([
                { name: 'folder', value },
                { name: 'file', file: PNG },
              ]),
              multipart,
            ),
          },
          {
            name: `organization=${value.slice(0, 30)}`,
            inject: send(
              form([
                { name: 'folder', value: 'test' },
                { name: 'organization', value },
                { name: 'file', file: PNG },
              ]),
              multipart,
            ),
          },
        ]),
      ];
      expect(await offences(requests)).toEqual([]);

      for (const [payload, contentType] of [
        ['junk', 'multipart/form-data'],
        [
          `--${boundary}\r\nContent-Disposition: form-data; name="folder"\r\n\r\ntest`,
          multipart['content-type'],
        ],
      ] as const) {
        const res = await send(payload, { 'content-type': contentType })();
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ non_field_errors: [MULTIPART_PARSE_ERROR] });
      }
    });
  });

  describe('hostile text, mobiles, numbers and ports answer a field error on the field (issue 6)', () => {
    /** The body, sent as the route's caller; for requests that must answer 400 on `field` with `message`. */
    const expectFieldMessage = (r: Route, payload: Record<string, unknown>, field: string, message: string, name: string) => ({
      name,
      inject: async () => {
        const res = await t.app.inject({
          method: r.method,
          url: pathOf(r),
          headers: r.isPublic ? {} : auth(adminToken),
          payload,
        });
        return res;
      },
      check: (res: LightMyRequestResponse) => {
        if (res.statusCode !== 400) return `expected 400, got ${res.statusCode} ${res.body.slice(0, 200)}`;
        const got = res.json<Record<string, unknown>>()[field];
        return JSON.stringify(got) === JSON.stringify([message]) ? null : `${field}: ${JSON.stringify(got)} ≠ [${message}]`;
      },
    });

    async function mismatches(requests: ReturnType<typeof expectFieldMessage>[]): Promise<Offence[]> {
      const out: Offence[] = [];
      for (let i = 0; i < requests.length; i += 8) {
        await Promise.all(
          requests.slice(i, i + 8).map(async (req) => {
            const problem = req.check(await req.inject());
            if (problem) out.push({ request: req.name, problem });
          }),
        );
      }
      return out;
    }

    it.each(mine(ROUTES.filter((r) => r.textFields || r.multilineFields).map((r) => [label(r), r] as const)))(
      '%s: every text field refuses a lone surrogate, bidi and control characters (and line breaks in one-line fields)',
      async (_name, r) => {
        const requests = [];
        for (const [field, multiline] of [
          ...(r.textFields ?? []).map((f) => [f, false] as const),
          ...(r.multilineFields ?? []).map((f) => [f, true] as const),
        ]) {
          for (const bad of HOSTILE_TEXTS.filter((h) => !(multiline && h.oneLine))) {
            requests.push(expectFieldMessage(r, withField(r.body!(), field, bad.value), field, bad.message, `${field}: ${bad.label}`));
          }
        }
        expect(await mismatches(requests)).toEqual([]);
      },
    );

    it.each(mine(ROUTES.filter((r) => r.mobileFields).map((r) => [label(r), r] as const)))(
      '%s: every mobile field refuses +1555, zeros, 20 digits, two numbers and non-ASCII digits',
      async (_name, r) => {
        const requests = r.mobileFields!.flatMap((field) =>
          BAD_MOBILES.map((bad) =>
            expectFieldMessage(r, withField(r.body!(), field, bad), field, MESSAGES.invalidPhone, `${field}=${JSON.stringify(bad)}`),
          ),
        );
        expect(await mismatches(requests)).toEqual([]);
      },
    );

    it.each(mine(ROUTES.filter((r) => r.mobileFields).map((r) => [label(r), r] as const)))(
      '%s: every mobile field accepts the number typed with its country code',
      async (_name, r) => {
        for (const field of r.mobileFields!) {
          for (const typed of ['+919876543210', '+91 98765 43210', '+91-9876543210']) {
            const res = await t.app.inject({
              method: r.method,
              url: pathOf(r),
              headers: r.isPublic ? {} : auth(adminToken),
              payload: withField(r.body!(), field, typed),
            });
            // Sign-in answers 400 'no user' for this number (a non-field error), never a field error on the mobile.
            expect(res.statusCode, res.body).toBeLessThan(500);
            const errors = res.statusCode === 400 ? res.json<Record<string, unknown>>() : {};
            expect(errors[field], `${field}=${typed}: ${res.body}`).toBeUndefined();
          }
        }
      },
    );

    it.each(mine(ROUTES.filter((r) => r.list).map((r) => [label(r), r] as const)))(
      '%s: page and limit are plain decimal digits, one value each',
      async (_name, r) => {
        const cases: [string, string, string][] = [
          ['limit=0x10', 'limit', 'A valid integer is required.'],
          ['page=0x2', 'page', 'A valid integer is required.'],
          ['limit=1e1', 'limit', 'A valid integer is required.'],
          ['limit=1&limit=2', 'limit', REPEATED_PARAMETER_MESSAGE],
          ['page=1&page=2', 'page', REPEATED_PARAMETER_MESSAGE],
          ['using_read_db=true&using_read_db=false', 'using_read_db', REPEATED_PARAMETER_MESSAGE],
        ];
        const problems = [];
        for (const [query, field, message] of cases) {
          const res = await t.app.inject({ method: 'GET', url: `${pathOf(r)}?${query}`, headers: auth(adminToken) });
          if (res.statusCode !== 400 || JSON.stringify(res.json()) !== JSON.stringify({ [field]: [message] })) {
            problems.push(`${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
        }
        expect(problems).toEqual([]);
      },
    );

    share()('refuses a webhook URL on a port other than 80 and 443 on every organization write', async () => {
      for (const r of ROUTES.filter((route) => route.path.startsWith('/organization/') && route.fields === ORGANIZATION_FIELDS)) {
        const res = await t.app.inject({
          method: r.method,
          url: pathOf(r),
          headers: auth(adminToken),
          payload: { ...r.body!(), webhook_url: 'http://93.184.216.34:8080/hook' },
        });
        expect(res.statusCode, label(r)).toBe(400);
        expect(res.json()).toEqual({ webhook_url: [WEBHOOK_MESSAGES.port] });
      }
    });
  });

  describe('no required text field takes a value that shows nothing (issue 22)', () => {
    /** Required fields the outside probe filled with zero-width characters only, by route. */
    const REQUIRED: readonly [string, string[]][] = [
      ['POST /patient/', ['first_name', 'last_name', 'device_serial_number']],
      ['POST /scan/', ['device_serial_number', 'local_db_id']],
      ['POST /organization/', ['name', 'company_info.name', 'company_info.address', 'company_info.city', 'company_info.state', 'company_info.zip_code']],
      ['POST /app_version/', ['name', 'code']],
      ['POST /tutorial/module/', ['name']],
      ['POST /tutorial/quiz/', ['question']],
      ['POST /tutorial/quiz-option/', ['option']],
      ['POST /tutorial/content/', ['title']],
    ];
    const INVISIBLE = ['\u200b', '\u200c\u200d', '\u2060\ufeff', '\u00ad', ' \u200b '];

    share().each(REQUIRED)('%s: each required text field answers 400 on the field to zero-width characters only', async (name, fields) => {
      const r = ROUTES.find((route) => label(route) === name)!;
      const problems: string[] = [];
      for (const field of fields) {
        for (const value of INVISIBLE) {
          const res = await t.app.inject({
            method: r.method,
            url: pathOf(r),
            headers: auth(adminToken),
            payload: withField(r.body!(), field, value),
          });
          const errors = res.statusCode === 400 ? res.json<Record<string, unknown>>() : {};
          if (!(field in errors)) problems.push(`${field}=${JSON.stringify(value)}: ${res.statusCode} ${res.body.slice(0, 150)}`);
        }
      }
      expect(problems).toEqual([]);
    });

    share()('stores none, not the invisible characters, for an optional text such as the clinic id', async () => {
      // A technician of its own: the sweep's DELETE of the shared one may have run before.
      const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: orgId });
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/patient/`,
        headers: auth(adminToken),
        payload: { first_name: 'Zero', last_name: 'Width', age: 40, organization: orgId, technician: technician.id, clinic_patient_id: '\u200b\u2060' },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ clinic_patient_id: null });
    });

    share()('refuses a line break in the module texts and the quiz question, which are one line each', async () => {
      const module = ROUTES.find((route) => label(route) === 'POST /tutorial/module/')!;
      const quiz = ROUTES.find((route) => label(route) === 'POST /tutorial/quiz/')!;
      const cases: [Route, string][] = [
        ...['pass_text', 're_take_question_text', 're_take_module_text', 're_take_module_again_text'].map((f) => [module, f] as [Route, string]),
        [quiz, 'question'],
      ];
      for (const [r, field] of cases) {
        const res = await t.app.inject({
          method: r.method,
          url: pathOf(r),
          headers: auth(adminToken),
          payload: withField(r.body!(), field, 'Line one\r\nLine two'),
        });
        expect(res.statusCode, field).toBe(400);
        expect(res.json()).toMatchObject({ [field]: [TEXT_MESSAGES.lineBreak] });
      }
    });
  });

  describe('every id and integer the API reads refuses a number past PostgreSQL integer (issue 22)', () => {
    type Schema = {
      type?: string;
      anyOf?: Schema[];
      items?: Schema;
      properties?: Record<string, Schema>;
    };
    type Operation = {
      parameters?: { in: 'path' | 'query' | 'header'; name: string; schema?: Schema }[];
      requestBody?: { content?: Record<string, { schema?: Schema }> };
    };
    let paths: [string, string, Operation][] = [];
    beforeAll(async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json<{ paths: Record<string, Record<string, Operation>> }>();
      paths = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => [method.toUpperCase(), path, op] as [string, string, Operation]),
      );
    });
    const isInteger = (s: Schema | undefined): boolean =>
      s?.type === 'integer' || (s?.anyOf?.some((a) => a.type === 'integer') ?? false);
    // A query parameter that reads digits (`idParam`, `page`, `limit`): a string or a number.
    const isDigitsParam = (s: Schema | undefined): boolean =>
      (s?.anyOf?.some((a) => a.type === 'string') ?? false) && (s?.anyOf?.some((a) => a.type === 'number') ?? false);
    const fill = (path: string, id: string) => path.replace(/\{[^}]+\}/g, id);

    /** An answer to `TOO_LARGE_ID` in `field`: 400 naming the field, or a description of what came instead. */
    const refusedOn = (res: LightMyRequestResponse, field: string): string | null => {
      if (res.statusCode !== 400) return `${res.statusCode} ${res.body.slice(0, 200)}`;
      const keys = Object.keys(res.json<Record<string, unknown>>());
      return keys.some((k) => k === field || k.startsWith(`${field}.`)) ? null : `400 on ${keys.join(', ')}`;
    };

    share()('answers 400 on the body field (never 500) for 2147483648 in every integer body field', async () => {
      const requests = paths.flatMap(([method, path, op]) => {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        return Object.entries(schema?.properties ?? {}).flatMap(([field, prop]) => {
          const value = isInteger(prop) ? TOO_LARGE_ID : isInteger(prop.items) ? [TOO_LARGE_ID] : undefined;
          if (value === undefined) return [];
          const name = `${method} ${path} ${field}`;
          // A reviewer's review (POST cervaical/document-user/, and its spec alias) admits that role alone.
          const reviewerOnly = method === 'POST' && /\/cervaical\/document[-_]user\/$/.test(path);
          const url = fill(path, '1');
          return [{ name, field, method, url, hasPathId: path.includes('{'), reviewerOnly, payload: { [field]: value } }];
        });
      });
      expect(requests.map((r) => r.name)).toEqual(
        expect.arrayContaining([
          'POST /api/v1/organization/reference/ organization',
          'POST /api/v1/organization/license/ organization',
          'POST /api/v1/organization/user/ organization',
        ]),
      );
      const problems: string[] = [];
      for (const r of requests) {
        const res = await t.app.inject({
          method: r.method as 'POST',
          url: r.url,
          headers: auth(r.reviewerOnly ? reviewerToken : adminToken),
          payload: r.payload,
        });
        // A route that looks up its path row before reading the body may answer 404 first (that row is not there).
        const problem = r.hasPathId && res.statusCode === 404 ? null : refusedOn(res, r.field);
        if (problem) problems.push(`${r.name}: ${problem}`);
      }
      expect(problems).toEqual([]);
    });

    share()('answers 400 on the parameter for 2147483648 in every numeric query parameter, 404 in every path id', async () => {
      const problems: string[] = [];
      for (const [method, path, op] of paths) {
        for (const p of op.parameters ?? []) {
          const isPathId = p.in === 'path' && p.name === 'id';
          // Queries of GETs only: a POST's body is read before its query (POST scan/ids/ shares GET scan/'s query).
          if (!isPathId && !(method === 'GET' && p.in === 'query' && isDigitsParam(p.schema))) continue;
          const url = isPathId ? fill(path, String(TOO_LARGE_ID)) : `${fill(path, '1')}?${p.name}=${TOO_LARGE_ID}`;
          const res = await t.app.inject({ method: method as 'GET', url, headers: auth(adminToken) });
          // A route with a body reads it first: without one it answers 400 on the body, never a 500.
          const pathAnswered = res.statusCode === 404 || (op.requestBody !== undefined && res.statusCode === 400);
          const problem = isPathId ? (pathAnswered ? null : `${res.statusCode} ${res.body.slice(0, 200)}`) : refusedOn(res, p.name);
          if (problem) problems.push(`${method} ${url}: ${problem}`);
        }
      }
      expect(problems).toEqual([]);
    });

    share()('answers 400 on user_type to an object that carries its own toString', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/organization/user/`,
        headers: auth(adminToken),
        payload: { first_name: 'Obj', last_name: 'Type', user_type: { toString: 1 }, email: 'obj@example.com' },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toHaveProperty('user_type');
    });
  });

  describe('responses never carry a credential', () => {
    /** Every key of a JSON value, nested. */
    const keysOf = (value: unknown): string[] =>
      Array.isArray(value)
        ? value.flatMap(keysOf)
        : typeof value === 'object' && value !== null
          ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)])
          : [];
    const SECRET_KEY = /pass|pin|hash|token|secret|otp/i;

    share().each([
      ['GET user/', () => `${API}/user/`],
      ['GET organization/user/', () => `${API}/organization/user/?limit=1000`],
      ['GET organization/user/{id}/', () => `${API}/organization/user/${targetUserId}/`],
      ['GET organization/{id}/', () => `${API}/organization/${orgId}/`],
    ] satisfies [string, () => string][])(
      '%s has no password, PIN, hash or token key (but the editable webhook token and the PIN-reset flag)',
      async (_name, url) => {
        for (const token of [adminToken, orgAdminToken]) {
          const res = await t.app.inject({ method: 'GET', url: url(), headers: auth(token) });
          expect(res.statusCode).toBe(200);
          // pin_reset_request is the spec's flag (part 2 §7), not a PIN.
          const keys = keysOf(res.json()).filter(
            (k) => SECRET_KEY.test(k) && k !== 'webhook_auth_token' && k !== 'pin_reset_request',
          );
          expect(keys).toEqual([]);
        }
      },
    );

    share()('shows the webhook token (write-only) to no one who may not edit the organization', async () => {
      await t.database.db.update(organizations).set({ webhookAuthToken: 'whk_sweep_secret' }).where(eq(organizations.id, orgId));
      const reviewer = await signIn(t, await createUser(t, { userType: 'CERVAICAL_REVIEWER' }));
      const res = await t.app.inject({ method: 'GET', url: `${API}/organization/${orgId}/`, headers: auth(reviewer) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ webhook_auth_token: null });
      expect(res.body).not.toContain('whk_sweep_secret');
    });

    share()('writes no password, code or token into the audit log', async () => {
      const user = await createUser(t, { userType: 'ADMIN', mobile: uniqueMobile() });
      const sent: string[] = [
        DEFAULT_PASSWORD,
        'Wrong-pass1',
        'New-pass123',
        'not-a-real-reset-token',
        'not-an-id-token',
        adminToken,
        orgAdminToken,
      ];
      // A full password sign-in, a code sign-in and a reset: each writes audit rows.
      const password = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/password/`,
        payload: { email: user.email, password: DEFAULT_PASSWORD },
      });
      expect(password.statusCode).toBe(200);
      const idToken = password.json<{ id_token: string }>().id_token;
      const login = await t.app.inject({
        method: 'POST',
        url: `${API}/user/login/`,
        payload: { id_token: idToken },
      });
      expect(login.statusCode).toBe(200);
      sent.push(idToken, login.json<{ token: string }>().token);
      const national = user.mobile!.slice(user.mobile!.indexOf('-') + 1);
      expect(
        (await t.app.inject({ method: 'POST', url: `${API}/auth/otp/`, payload: { mobile: national } }))
          .statusCode,
      ).toBe(200);
      await t.app.inject({
        method: 'POST',
        url: `${API}/auth/password-reset/`,
        payload: { email: user.email },
      });
      const messages = await t.database.db.select().from(outboxMessages);
      for (const m of messages) {
        if (m.code) sent.push(m.code);
        const resetToken = m.link ? new URL(m.link, 'http://x').searchParams.get('token') : null;
        if (resetToken) sent.push(resetToken);
      }
      expect(messages.some((m) => m.to === user.email && m.link?.includes('token='))).toBe(true);
      const code = messages.find((m) => m.to === user.mobile && m.code)?.code;
      expect(code).toBeTruthy();
      const verify = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/otp/verify/`,
        payload: { mobile: national, code },
      });
      expect(verify.statusCode).toBe(200);
      sent.push(verify.json<{ id_token: string }>().id_token);

      const rows = JSON.stringify(await t.database.db.select().from(auditLog));
      expect(rows.length).toBeGreaterThan(2);
      const leaked = [...new Set(sent)].filter((secret) => secret.length >= 6 && rows.includes(secret));
      expect(leaked).toEqual([]);
    });
  });
}

// ---- Shared with the walk of every write (every-write-audited.test.ts) ----------------------------------------------
// Importing this file builds the sweep's app and seeds it (the beforeAll above): the walk calls each route once with
// the valid body given here, so a body kept valid for the sweep is kept valid for the walk.
export { t as sweepApp, ROUTES, label as routeLabel, pathOf };
export type { Route };
/** The records the beforeAll above seeds (read after it ran). */
export const sweepState = () => ({
  admin,
  adminToken,
  orgAdminToken,
  reviewerToken,
  orgId,
  otherOrgId,
  referenceId,
  targetUserId,
  managerId,
  patientId,
  deletablePatientId,
});
