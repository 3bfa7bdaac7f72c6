// One error type, a closed list of codes mapped to HTTP statuses in one place, one handler writing every body
// in the DRF shape of DESIGN §4: 400 {field: [msg], non_field_errors: [...]}, others {detail}.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError, type z } from 'zod';

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
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
  void reply.status(500).send({ detail: 'A server error occurred.' });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ detail: 'Not found.' }));

  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
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
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ detail: 'Too many attempts. Please try again later.' });
    if (status >= 400 && status < 500) {
      const e = error as FastifyError;
      if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.status(415).send({ detail: 'Unsupported media type.' });
      if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.code === 'FST_REQ_FILE_TOO_LARGE')
        return reply.status(413).send({ detail: 'The file is too large.' });
      if (status === 400) return reply.status(400).send({ non_field_errors: [e.message] });
      return reply.status(status).send({ detail: e.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'A server error occurred.' });
  });
}
