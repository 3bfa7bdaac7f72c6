// Every write is audited (issue 27): the walk reads the app's OpenAPI document, takes every POST, PUT, PATCH and
// DELETE, calls each once successfully and checks that the call wrote at least one audit row naming the route's kind
// of target, with the acting user, the caller's address and (for a row that changed something) its organization.
//
// A route the document lists that is neither in CALLS nor in EXEMPT fails the walk: a new write route cannot forget
// its audit row. To add one: put an entry in CALLS (how to call it once successfully and the target_type its row
// names), or, for a route that changes no record, in EXEMPT with the reason.
//
// The walk runs on the bad-input sweep's app and records (bad-input.sweep.ts): a route's valid body there is the one
// called here unless CALLS builds its own.
import { and, desc, eq, gt } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AUDIT_TARGET_TYPES } from '@sc/shared/audit';
import {
  auditLog,
  bookings,
  cervicalExams,
  organizations,
  outboxMessages,
  scans,
  trashEntries,
  tutorialModules,
  users,
  webhookDeliveries,
} from '../db/schema/index.ts';
import { ensureReviewOptions, seedExam } from '../modules/cervical/cervical.fixtures.ts';
import { createCase } from '../modules/follow-up/follow-up.fixtures.ts';
import { grantLicence, orcaBody, postOrca } from '../modules/follow-up/follow-up-opening.fixtures.ts';
import {
  PNG,
  createDevice,
  newKey,
  patientBody,
  post,
  scanBody,
  setupUploader,
  uploadFile,
  uploadPatient,
} from '../modules/uploads/uploads.fixtures.ts';
import { DEFAULT_PASSWORD, auth, createLanguage, createOrganization, createUser, signIn, uniqueMobile } from '../test/factories.ts';
import { ROUTES, pathOf, routeLabel, sweepApp as t, sweepState } from './bad-input.sweep.ts';

const API = '/api/v1';
/** The address every walked call comes from: each row must carry it. */
const ADDRESS = '203.0.113.27';

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Answer = LightMyRequestResponse;
type Call = {
  /** The target_type the call's row names (one of AUDIT_TARGET_TYPES, or 'session' for sign-in and sign-out rows). */
  target: string;
  /** Calls the route once, successfully. */
  run: () => Promise<Answer>;
  /** The row names no actor (a public route: the booking page, a sign-in by password or code). */
  anonymous?: boolean;
  /** The row records no changed field (a sign-in, a sign-out, a queued job, a reset link sent, a device upload). */
  noChanges?: boolean;
  /**
   * Another piece of work owns this route's service and completes its row (organization, address, changes): until it
   * lands only the row itself is required. Remove the entry's `pending` once it has.
   */
  pending?: string;
};


/** Kinds of target that belong to one organization: their rows carry it (who may read them follows from it). */
const ORGANIZATION_TARGETS = new Set(['patient', 'scan', 'cervical_exam', 'orca_exam', 'follow_up_case', 'booking', 'licence', 'reference', 'organization']);

const state = () => sweepState();
let seq = 0;

/** The last audit row's id. */
async function lastAuditId(): Promise<number> {
  const [last] = await t.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return last?.id ?? 0;
}
/** Per answer of send(): the last audit row's id before its request, so rows written while preparing are not counted. */
const rowsBefore = new WeakMap<Answer, number>();

async function send(
  method: Method,
  url: string,
  body?: unknown,
  token: string | null = state().adminToken,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const before = await lastAuditId();
  const res = await t.app.inject({
    method,
    url: `${API}${url}`,
    remoteAddress: ADDRESS,
    headers: { ...(token ? auth(token) : {}), ...headers },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
  rowsBefore.set(res, before);
  return res;
}

/** The sweep's route `name` with its valid body, at its path (or `path`, e.g. with another id). */
function sweep(name: string, path?: string): () => Promise<Answer> {
  return () => {
    const r = ROUTES.find((route) => routeLabel(route) === name);
    if (!r) throw new Error(`${name} is not in the sweep's ROUTES`);
    const url = path ?? pathOf(r).slice(API.length);
    return send(r.method as Method, url, r.body?.());
  };
}

/** A delivered webhook of the walk's organization, its webhook on (what a Replay sends again): its id. */
async function finishedDelivery(): Promise<{ id: number; organizationId: number }> {
  const db = t.database.db;
  const s = await setupUploader(t);
  const upload = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, await uploadPatient(t, s)));
  if (upload.statusCode >= 300) throw new Error(`A scan upload failed while preparing: ${upload.body}`);
  const scan = { id: upload.json<{ id: number }>().id };
  const organizationId = s.org.id;
  await db.update(organizations).set({ webhookUrl: 'https://hooks.example.com/walk', webhookSwitch: true }).where(eq(organizations.id, organizationId));
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ organizationId, scanId: scan.id, url: 'https://hooks.example.com/walk', status: 'delivered', attempts: 1, created: new Date() })
    .returning();
  return { id: row!.id, organizationId };
}

