// Multipart forms (file/upload/, firmware/): the parser's options, the answer to a broken body and the clean-up of
// the client's file name, in one place for every route that reads an upload.
import type { FastifyRequest } from 'fastify';
import { nonFieldError } from './errors.ts';

export const MULTIPART_PARSE_ERROR =
  'Multipart form parse error - the request body is not a valid multipart form.';

/**
 * The request's parts: one file of at most `fileSize` bytes kept (a longer one is cut and marked `truncated`, for
 * the service to answer with its own message), and a few short fields.
 */
export function multipartParts(request: FastifyRequest, fileSize: number) {
  // `throwFileSizeLimit` is honoured by parts() but missing from its type.
  const options: Parameters<FastifyRequest['parts']>[0] & { throwFileSizeLimit: boolean } = {
    limits: { fileSize, files: 1, fields: 10, fieldSize: 1000 },
    throwFileSizeLimit: false,
  };
  return request.parts(options);
}

/**
 * Runs `read` over the form. The parser throws plain errors for a broken body (no boundary, cut short): the
 * client's mistake, a 400. Its own limit errors carry a status and go to the error handler as they are.
 */
export async function readMultipart(read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (error) {
    if (typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw nonFieldError(MULTIPART_PARSE_ERROR);
  }
}

/** The client's file name, kept as metadata: without control characters (PostgreSQL refuses U+0000 in text). */
export function cleanFileName(name: string | undefined): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const cleaned = name?.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned || undefined;
}
