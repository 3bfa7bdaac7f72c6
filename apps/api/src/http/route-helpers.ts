// Pieces every console route shares: the guards that answer 401/403 before the query or body is looked at, the path
// id, the audit meta, the list's request facts and the CSV answer. One place, used by every module's routes.
import { Readable } from 'node:stream';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { TUserType } from '@sc/shared/roles';
import { requestMeta, requireActor, requireRole } from './authenticate.ts';
import type { TPeriodQuery } from '@sc/shared/list';
import { CSV_BOM, csvFileName } from './csv-stream.ts';
import { auditCsvExport, csvRecordCounter } from './read-audit.ts';
import { readerZone, requestPeriod, type PeriodRange } from './period.ts';
import { notFound } from './errors.ts';
import { parsePathId } from './params.ts';

/** The `:id` path parameter as the schema sees it: any string, parsed by `parseId`. */
export const ZIdParams = z.object({ id: z.string() });

/** The OpenAPI security of a signed-in route. */
export const TOKEN_SECURITY = [{ token: [] }];

/** 401, then 403 by role, before the query or body is looked at. */
export const guard = (roles: readonly TUserType[]) => async (request: FastifyRequest) => {
  requireRole(request, roles);
};

/** 401 before the query or body is looked at: an anonymous caller learns 401, not the shape of a valid body. */
export const signedIn = async (request: FastifyRequest) => {
  requireActor(request);
};

/**
 * A path id that is not a positive 32-bit integer names nothing: 404, as a missing object. `missing` is the 404's
 * detail when the area names its missing object ('No module.'); 'Not found.' otherwise.
 */
export function parseId(raw: string, missing?: string): number {
  const id = parsePathId(raw);
  if (id === undefined) throw notFound(missing);
  return id;
}

/** The caller's address and user agent for the audit log. */
export const metaOf = (request: FastifyRequest) => {
  const meta = requestMeta(request);
  return { ip: meta.ip, userAgent: meta.userAgent };
};

/** What a list service needs of the request: its URL (next/previous links) and the caller's time zone. */
export const listRequest = (request: FastifyRequest) => ({
  url: request.url,
  timezone: request.headers.timezone,
});

/** The request's path without its query (the report log records it). */
export const pathOf = (request: FastifyRequest) => new URL(request.url, 'http://localhost').pathname;

/** What a CSV stream needs of the request: the list's facts, the path and the audit meta. */
export const csvRequest = (request: FastifyRequest) => ({
  ...listRequest(request),
  path: pathOf(request),
  meta: metaOf(request),
});

/** `name` in printable ASCII: accents dropped ('Clínica' → 'Clinica'), any other character an underscore. */
export const asciiFileName = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '_');

/**
 * The file name of a CSV download: `file` with the period the request's filters select (`range`, by default the
 * list's period filters), as calendar days in the reader's zone, or the day it was made (csvFileName).
 */
export function csvDownloadName(file: string, request: FastifyRequest, now: Date, range?: PeriodRange): string {
  const header = request.headers.timezone;
  const period = range ?? requestPeriod(request.query as Partial<TPeriodQuery>, header, now);
  return csvFileName(file, period, readerZone(header), now);
}

/**
 * A streamed CSV download named `filename`, never cached. The header follows RFC 6266: a name outside ASCII goes as
 * UTF-8 in `filename*` (RFC 5987) with an ASCII `filename` for clients that do not read it; quotes and backslashes
 * are escaped, so an organization's name in a file name cannot break the header.
 */
export const sendCsv = (reply: FastifyReply, filename: string, stream: Readable) =>
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', contentDisposition(filename, { fallback: asciiFileName(filename) }))
    .header('cache-control', 'no-store')
    .send(withBom(stream, (rows, complete) =>
      auditCsvExport(reply.server.ctx, reply.request, { name: filename, rows, complete }),
    ) as never);

/**
 * `stream` after the UTF-8 byte order mark (CSV_BOM), so every CSV opens in a spreadsheet as UTF-8. The mark goes
 * with the first bytes of the file, so a stream failing before them still answers an error, not a file (a lost
 * database is a 503). Ending the result early (a download given up) ends `stream` too: the COPY's connection is
 * released as before. Once the file has ended, or the download was given up, `done` is told how many records
 * followed the header and whether the file ended (the export's audit row); not when no byte was sent.
 */
function withBom(stream: Readable, done: (rows: number, complete: boolean) => Promise<void>): Readable {
  const bom = Buffer.from(CSV_BOM);
  const counter = csvRecordCounter();
  async function* bytes() {
    let first = true;
    let complete = false;
    try {
      for await (const chunk of stream) {
        const data = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
        counter.add(data);
        yield first ? Buffer.concat([bom, data]) : data;
        first = false;
      }
      if (first) yield bom;
      first = false;
      complete = true;
    } finally {
      if (!first) await done(Math.max(counter.records - 1, 0), complete);
    }
  }
  return Readable.from(bytes(), { objectMode: false });
}
