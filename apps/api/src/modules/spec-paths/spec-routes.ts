// Endpoints the specification names that answer a shape of their own (issue 23.21), each built on the service of the
// product route it mirrors, so the permission and scope rules are the product's:
// - GET scan/latlng/: the map points as JSON {id, latitude, longitude} (part 2 §3 Map point); the console reads
//   the compact binary GET scan/lat-long/ (12 bytes a point instead of ~50).
// - GET scan/recentscan/: the scan list, newest scan first (part 1 §7 names 'recent scans' and nothing more).
// - GET scan/technicians/: the technician picker's users (part 2 §7: user_type, organization_id, search), by default
//   the types the scan list's technician filter offers.
// - GET orca/case-history/?scan=: the case history of one ORCA exam (part 3 §3 ORCA case-history fields).
import { Transform, type Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, paginated } from '@sc/shared/list';
import { ORCA_LIST_ROLES, ZOrcaCaseHistory } from '@sc/shared/orca';
import {
  SCAN_DEFAULT_ORDERING,
  SCAN_LIST_ROLES,
  SCAN_TECHNICIAN_TYPES,
  ZScanList,
  ZScanListQuery,
  ZScanPointsQuery,
} from '@sc/shared/scans';
import { ZOrganizationUserList, ZOrganizationUserListQuery } from '@sc/shared/users';
import { requireRole } from '../../http/authenticate.ts';
import { paginate } from '../../http/pagination.ts';
import { TOKEN_SECURITY as security, guard, listRequest } from '../../http/route-helpers.ts';
import { builtRowsSerializer } from '../../http/serializer.ts';
import { auditRead } from '../../http/read-audit.ts';
import { getOrca } from '../orca/orca.service.ts';
import { listScans, streamScanPoints } from '../scans/scan-list.service.ts';
import { listOrganizationUsers } from '../users/organization-users.service.ts';

const ZDetail = z.object({ detail: z.string() });
const ZFieldErrors = z.record(z.string(), z.array(z.string()));
const errors = { 400: ZFieldErrors, 401: ZDetail, 403: ZDetail, 404: ZDetail };

export const ZScanPoint = z.object({ id: z.number().int(), latitude: z.number(), longitude: z.number() });

/**
 * A float32 coordinate as the decimal it was stored from: float32 carries 7 significant digits, so 77.5946 comes
 * back as 77.59459686… and is written 77.5946 (7 digits keep ~1 m at any latitude or longitude).
 */
const coordinate = (value: number): number => Number(value.toPrecision(7));

/** The 12-byte little-endian records of streamScanPoints (int32 id, float32 latitude, float32 longitude) as JSON. */
export function pointsAsJson(points: Readable): Readable {
  let rest = Buffer.alloc(0);
  let first = true;
  const json = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const bytes = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      const whole = bytes.length - (bytes.length % 12);
      const parts: string[] = [];
      for (let at = 0; at < whole; at += 12) {
        const point = {
          id: bytes.readInt32LE(at),
          latitude: coordinate(bytes.readFloatLE(at + 4)),
          longitude: coordinate(bytes.readFloatLE(at + 8)),
        };
        parts.push(`${first ? '[' : ','}${JSON.stringify(point)}`);
        first = false;
      }
      rest = Buffer.from(bytes.subarray(whole));
      done(null, parts.join(''));
    },
    flush(done) {
      done(null, first ? '[]' : ']');
    },
  });
  points.on('error', (error) => json.destroy(error));
  return points.pipe(json);
}

const ZCaseHistoryQuery = z.object({ scan: idParam('scan') });
const ZCaseHistoryRow = ZOrcaCaseHistory.extend({ scan: z.number().int() });

export const specRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/scan/latlng/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags: ['scans'],
        security,
        summary:
          "Map points of every scan the list filters select, as JSON [{id, latitude, longitude}] (part 2 §3 Map point; the console reads the binary GET /api/v1/scan/lat-long/)",
        querystring: ZScanPointsQuery,
        response: { 200: z.array(ZScanPoint), ...errors },
      },
      // The points are written as JSON text by pointsAsJson: not serialized again.
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
    },
    async (request, reply) => {
      const actor = requireRole(request, SCAN_LIST_ROLES);
      const points = await streamScanPoints(app.ctx, actor, request.query, request.headers.timezone);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(pointsAsJson(points) as never);
    },
  );

  app.get(
    '/scan/recentscan/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags: ['scans'],
        security,
        summary: `The scan list's page, newest scan first (ordering is ${SCAN_DEFAULT_ORDERING}; the list's filters apply)`,
        querystring: ZScanListQuery,
        response: { 200: ZScanList, ...errors },
      },
      serializerCompiler: builtRowsSerializer(app.ctx.config.checkResponses),
    },
    async (request) =>
      listScans(
        app.ctx,
        requireRole(request, SCAN_LIST_ROLES),
        { ...request.query, ordering: SCAN_DEFAULT_ORDERING },
        listRequest(request),
      ),
  );

  app.get(
    '/scan/technicians/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags: ['scans'],
        security,
        summary: `Users for the scan list's technician filter in the caller's scope (user_type defaults to ${SCAN_TECHNICIAN_TYPES.join(', ')}); organization_id, search`,
        querystring: ZOrganizationUserListQuery,
        response: { 200: ZOrganizationUserList, ...errors },
      },
    },
    async (request) => {
      const actor = requireRole(request, SCAN_LIST_ROLES);
      const query = { ...request.query, user_type: request.query.user_type ?? [...SCAN_TECHNICIAN_TYPES] };
      const { count, results } = await listOrganizationUsers(app.ctx, actor, query, request.headers.timezone);
      return paginate(request, request.query, count, results);
    },
  );

  app.get(
    '/orca/case-history/',
    {
      preValidation: guard(ORCA_LIST_ROLES),
      schema: {
        tags: ['orca'],
        security,
        summary:
          "The case history of one ORCA exam (scan: its id; 404 outside the caller's scope), as a list of 0 or 1",
        querystring: ZCaseHistoryQuery,
        response: { 200: paginated(ZCaseHistoryRow), ...errors },
      },
    },
    async (request) => {
      const exam = await getOrca(app.ctx, requireRole(request, ORCA_LIST_ROLES), request.query.scan);
      await auditRead(app.ctx, request, { kind: 'orcaExam', id: exam.id, organizationId: exam.organization });
      const results = exam.case_history ? [{ ...exam.case_history, scan: exam.id }] : [];
      return { count: results.length, next: null, previous: null, results };
    },
  );
};
