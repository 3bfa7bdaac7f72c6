// The OpenAPI document (/api/docs): what an integrator needs beyond the routes' own schemas — how to sign in and
// send the token, the error answers every operation can give, the shared shapes as components, one tag per area and
// the multipart forms of the upload routes. It is all added here, per route as the document is built, so a route
// added later (an alias at the spec's path) is documented the same way without being listed anywhere.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { MESSAGES } from '@sc/shared/validation';
import { AUTH_ERRORS } from './authenticate.ts';
import { HTTP_MESSAGES } from './errors.ts';

type JsonSchema = Record<string, unknown>;

declare module 'fastify' {
  // Module augmentation merges into Fastify's interface; a type alias cannot.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /** What the OpenAPI page says of this route beyond its schema (read by this module only). */
    apiDoc?: ApiDoc;
  }
}

export type ApiDoc = {
  /**
   * The route reads a multipart form (it has no body schema: the handler streams the parts): its fields, for the
   * page's "Try it out". A file field is `{ type: 'string', format: 'binary' }`.
   */
  form?: { properties: Record<string, JsonSchema>; required?: string[] };
  /** The service limits calls (per account, per mobile, per address) beyond @fastify/rate-limit's per-IP limits. */
  rateLimited?: boolean;
};

/** A multipart file field. */
export const FILE_FIELD = (description: string): JsonSchema => ({ type: 'string', format: 'binary', description });

/**
 * The areas, one tag each, in the page's order. A route that names no tag gets its area from the first segment of
 * its path (AREA_OF_SEGMENT), so aliases at the spec's paths land in the area they belong to.
 */
export const API_TAGS = [
  {
    name: 'auth',
    description:
      'Signing in, in two steps: (1) get an id_token — `POST auth/password/` {email, password}, or ' +
      '`POST auth/otp/` {mobile, mobile_country_code} then ' +
      '`POST auth/otp/verify/` {mobile, mobile_country_code, code}; ' +
      '(2) exchange it for a session token — `POST user/login/` {id_token} → {token, id, is_trainer}. Send the token ' +
      'on every other call as `Authorization: Token <token>`. Accounts with a second factor get, at step 1, a code ' +
      'to their mobile ({second_factor_required: true, …}: finish with `auth/otp/verify/`) or, when they began with ' +
      'the code, a password step ({password_required: true, code_token}: finish with `auth/password/` ' +
      '{email, password, code_token}). Also the password reset by e-mail link.',
  },
  { name: 'account', description: "The signed-in user's own account: profile, last page, sign-out, deletion." },
  { name: 'users', description: 'Users of the organizations: list, create, edit, certification, impersonation.' },
  { name: 'lookups', description: 'Countries, time zones, map tiles and address search for forms and maps.' },
  { name: 'dashboard', description: 'Dashboard figures, charts, positivity and leaderboards.' },
  { name: 'reports', description: 'CSV reports of the organization and leaderboard figures.' },
  { name: 'organizations', description: 'Organizations (clinics), their references, previous scans and webhooks.' },
  {
    name: 'files',
    description:
      'Uploads (multipart/form-data: `file` and `folder`, e.g. folder `firmware` before `POST firmware/`) and ' +
      'reading stored files by path.',
  },
  { name: 'languages', description: 'Languages and their consent forms.' },
  { name: 'app versions', description: 'Versions of the device app.' },
  { name: 'devices', description: 'Devices and their assignment to organizations.' },
  {
    name: 'device upload',
    description: 'The devices’ API: session check and the upload of patients, scans, cervical images and ORCA exams.',
  },
  { name: 'patients', description: 'Patients: list, read, edit, transfer, reports.' },
  { name: 'scans', description: 'Breast scans: lists, map points, reports, transfer, replay.' },
  { name: 'cervical', description: 'Cervical (Cervaical) images, reviews and adjudication.' },
  { name: 'orca', description: 'ORCA oral exams and their case histories.' },
  { name: 'follow-up', description: 'Follow-up of screen-positive patients: the worklist, cases, actions, settings.' },
  { name: 'licences', description: 'Licences of the organizations and their log.' },
  { name: 'bookings', description: 'Bookings as the console sees them: list, status, payment.' },
  {
    name: 'bookings (public)',
    description: 'The public booking page of an organization (no sign-in): dates, slots, booking, cancellation.',
  },
  {
    name: 'follow-up',
    description: 'Follow-up of screen-positive patients: cases, their timeline and actions, settings, figures, backfill.',
  },
  { name: 'tutorials', description: 'Training modules, quizzes, contents and their completion.' },
  { name: 'trash', description: 'Deleted records of each area, restorable until they are purged (30 days).' },
  { name: 'firmware', description: 'Firmware versions of the devices.' },
  { name: 'audit', description: 'The audit trail: who did what to which record, from where, with what outcome; its retention.' },
  { name: 'dev', description: 'Demo mode only: the outbox of sign-in codes and links.' },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];