/** A record made through the API as ADMIN: its id. */
async function made(method: Method, url: string, body: unknown): Promise<number> {
  const res = await send(method, url, body);
  if (res.statusCode >= 300) throw new Error(`${method} ${url} failed while preparing: ${res.statusCode} ${res.body}`);
  return res.json<{ id: number }>().id;
}

async function latestOutbox(to: string) {
  const [row] = await t.database.db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.to, to))
    .orderBy(desc(outboxMessages.id))
    .limit(1);
  if (!row) throw new Error(`no message to ${to}`);
  return row;
}

function multipart(parts: ({ name: string; value: string } | { name: string; filename: string; data: Buffer })[]) {
  const boundary = `----sc-walk-${++seq}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      'value' in p
        ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`)
        : Buffer.concat([
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
            p.data,
            Buffer.from('\r\n'),
          ]),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const uploadFirmware = async (version: string) => {
  const { payload, headers } = multipart([
    { name: 'version', value: version },
    { name: 'file', filename: `fw_${version}.ibe`, data: Buffer.from(`${version}\n# image\n00ff00ff\n`) },
  ]);
  return t.app.inject({ method: 'POST', url: `${API}/firmware/`, remoteAddress: ADDRESS, payload, headers: { ...headers, ...auth(state().adminToken) } });
};

/** A booking page's token for an organization that takes bookings, and a slot in the coming week (Tuesday 10:00 IST). */
async function bookingSetup() {
  const org = await createOrganization(t, {
    name: `Booking Clinic ${++seq}`,
    timezone: 'Asia/Kolkata',
    isBookingEnabled: true,
    availableDays: [0, 1, 2, 3, 4, 5, 6],
    totalBookingsPerSlot: 3,
    price: 25000,
    currency: 'INR',
    allowOfflinePayment: true,
    canBeCancelBefore: 0,
  });
  const page = await pageToken(org.id);
  const start = new Date(t.clock.now().getTime() + 3 * 86_400_000);
  start.setUTCHours(4, 30, 0, 0);
  return { org, token: page, start: start.toISOString() };
}
async function pageToken(organizationId: number): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `${API}/booking/link/${organizationId}/`, headers: auth(state().adminToken) });
  if (res.statusCode !== 200) throw new Error(`booking link: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}
async function book(): Promise<{ id: number; org: number; bookingToken: string; pageToken: string }> {
  const s = await bookingSetup();
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/appointment/${s.token}/booking/`,
    remoteAddress: `10.9.0.${++seq}`,
    payload: { start: s.start, first_name: 'Asha', last_name: 'Rao', mobile: uniqueMobile(), email: 'asha@example.com', age: 30 },
  });
  if (res.statusCode !== 201) throw new Error(`booking: ${res.statusCode} ${res.body}`);
  const bookingToken = res.json<{ token: string }>().token;
  const [row] = await t.database.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.token, bookingToken));
  return { id: row!.id, org: s.org.id, bookingToken, pageToken: s.token };
}

let englishMade = false;
/** English, the language follow-up SMS texts are written in. */
async function english() {
  if (!englishMade) await createLanguage(t, { name: 'English', isoCode: 'en' }).catch(() => undefined);
  englishMade = true;
}
async function firmwarePath(id: number): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `${API}/firmware/${id}/`, headers: auth(state().adminToken) });
  return res.json<{ path: string }>().path;
}

/** An organization with a linked device: its link id and device id. */
async function linkedDevice() {
  const device = await createDevice(t, null);
  const res = await send('POST', '/organization/device/', { organization: state().orgId, device: device.id });
  if (res.statusCode !== 201) throw new Error(`link: ${res.statusCode} ${res.body}`);
  return { deviceId: device.id, linkId: res.json<{ id: number }>().id };
}

const tutorialModule = () => made('POST', '/tutorial/module/', { name: `Walk module ${++seq}`, z_order: seq, re_take_question_percentage: 50 });
const tutorialQuiz = async (module?: number) =>
  made('POST', '/tutorial/quiz/', { module: module ?? (await tutorialModule()), question: 'Walk?', z_order: 1, is_multi_select: false, options: [{ option: 'Yes' }] });
const tutorialContent = async (module?: number) =>
  made('POST', '/tutorial/content/', { title: `Walk video ${++seq}`, z_order: seq, module: module ?? (await tutorialModule()), primary_image: 'walk' });
const licence = () =>
  made('POST', '/organization/license/', { organization: state().otherOrgId, application: 'CERVAICAL', count: 100, is_active: true });

/** A cervical exam with a document, reviewed by a reviewer: what the review and adjudication routes need. */
async function reviewSetup() {
  await ensureReviewOptions(t.database.db);
  const exam = await seedExam(t.database.db, { organizationId: state().orgId, documents: ['IMAGE'] });
  const reviewer = await createUser(t, { userType: 'CERVAICAL_REVIEWER' });
  return { exam, reviewer, token: await signIn(t, reviewer) };
}
const reviewBody = (document: number) => ({ document, review_status: 'VALID', qualities: [{ quality: 1, answer: true }], clinical_finding: [] });

