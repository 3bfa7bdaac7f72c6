// One error type, a closed list of codes mapped to HTTP statuses in one place, one handler writing every body
// in the DRF shape of architecture §4: 400 {field: [msg], non_field_errors: [...]}, others {detail}.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError, type z } from 'zod';
import { JSON_BODY_MAX_BYTES } from '@sc/shared/constants';
import { StorageFullError, StorageUnavailableError } from '../services/storage/storage.ts';

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  /** The request is well formed but cannot be applied (an Idempotency-Key reused for other content). */
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Not found.') => new AppError('not_found', what);
export const badRequest = (fields: FieldErrors) => new AppError('bad_request', 'Invalid input.', fields);
export const fieldError = (field: string, message: string) => badRequest({ [field]: [message] });
export const nonFieldError = (message: string) => badRequest({ non_field_errors: [message] });

/** Transport-level refusals, worded once. */
export const HTTP_MESSAGES = {
  bodyTooLarge: `The request body is too large (limit ${JSON_BODY_MAX_BYTES / 1024 / 1024} MB).`,
  fileTooLarge: 'The file is too large.',
  unsupportedMediaType: 'Unsupported media type.',
  contentEncoding: (encoding: string) =>
    `Content-Encoding "${encoding.slice(0, 40)}" is not supported: send the request body uncompressed.`,
  urlTooLong: (limit: number) => `The request URL is too long (limit ${limit} characters).`,
  headersTooLarge: `The request URL or headers are too large (limit ${http.maxHeaderSize / 1024} KB in all).`,
  clientTimeout: 'The request took too long to arrive.',
  badHttp: 'The request is not valid HTTP.',
  databaseUnavailable: 'The database is unavailable for a moment. Please try again shortly.',
  storageFull: 'The file store is full or read-only; nothing was saved. Please try again later.',
  storageUnavailable: 'The file store is unavailable for a moment. Please try again shortly.',
  serverError: 'A server error occurred.',
} as const;

/** Seconds a client should wait before retrying after a lost database connection. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// Node and pg driver codes of a connection that broke or could not be made.
const CONNECTION_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // SQLSTATE class 57: admin_shutdown, crash_shutdown, cannot_connect_now.
  '57P01',
  '57P02',
  '57P03',
  // SQLSTATE 53300: too_many_connections (the server refuses a new one for now).
  '53300',
]);
// pg and pg-pool say these in words only (no code).
const CONNECTION_ERROR_MESSAGES = [
  /^Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Connection ended unexpectedly/i,
];

/**
 * True when the error (or any error it wraps: Drizzle wraps the driver's in `cause`) says the database connection
 * was lost or could not be had: a server restart or failover, a killed backend, a network cut, a pool timeout.
 * Such a request did nothing wrong: it gets 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (CONNECTION_ERROR_CODES.has(code)) return true;
      // SQLSTATE class 08: connection exceptions (08000, 08003, 08006, 08001, 08004, 08P01).
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    if (CONNECTION_ERROR_MESSAGES.some((pattern) => pattern.test(e.message))) return true;
  }
  return false;
}

/** Turns zod issues into DRF field errors: nested paths are joined with dots ('company_info.email'). */
export function zodToFields(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'non_field_errors';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals, which skip the error handler and would otherwise answer
 * Fastify's {error, code, message} body. A path that cannot be decoded ('%E0%A4%A') or whose parameter is longer
 * than any id (maxParamLength) names nothing: 404, as an unknown id does.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(404).send({ detail: 'Not found.' });
    return;
  }
  request.log.error({ err: error }, 'router error');
  void reply.status(500).send({ detail: HTTP_MESSAGES.serverError });
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before any route exists (a URL or headers
 * past `maxHeaderSize`, a stalled request, bytes that are not HTTP) answer in the DRF shape too.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status: number;
  let body: object;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = { detail: HTTP_MESSAGES.headersTooLarge };
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = { detail: HTTP_MESSAGES.clientTimeout };
  } else {
    status = 400;
    body = { non_field_errors: [HTTP_MESSAGES.badHttp] };
  }
  this.log.debug({ errorCode: error.code, status }, 'client error');
  if (socket.writable) {
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ detail: 'Not found.' }));

  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    // The answer is the error, in JSON, not what the route had begun to send: a download whose stream failed before
    // its first byte (a CSV's COPY that lost its connection) would otherwise go as a file, or fail to serialize.
    void reply.removeHeader('content-type').removeHeader('content-disposition');
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      if (error.code === 'bad_request') return reply.status(400).send(error.fields ?? { non_field_errors: [error.message] });
      return reply.status(error.status).send({ detail: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: FieldErrors = {};
      for (const v of error.validation) {
        const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'non_field_errors';
        (fields[path] ??= []).push(v.message ?? 'Invalid value.');
      }
      return reply.status(400).send(fields);
    }
    if (error instanceof ZodError) return reply.status(400).send(zodToFields(error.issues));
    if (error instanceof StorageFullError) {
      // Logged here only: the store throws without logging, so a full disk is one line a request.
      request.log.error({ err: error.cause }, 'file store full or read-only');
      return reply.status(507).send({ detail: HTTP_MESSAGES.storageFull });
    }
    // Before the database check: a fetch to an unreachable store carries ECONNREFUSED too, and is not the database.
    if (error instanceof StorageUnavailableError) {
      request.log.error({ err: error }, 'file store unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ detail: HTTP_MESSAGES.storageUnavailable });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ detail: HTTP_MESSAGES.databaseUnavailable });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ detail: 'Too many attempts. Please try again later.' });
    if (status >= 400 && status < 500) {
      const e = error as FastifyError;
      if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        return reply.status(415).send({ detail: HTTP_MESSAGES.unsupportedMediaType });
      if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ detail: HTTP_MESSAGES.bodyTooLarge });
      if (e.code === 'FST_REQ_FILE_TOO_LARGE') return reply.status(413).send({ detail: HTTP_MESSAGES.fileTooLarge });
      if (status === 400) return reply.status(400).send({ non_field_errors: [e.message] });
      return reply.status(status).send({ detail: e.message });
    }
    // The logger summarises the error (class, code, message): a failed query's parameters never reach the log.
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: HTTP_MESSAGES.serverError });
  });
}