export const API_TAG_NAMES: readonly string[] = API_TAGS.map((t) => t.name);

/** The area of a route without a tag, by the first segment of its path after /api/v1/. */
const AREA_OF_SEGMENT: Record<string, ApiTag> = {
  auth: 'auth',
  user: 'users',
  country: 'lookups',
  timezone: 'lookups',
  map: 'lookups',
  geocode: 'lookups',
  organization: 'organizations',
  file: 'files',
  language: 'languages',
  app_version: 'app versions',
  device: 'devices',
  patient: 'patients',
  scan: 'scans',
  report_log: 'scans',
  cervaical: 'cervical',
  orca: 'orca',
  appointment: 'bookings (public)',
  booking: 'bookings',
  tutorial: 'tutorials',
  firmware: 'firmware',
  dev: 'dev',
};

const DETAIL = { $ref: '#/components/schemas/Detail' };
/** A {detail} answer with the server's own words as its example. */
const detailContent = (detail: string) => ({ 'application/json': { schema: DETAIL, example: { detail } } });

/** The 4xx answers, described once and referenced by every operation that can give them. */
const ERROR_RESPONSES = {
  BadRequest: {
    description:
      'Invalid input: each field names its messages; problems not tied to one field are under non_field_errors. ' +
      'Nothing was changed.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/FieldErrors' } } },
  },
  Unauthorized: {
    description:
      'No token, or a token that is not (or no longer) a session: sign in again (see the auth tag). ' +
      'Send `Authorization: Token <token>`.',
    content: detailContent(AUTH_ERRORS.notProvided),
  },
  Forbidden: {
    description: 'The signed-in role may not do this (the description of the operation says who may).',
    content: detailContent(AUTH_ERRORS.forbidden),
  },
  NotFound: {
    description: 'No such object, or one outside the caller’s organizations (they are not told apart).',
    content: detailContent('Not found.'),
  },
  /** On every operation: the refusals of the request itself, before any route looks at it. */
  ClientError: {
    description:
      'The request itself was refused: URL too long (414), body too large (413), compressed or unsupported body ' +
      '(415), a method the path does not take (405).',
    content: detailContent(HTTP_MESSAGES.unsupportedMediaType),
  },
  TooManyRequests: {
    description: 'Too many calls: wait the Retry-After header’s seconds (when given) before trying again.',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
    content: { 'application/json': { schema: DETAIL } },
  },
} as const;

type ErrorResponse = keyof typeof ERROR_RESPONSES;
const STATUS_OF: Record<ErrorResponse, string> = {
  BadRequest: '400',
  Unauthorized: '401',
  Forbidden: '403',
  NotFound: '404',
  ClientError: '4XX',
  TooManyRequests: '429',
};

/** The statuses whose route-declared schemas are the shared ones. */
const SHARED_ERRORS = Object.keys(STATUS_OF) as ErrorResponse[];

const SHARED_SCHEMAS = {
  FieldErrors: {
    type: 'object',
    description: 'The 400 body: a list of messages per field name, and non_field_errors for the others.',
    properties: { non_field_errors: { type: 'array', items: { type: 'string' } } },
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { first_name: [MESSAGES.required], mobile: [MESSAGES.invalidPhone] },
  },
  Detail: {
    type: 'object',
    description: 'The body of every other error answer.',
    properties: { detail: { type: 'string' } },
    required: ['detail'],
  },
  Page: {
    type: 'object',
    description:
      'A page of a list: `page` (from 1) and `limit` choose it; next/previous are the URLs of the pages around ' +
      'it (null at the ends).',
    properties: {
      count: { type: 'number', description: 'Rows matching the filters, on all pages.' },
      count_capped: {
        type: 'boolean',
        description: 'Present (true) when count is a lower bound: a text search counted up to 200 rows past the page',
      },
      next: { type: 'string', nullable: true },
      previous: { type: 'string', nullable: true },
      results: { type: 'array', items: {} },
    },
    required: ['count', 'next', 'previous', 'results'],
  },
};

const SECURITY_SCHEMES = {
  token: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'The session token of `POST user/login/`, sent as `Authorization: Token <token>` — the word Token, a space, ' +
      'then the token (in this page\'s "Authorize" box type both, e.g. `Token 3f2a…`). `Bearer <token>` is read ' +
      'the same way. See the auth tag for the two sign-in steps.',
  },
};