/** How to call each write route once successfully, and the target_type its row names. Keyed `METHOD /path/{param}/`. */
const CALLS: Record<string, Call> = {
  // ---- Sign-in and the session ----
  'POST /auth/password/': {
    noChanges: true,
    target: 'user',
    anonymous: true,
    run: () => send('POST', '/auth/password/', { email: state().admin.email, password: DEFAULT_PASSWORD }, null),
  },
  'POST /auth/otp/': {
    noChanges: true,
    target: 'user',
    anonymous: true,
    run: () => send('POST', '/auth/otp/', { mobile: state().admin.mobile!.replace('+91-', ''), mobile_country_code: 'IN' }, null),
  },
  'POST /auth/otp/verify/': {
    noChanges: true,
    target: 'user',
    anonymous: true,
    run: async () => {
      const mobile = uniqueMobile();
      await createUser(t, { mobile });
      const sent = await send('POST', '/auth/otp/', { mobile, mobile_country_code: 'IN' }, null);
      expect(sent.statusCode, sent.body).toBe(200);
      const { code } = await latestOutbox(`+91-${mobile}`);
      return send('POST', '/auth/otp/verify/', { mobile, mobile_country_code: 'IN', code }, null);
    },
  },
  'POST /auth/password-reset/': {
    noChanges: true,
    target: 'user',
    anonymous: true,
    run: async () => send('POST', '/auth/password-reset/', { email: (await createUser(t)).email }, null),
  },
  'POST /auth/password-reset/confirm/': {
    noChanges: true,
    target: 'user',
    anonymous: true,
    run: async () => {
      const user = await createUser(t);
      expect((await send('POST', '/auth/password-reset/', { email: user.email }, null)).statusCode).toBe(200);
      const { link } = await latestOutbox(user.email!);
      const token = new URL(link!).searchParams.get('token');
      return send('POST', '/auth/password-reset/confirm/', { token, password: 'Walk-pass123' }, null);
    },
  },
  'POST /user/login/': {
    noChanges: true,
    target: 'session',
    anonymous: true,
    run: async () => {
      const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: state().orgId });
      const step1 = await send('POST', '/auth/password/', { email: user.email, password: DEFAULT_PASSWORD }, null);
      expect(step1.statusCode, step1.body).toBe(200);
      return send('POST', '/user/login/', { id_token: step1.json<{ id_token: string }>().id_token, source: 'DASHBOARD', is_login: true }, null);
    },
  },
  'POST /user/logout/': {
    noChanges: true,
    target: 'session',
    run: async () => send('POST', '/user/logout/', undefined, await signIn(t, await createUser(t, { userType: 'ADMIN' }))),
  },
  'DELETE /user/delete/me/': {
   
    target: 'user',
    run: async () => send('DELETE', '/user/delete/me/', undefined, await signIn(t, await createUser(t, { userType: 'TECHNICIAN', organizationId: state().orgId }))),
  },
  'DELETE /user/impersonation/': {
    noChanges: true,
    target: 'user',
    run: async () => {
      const target = await createUser(t, { userType: 'ORG_ADMIN', organizationId: state().orgId });
      const token = await signIn(t, target, { kind: 'impersonation', impersonatorId: state().admin.id });
      return send('DELETE', '/user/impersonation/', undefined, token);
    },
  },

  // ---- Users ----
  'POST /organization/user/': { target: 'user', run: sweep('POST /organization/user/') },
  'PUT /organization/user/{id}/': { target: 'user', run: sweep('PUT /organization/user/:id/') },
  'PATCH /organization/user/{id}/': {
    target: 'user',
    run: async () => {
      const user = await createUser(t, { userType: 'TECHNICIAN', organizationId: state().orgId });
      return send('PATCH', `/organization/user/${user.id}/`, { organization: state().otherOrgId });
    },
  },
  'PUT /organization/user/{id}/reset/pin/': { target: 'user', run: sweep('PUT /organization/user/:id/reset/pin/') },
  'POST /organization/user/{id}/reset/password/': { target: 'user', noChanges: true, run: sweep('POST /organization/user/:id/reset/password/') },
  'POST /organization/user/{id}/re-certify/': {
    target: 'user',
    run: async () => {
      const user = await createUser(t, { userType: 'TECHNICIAN', organizationId: state().orgId });
      await t.database.db.update(users).set({ ibeTrainingStatus: 'CERTIFIED' }).where(eq(users.id, user.id));
      return send('POST', `/organization/user/${user.id}/re-certify/`, {});
    },
  },
  'POST /user/organizations/': {
    target: 'user',
    run: async () => {
      const manager = await createUser(t, { userType: 'MANAGER' });
      return send('POST', '/user/organizations/', { organization: state().orgId, user: manager.id });
    },
  },
  'DELETE /user/organizations/{id}/': {
    target: 'user',
    run: async () => {
      const manager = await createUser(t, { userType: 'MANAGER' });
      const id = await made('POST', '/user/organizations/', { organization: state().orgId, user: manager.id });
      return send('DELETE', `/user/organizations/${id}/`);
    },
  },

  // ---- Organizations ----
  'POST /organization/': { target: 'organization', run: sweep('POST /organization/') },
  'PUT /organization/{id}/': { target: 'organization', run: sweep('PUT /organization/:id/') },
  'PATCH /organization/{id}/': {
    target: 'organization',
    run: () => send('PATCH', `/organization/${state().orgId}/`, { name: `Walk Clinic ${++seq}` }),
  },
  'POST /organization/reference/': { target: 'reference', run: sweep('POST /organization/reference/') },
  'PATCH /organization/reference/{id}/': { target: 'reference', run: sweep('PATCH /organization/reference/:id/') },
  'DELETE /organization/reference/{id}/': {
    target: 'reference',
    run: async () => {
      const id = await made('POST', '/organization/reference/', { name: `Walk ref ${++seq}`, organization: state().orgId });
      return send('DELETE', `/organization/reference/${id}/`);
    },
  },
  'POST /organization/{id}/webhook/secret/': { target: 'organization', run: () => send('POST', `/organization/${state().orgId}/webhook/secret/`, {}) },
  'POST /organization/webhook-deliveries/{id}/replay/': {
    target: 'webhook_delivery',
    noChanges: true,
    run: async () => send('POST', `/organization/webhook-deliveries/${(await finishedDelivery()).id}/replay/`, {}),
  },
  'POST /organization/webhook-deliveries/replay/': {
    target: 'organization',
    noChanges: true,
    run: async () => {
      const { organizationId } = await finishedDelivery();
      const day = new Date().toISOString().slice(0, 10);
      return send('POST', '/organization/webhook-deliveries/replay/', { organization: organizationId, created_after: day, created_before: day });
    },
  },
  'POST /organization/previous-scans/': {
    noChanges: true,
    target: 'organization',
    run: async () => {
      await t.database.db
        .update(organizations)
        .set({ webhookUrl: 'https://hooks.example.com/walk', webhookSwitch: true })
        .where(eq(organizations.id, state().orgId));
      return sweep('POST /organization/previous-scans/')();
    },
  },
  'PUT /organization/{id}/follow-up-settings/': {
    target: 'organization',
    run: async () => {
      await english();
      return sweep('PUT /organization/:id/follow-up-settings/')();
    },
  },
  'PATCH /organization/{id}/follow-up-settings/': {
    target: 'organization',
    run: async () => {
      await english();
      return send('PATCH', `/organization/${state().orgId}/follow-up-settings/`, { contact_days: 9 });
    },
  },

  // ---- Languages, app versions, firmware ----
  'POST /language/': { target: 'language', run: sweep('POST /language/') },
  'PUT /language/{id}/': {
    target: 'language',
    run: async () => {
      const id = await made('POST', '/language/', { name: 'Walk put', iso_code: 'wp', is_tutorial_available: false, app_version: null });
      return send('PUT', `/language/${id}/`, { name: 'Walk put 2', iso_code: 'wq', is_tutorial_available: true, app_version: null });
    },
  },
  'PATCH /language/{id}/': {
    target: 'language',
    run: async () => {
      const id = await made('POST', '/language/', { name: 'Walk patch', iso_code: 'wr', is_tutorial_available: false, app_version: null });
      return send('PATCH', `/language/${id}/`, { name: 'Walk patched' });
    },
  },
  'POST /app_version/': { target: 'app_version', run: sweep('POST /app_version/') },
  'PUT /app_version/{id}/': {
    target: 'app_version',
    run: async () => {
      const id = await made('POST', '/app_version/', { name: '8.0.0', code: `w${++seq}`, notes: { note: 'Walk' }, type: 'ORCA', tutorial_version: 1 });
      return send('PUT', `/app_version/${id}/`, { name: '8.0.1', code: `w${++seq}`, notes: { note: 'Walk 2' }, type: 'ORCA', tutorial_version: null });
    },
  },
  'PATCH /app_version/{id}/': {
    target: 'app_version',
    run: async () => {
      const id = await made('POST', '/app_version/', { name: '8.1.0', code: `w${++seq}`, notes: { note: 'Walk' }, type: 'ORCA', tutorial_version: 1 });
      return send('PATCH', `/app_version/${id}/`, { name: '8.1.1' });
    },
  },
  'POST /firmware/': { target: 'firmware', run: () => uploadFirmware(`v7.${++seq}`) },
  'PUT /firmware/{id}/': {
    // Re-saves the stored file: a save that changes nothing records no field.
    noChanges: true,
    target: 'firmware',
    run: async () => {
      const version = `v7.${++seq}`;
      const id = (await uploadFirmware(version)).json<{ id: number }>().id;
      return send('PUT', `/firmware/${id}/`, { version, path: await firmwarePath(id) });
    },
  },
  'PATCH /firmware/{id}/': {
    // Re-saves the stored file: a save that changes nothing records no field.
    noChanges: true,
    target: 'firmware',
    run: async () => {
      const id = (await uploadFirmware(`v7.${++seq}`)).json<{ id: number }>().id;
      return send('PATCH', `/firmware/${id}/`, { path: await firmwarePath(id) });
    },
  },
  'DELETE /firmware/{id}/': {
    target: 'firmware',
    run: async () => send('DELETE', `/firmware/${(await uploadFirmware(`v7.${++seq}`)).json<{ id: number }>().id}/`),
  },

  // ---- Devices and licences ----
  'POST /device/': { target: 'device', run: () => send('POST', '/device/', { serial_number: `WALK${++seq}P${process.pid}` }) },
  'PUT /device/{id}/': {
    target: 'device',
    run: async () => send('PUT', `/device/${(await createDevice(t, null)).id}/`, { serial_number: `WALK${++seq}R${process.pid}` }),
  },
  'POST /organization/device/': {
    target: 'device',
    run: async () => send('POST', '/organization/device/', { organization: state().orgId, device: (await createDevice(t, null)).id }),
  },
  'PATCH /organization/device/{id}/': {
    target: 'device',
    run: async () => send('PATCH', `/organization/device/${(await linkedDevice()).linkId}/`, { organization: state().otherOrgId }),
  },
  'DELETE /organization/device/{id}/': {
    target: 'device',
    run: async () => send('DELETE', `/organization/device/${(await linkedDevice()).linkId}/`),
  },
  'POST /device/link/organization/': {
    target: 'device',
    run: async () => {
      return send('POST', '/device/link/organization/', { organization: state().orgId, device: (await createDevice(t, null)).id });
    },
  },
  'POST /organization/license/': { target: 'licence', run: sweep('POST /organization/license/') },
  'PATCH /organization/license/{id}/': {
    target: 'licence',
    run: async () => send('PATCH', `/organization/license/${await licence()}/`, { count: 200, is_active: true }),
  },
  'DELETE /organization/license/{id}/': {
    target: 'licence',
    run: async () => send('DELETE', `/organization/license/${await licence()}/`),
  },

  // ---- Patients, scans and exams ----
  'POST /patient/': {
    target: 'patient',
    run: async () => {
      const s = await setupUploader(t);
      return post(t, s.token, '/patient/', patientBody(s.device.serialNumber));
    },
  },
  'PATCH /patient/{id}/': { target: 'patient', run: sweep('PATCH /patient/:id/') },
  'DELETE /patient/{id}/': { target: 'patient', run: sweep('DELETE /patient/:id/') },
  'POST /trash/{id}/restore/': {
    target: 'patient',
    run: async () => {
      const patient = await uploadPatient(t, await setupUploader(t));
      const deleted = await send('DELETE', `/patient/${patient}/`);
      if (deleted.statusCode >= 300) throw new Error(`DELETE patient failed while preparing: ${deleted.body}`);
      const [entry] = await t.database.db.select().from(trashEntries).orderBy(desc(trashEntries.id)).limit(1);
      return send('POST', `/trash/${entry!.id}/restore/`, {});
    },
  },
  'POST /patient/transfer/{id}/': {
    target: 'patient',
    run: async () => {
      const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: state().orgId });
      return send('POST', `/patient/transfer/${state().patientId}/`, { organization_id: state().orgId, technician_id: technician.id });
    },
  },
  'POST /patient/{id}/transfer/': {
    target: 'patient',
    run: async () => {
      const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: state().otherOrgId });
      return send('POST', `/patient/${state().patientId}/transfer/`, { organization_id: state().otherOrgId, technician_id: technician.id });
    },
  },
  'POST /scan/': {
    // A device upload: the row names the record, its organization, the device and the idempotency key.
    noChanges: true,
    target: 'scan',
    run: async () => {
      const s = await setupUploader(t);
      return post(t, s.token, '/scan/', scanBody(s.device.serialNumber, await uploadPatient(t, s)));
    },
  },
  'DELETE /scan/{id}/': {
   
    target: 'scan',
    run: async () => {
      const s = await setupUploader(t);
      const patient = await uploadPatient(t, s);
      const body = scanBody(s.device.serialNumber, patient);
      const first = (await post(t, s.token, '/scan/', body)).json<{ id: number }>().id;
      const second = (await post(t, s.token, '/scan/', { ...body, local_db_id: `${body.local_db_id}-dup` })).json<{ id: number }>().id;
      await t.database.db.update(scans).set({ parentScanId: first }).where(eq(scans.id, second));
      return send('DELETE', `/scan/${second}/`);
    },
  },
  'POST /scan/{id}/transfer/': {
    target: 'scan',
    run: async () => {
      const s = await setupUploader(t);
      const scan = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, await uploadPatient(t, s)));
      return send('POST', `/scan/${scan.json<{ id: number }>().id}/transfer/`, { organization_id: state().orgId, technician_id: state().targetUserId });
    },
  },
  'POST /orca/': {
    // A device upload: the row names the record, its organization, the device and the idempotency key.
    noChanges: true,
    target: 'orca_exam',
    run: async () => {
      const s = await setupUploader(t);
      await grantLicence(t.database.db, s.org.id, 'ORCA');
      return postOrca(t, s.token, await orcaBody(t, { ...s, patient: await uploadPatient(t, s) }));
    },
  },
  'POST /cervaical/': {
    // A device upload: the row names the record, its organization, the device and the idempotency key.
    noChanges: true,
    target: 'cervical_exam',
    run: async () => {
      const s = await setupUploader(t);
      await grantLicence(t.database.db, s.org.id, 'CERVAICAL');
      const patient = await uploadPatient(t, s);
      const image = await uploadFile(t, s.token, 'documents', { name: 'via.png', data: PNG });
      return t.app.inject({
        method: 'POST',
        url: `${API}/cervaical/`,
        remoteAddress: ADDRESS,
        headers: { ...auth(s.token), 'idempotency-key': newKey() },
        payload: {
          patient,
          device_serial_number: s.device.serialNumber,
          local_db_id: `walk-c-${++seq}`,
          date_time: '2026-03-01T10:00:00Z',
          documents: [{ path: image, document_type: 'IMAGE', symptom_tag: 'VIA' }],
        },
      });
    },
  },
  'POST /cervaical/document-user/': {
    target: 'cervical_exam',
    run: async () => {
      const r = await reviewSetup();
      return send('POST', '/cervaical/document-user/', reviewBody(r.exam.documentIds[0]!), r.token);
    },
  },
  'POST /cervaical/document_user/': {
    target: 'cervical_exam',
    run: async () => {
      const r = await reviewSetup();
      return send('POST', '/cervaical/document_user/', reviewBody(r.exam.documentIds[0]!), r.token);
    },
  },
  'PATCH /cervaical/document-user/{id}/': {
    target: 'cervical_exam',
    run: async () => {
      const r = await reviewSetup();
      const id = (await send('POST', '/cervaical/document-user/', reviewBody(r.exam.documentIds[0]!), r.token)).json<{ id: number }>().id;
      return send('PATCH', `/cervaical/document-user/${id}/`, { ...reviewBody(r.exam.documentIds[0]!), review_status: 'IN_VALID' });
    },
  },
  'PATCH /cervaical/document_user/{id}/': {
    target: 'cervical_exam',
    run: async () => {
      const r = await reviewSetup();
      const id = (await send('POST', '/cervaical/document-user/', reviewBody(r.exam.documentIds[0]!), r.token)).json<{ id: number }>().id;
      return send('PATCH', `/cervaical/document_user/${id}/`, { ...reviewBody(r.exam.documentIds[0]!), review_status: 'IN_VALID' });
    },
  },
  'POST /cervaical/{id}/adjudication/': {
    target: 'cervical_exam',
    run: async () => {
      const exam = await seedExam(t.database.db, { organizationId: state().orgId, documents: ['IMAGE'], reviewerOneStatus: 'VALID' });
      await t.database.db.update(cervicalExams).set({ reviewerTwoStatus: 'IN_VALID' }).where(eq(cervicalExams.id, exam.id));
      return send('POST', `/cervaical/${exam.id}/adjudication/`, { final_status: 'VALID', note: 'Walk read' });
    },
  },

  // ---- Follow-up ----
  'PATCH /follow-up/{id}/': {
    target: 'follow_up_case',
    run: async () => send('PATCH', `/follow-up/${(await createCase(t, state().orgId, { assignedUserId: state().targetUserId })).id}/`, { assigned_user: null }),
  },
  'POST /follow-up/{id}/actions/': {
    target: 'follow_up_case',
    run: async () => send('POST', `/follow-up/${(await createCase(t, state().orgId)).id}/actions/`, { kind: 'NOTE', note: 'Walk note' }),
  },
  // ---- Audit settings, the single exam deletes (issue 27) ----
  'PUT /audit/settings/': { target: 'settings', run: sweep('PUT /audit/settings/') },
  'DELETE /cervaical/{id}/': {
    target: 'cervical_exam',
    run: async () => send('DELETE', `/cervaical/${(await seedExam(t.database.db, { organizationId: state().orgId, documents: ['IMAGE'] })).id}/`),
  },
  'DELETE /orca/{id}/': {
    target: 'orca_exam',
    run: async () => {
      const s = await setupUploader(t);
      await grantLicence(t.database.db, s.org.id, 'ORCA');
      const upload = await postOrca(t, s.token, await orcaBody(t, { ...s, patient: await uploadPatient(t, s) }));
      if (upload.statusCode >= 300) throw new Error(`ORCA upload failed while preparing: ${upload.body}`);
      return send('DELETE', `/orca/${upload.json<{ id: number }>().id}/`);
    },
  },

  'POST /follow-up/backfill/': { target: 'settings', noChanges: true, run: () => send('POST', '/follow-up/backfill/', {}) },

  // ---- Bookings ----
  'POST /appointment/{token}/booking/': {
    target: 'booking',
    anonymous: true,
    run: async () => {
      const s = await bookingSetup();
      return send('POST', `/appointment/${s.token}/booking/`, { start: s.start, first_name: 'Asha', last_name: 'Rao', mobile: uniqueMobile(), email: 'asha@example.com', age: 30 }, null);
    },
  },
  'POST /appointment/{token}/booking/{booking}/cancel/': {
    target: 'booking',
    anonymous: true,
    run: async () => {
      const b = await book();
      return send('POST', `/appointment/${b.pageToken}/booking/${b.bookingToken}/cancel/`, undefined, null);
    },
  },
  'POST /booking/{id}/status/': {
    target: 'booking',
    run: async () => send('POST', `/booking/${(await book()).id}/status/`, { status: 'CANCELED' }),
  },
  'POST /booking/{id}/payment/': {
    target: 'booking',
    run: async () => send('POST', `/booking/${(await book()).id}/payment/`, { method: 'CASH', reference: 'Walk-1' }),
  },

  // ---- Tutorials ----
  'POST /tutorial/module/': { target: 'tutorial', run: sweep('POST /tutorial/module/') },
  'PUT /tutorial/module/{id}/': {
    target: 'tutorial',
    run: async () => send('PUT', `/tutorial/module/${await tutorialModule()}/`, { name: `Walk renamed ${++seq}`, z_order: 1 }),
  },
  'DELETE /tutorial/module/{id}/': { target: 'tutorial', run: async () => send('DELETE', `/tutorial/module/${await tutorialModule()}/`) },
  'PUT /tutorial/module/order/': {
    target: 'tutorial',
    run: async () => {
      await tutorialModule();
      const ids = (await t.database.db.select({ id: tutorialModules.id }).from(tutorialModules)).map((m) => m.id);
      return send('PUT', '/tutorial/module/order/', { ids: ids.reverse() });
    },
  },
  'POST /tutorial/quiz/': {
    target: 'tutorial',
    run: async () =>
      send('POST', '/tutorial/quiz/', { module: await tutorialModule(), question: 'Walk?', z_order: 1, is_multi_select: false, options: [{ option: 'Yes' }] }),
  },
  'PUT /tutorial/quiz/{id}/': {
    target: 'tutorial',
    run: async () => {
      const module = await tutorialModule();
      return send('PUT', `/tutorial/quiz/${await tutorialQuiz(module)}/`, { module, question: 'Walk again?', z_order: 2 });
    },
  },
  'DELETE /tutorial/quiz/{id}/': { target: 'tutorial', run: async () => send('DELETE', `/tutorial/quiz/${await tutorialQuiz()}/`) },
  'PUT /tutorial/quiz/order/': {
    target: 'tutorial',
    run: async () => {
      const module = await tutorialModule();
      const a = await tutorialQuiz(module);
      const b = await tutorialQuiz(module);
      return send('PUT', '/tutorial/quiz/order/', { module, ids: [b, a] });
    },
  },
  'POST /tutorial/quiz-option/': {
    target: 'tutorial',
    run: async () => send('POST', '/tutorial/quiz-option/', { option: 'No', question: await tutorialQuiz(), z_order: 2, is_correct: false }),
  },
  'PUT /tutorial/quiz-option/{id}/': {
    target: 'tutorial',
    run: async () => {
      const question = await tutorialQuiz();
      const id = await made('POST', '/tutorial/quiz-option/', { option: 'No', question, z_order: 2, is_correct: false });
      return send('PUT', `/tutorial/quiz-option/${id}/`, { option: 'Maybe', question });
    },
  },
  'DELETE /tutorial/quiz-option/{id}/': {
   
    target: 'tutorial',
    run: async () => {
      const id = await made('POST', '/tutorial/quiz-option/', { option: 'No', question: await tutorialQuiz(), z_order: 2, is_correct: false });
      return send('DELETE', `/tutorial/quiz-option/${id}/`);
    },
  },
  'POST /tutorial/content/': { target: 'tutorial', run: async () => send('POST', '/tutorial/content/', { title: 'Walk video', z_order: 1, module: await tutorialModule(), primary_image: 'walk' }) },
  'PUT /tutorial/content/{id}/': {
    target: 'tutorial',
    run: async () => {
      const module = await tutorialModule();
      return send('PUT', `/tutorial/content/${await tutorialContent(module)}/`, { title: 'Walk video 2', z_order: 1, module });
    },
  },
  'DELETE /tutorial/content/{id}/': { target: 'tutorial', run: async () => send('DELETE', `/tutorial/content/${await tutorialContent()}/`) },
  'PUT /tutorial/content/order/': {
    target: 'tutorial',
    run: async () => {
      const module = await tutorialModule();
      const a = await tutorialContent(module);
      const b = await tutorialContent(module);
      return send('PUT', '/tutorial/content/order/', { module, ids: [b, a] });
    },
  },
};

/**
 * Write routes that write no audit row, each with its reason. Keep this list short: a route that changes a record
 * someone answers for belongs in CALLS.
 */
const EXEMPT: Record<string, string> = {
  // Reads sent as POST (a list of ids too long for a query string): reads of personal data are audited as reads.
  'POST /scan/ids/': 'a read: the scans of a list of ids',
  'POST /scan/from/ids/': 'a read: the scans of a list of ids (the spec path)',
  'POST /scan/lat-long/cells/ids/': "a read: the scan ids of a map's cells",
  'POST /cervaical/ids/': 'a read: the cervical exams of a list of ids',
  // Preferences and staging that change no record anyone answers for.
  'PUT /user/last_dashboard_path/': "the console's last visited page, written on navigation: a preference, not a change of a record",
  'POST /file/upload/':
    'stores a file not yet attached to any record; the write that attaches it (scan, exam, firmware, tutorial, organization logo) is audited, and a file\u2019s content is never audit data',
  'POST /tutorial/module-completed/':
    "a trainee's progress through a module, sent by the app at each step; the certification it leads to is audited on the user",
};

type Operation = { method: string; path: string; name: string };
const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .map((m) => m.toUpperCase())
    .filter((m) => WRITE_METHODS.has(m))
    .map((method) => {
      const short = path.startsWith(API) ? path.slice(API.length) : path;
      return { method, path: short, name: `${method} ${short}` };
    }),
);