const DOCUMENT_DESCRIPTION =
  'The Screening Console API. Every path is under /api/v1/ and ends with a slash. Bodies are JSON unless the ' +
  'operation says multipart/form-data. Sign in in two steps (tag auth), then send `Authorization: Token <token>`. ' +
  'Errors: 400 {field: [messages], non_field_errors: [...]}, other 4xx {detail}. Lists are pages ' +
  '{count, next, previous, results}. Times are ISO 8601; day and period filters are read in the time zone of the ' +
  '`Timezone` header (IANA name, e.g. Asia/Kolkata).';

/** Where the route's facts are carried from the per-route transform to the finished document (removed there). */
const ERRORS_KEY = 'x-sc-errors';

type RouteDocument = Parameters<typeof jsonSchemaTransform>[0];

/** Per route: the zod schemas as JSON schemas, the area's tag, the multipart form, and which 4xx it can answer. */
function documentRoute(document: RouteDocument): { schema: JsonSchema; url: string } {
  const { schema, url } = jsonSchemaTransform(document) as { schema: JsonSchema | undefined; url: string };
  const out: JsonSchema = { ...(schema ?? {}) };
  if (out.hide) return { schema: out, url };
  const route = document.route as { config?: { apiDoc?: ApiDoc; rateLimit?: unknown } };
  const apiDoc = route.config?.apiDoc ?? {};

  if (!Array.isArray(out.tags) || out.tags.length === 0) {
    const segment = url.replace(/^\/api\/v1\//, '').split('/')[0] ?? '';
    out.tags = [AREA_OF_SEGMENT[segment] ?? segment];
  }
  const consumes = Array.isArray(out.consumes) ? (out.consumes as string[]) : [];
  const multipart = consumes.includes('multipart/form-data');
  if (multipart && apiDoc.form && !out.body) out.body = { type: 'object', ...apiDoc.form };

  const errors: ErrorResponse[] = [];
  if (out.body || out.querystring || multipart) errors.push('BadRequest');
  if (Array.isArray(out.security) && out.security.length > 0) errors.push('Unauthorized', 'Forbidden');
  if (/:[^/]+/.test(url)) errors.push('NotFound');
  if (route.config?.rateLimit || apiDoc.rateLimited) errors.push('TooManyRequests');
  errors.push('ClientError');
  out[ERRORS_KEY] = errors;
  return { schema: out, url };
}

type Operation = { responses?: Record<string, unknown>; [ERRORS_KEY]?: ErrorResponse[] };
type OpenApiObject = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

const PAGE_KEYS = ['count', 'next', 'previous', 'results'];

type DocResponse = { description?: string; content?: Record<string, { schema?: JsonSchema }> };
const SUCCESS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/**
 * A list's answer as the shared Page plus its own row: `allOf: [Page, {results: [row]}]`, so the envelope is
 * described once and each list still shows its rows.
 */
function asPage(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== 'object' || !properties || !PAGE_KEYS.every((k) => k in properties)) return schema;
  return {
    allOf: [{ $ref: '#/components/schemas/Page' }, { type: 'object', properties: { results: properties.results } }],
  };
}

/** The finished document: the error answers referenced from each operation, list answers as Page. */
function finishDocument({ openapiObject }: { openapiObject: unknown }): OpenApiObject {
  const doc = openapiObject as OpenApiObject;
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const responses = (operation.responses ??= {});
      const wanted = new Set(operation[ERRORS_KEY] ?? []);
      for (const name of SHARED_ERRORS) {
        const status = STATUS_OF[name];
        const own = responses[status] as DocResponse | undefined;
        // A route's own 4xx schema (kept for its serializer) is the shared shape, undescribed: a reference too.
        const undescribed = own !== undefined && own.description === 'Default Response';
        if ((wanted.has(name) && !own) || undescribed) responses[status] = { $ref: `#/components/responses/${name}` };
      }
      delete operation[ERRORS_KEY];
      for (const [status, response] of Object.entries(responses) as Array<[string, DocResponse]>) {
        // @fastify/swagger's placeholder says nothing; the status's own name does.
        if (response.description === 'Default Response') response.description = SUCCESS[status] ?? 'Success';
        const json = response.content?.['application/json'];
        if (json?.schema) json.schema = asPage(json.schema);
      }
    }
  }
  return doc;
}

/** The @fastify/swagger options of the app. */
export function swaggerOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      info: { title: 'Screening Console API', version: '1.0.0', description: DOCUMENT_DESCRIPTION },
      tags: API_TAGS.map((t) => ({ ...t })),
      components: {
        securitySchemes: SECURITY_SCHEMES as never,
        schemas: SHARED_SCHEMAS as never,
        responses: ERROR_RESPONSES as never,
      },
    },
    transform: documentRoute as never,
    transformObject: finishDocument as never,
  };
}