describe('every write route writes an audit row (issue 27)', () => {
  it('walks the write routes of the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(80);
  });

  it('knows every write route: each is called below or exempt with a reason', () => {
    const unknown = operations.filter((op) => !(op.name in CALLS) && !(op.name in EXEMPT)).map((op) => op.name);
    expect(
      unknown,
      `These write routes are neither walked nor exempt. Add each to CALLS in apps/api/src/http/every-write-audited.test.ts ` +
        `(how to call it once successfully and the target_type of the audit row its service writes with ` +
        `ctx.services.audit.record in the same transaction), or to EXEMPT with the reason it changes no record:\n  ${unknown.join('\n  ')}`,
    ).toEqual([]);
    const stale = [...Object.keys(CALLS), ...Object.keys(EXEMPT)].filter((name) => !operations.some((op) => op.name === name));
    expect(stale, 'CALLS or EXEMPT name routes the OpenAPI document no longer has: remove them').toEqual([]);
    const both = Object.keys(CALLS).filter((name) => name in EXEMPT);
    expect(both, 'a route is either walked or exempt').toEqual([]);
  });

  it.each(Object.entries(CALLS).filter(([name]) => operations.some((op) => op.name === name)))(
    '%s writes an audit row',
    async (name, call) => {
      expect([...AUDIT_TARGET_TYPES, 'session']).toContain(call.target);
      const beforeRun = await lastAuditId();
      const res = await call.run();
      expect(res.statusCode, `${name} did not succeed, so the walk could not check its audit row: ${res.body}`).toBeLessThan(300);
      const rows = await t.database.db
        .select()
        .from(auditLog)
        .where(and(gt(auditLog.id, rowsBefore.get(res) ?? beforeRun), eq(auditLog.targetType, call.target)));
      expect(
        rows.map((r) => r.action),
        `${name} answered ${res.statusCode} but wrote no audit row with target_type '${call.target}'. Its service must call ` +
          `ctx.services.audit.record({action, ...auditActor(actor, meta), targetType: '${call.target}', targetId, organizationId, ` +
          `changes: auditChanges(before, after)}, tx) in the transaction of the write (apps/api/src/services/audit.service.ts).`,
      ).not.toEqual([]);
      if (call.pending) return;
      for (const row of rows) {
        const what = `${name}: ${row.action}`;
        expect(row.outcome, what).toBe('success');
        expect(row.targetId, `${what} names its target`).not.toBeNull();
        expect(row.ip, `${what} keeps the caller's address`).not.toBeNull();
        if (!call.anonymous) expect(row.actorId, `${what} names who acted`).not.toBeNull();
        if (ORGANIZATION_TARGETS.has(call.target)) {
          expect(row.organizationId, `${what} carries the target's organization (who may read the row follows from it)`).not.toBeNull();
        }
      }
      if (!call.noChanges) {
        expect(
          rows.some((r) => (r.changes?.length ?? 0) > 0),
          `${name} wrote ${rows.map((r) => r.action).join(', ')} without the changed fields: pass changes: auditChanges(before, after) (null before for a creation, null after for a delete)`,
        ).toBe(true);
      }
    },
  );
});
