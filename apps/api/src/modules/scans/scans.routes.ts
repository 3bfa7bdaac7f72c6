// scan/ (part 2 §7 Scans). POST from a device today (issue 8, tag 'device upload'); the console's list, detail,
// transfer and duplicates join this file. Rules live in the services.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TUserType } from '@sc/shared/roles';
import {
  RECERTIFICATION_ROLES,
  REPORT_LOG_ROLES,
  SCAN_CSV_FILENAME,
  SCAN_LIST_ROLES,
  SCAN_POINTS_CONTENT_TYPE,
  SCAN_TRANSFER_ROLES,
  ZReportLogList,
  ZReportLogQuery,
  ZScanDeleted,
  ZScanDetail,
  ZScanDetailQuery,
  ZScanDeviceList,
  ZScanCellIds,
  ZScanCellIdsBody,
  ZScanIdsBody,
  ZScanList,
  ZScanListQuery,
  ZScanLookupQuery,
  ZScanPointsQuery,
  ZScanRowSaved,
  ZScanSaved,
  ZScanSensorList,
  ZScanTransferInput,
  ZScanUpload,
  ZTechnicianSummary,
  ZTechnicianSummaryQuery,
} from '@sc/shared/scans';
import { requestMeta, requireActor, requireRole } from '../../http/authenticate.ts';
import { builtRowsSerializer } from '../../http/serializer.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  csvRequest,
  guard,
  listRequest,
  metaOf,
  parseId,
  csvDownloadName,
  sendCsv,
  signedIn,
} from '../../http/route-helpers.ts';
import { auditRead } from '../../http/read-audit.ts';
import {
  DEVICE_UPLOAD_TAG,
  deviceUploadDocs,
  sendIdempotentAnswer,
} from '../uploads/device-upload.routes.ts';
import { readIdempotencyKey } from '../uploads/idempotency.ts';
import {
  deleteDuplicateScan,
  getScan,
  listReportLog,
  listScanSerials,
  listScans,
  streamOneScanCsv,
  scanIdsInCells,
  scanPointCells,
  streamScanPoints,
  streamScansCsv,
  transferScan,
} from './scan-list.service.ts';
import { uploadScan } from './scan-uploads.service.ts';
import { getTechnicianSummary } from './technician-summary.service.ts';

export const scanRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(scanConsoleRoutes);
  app.post(
    '/scan/',
    {
      // Signed in before the body is looked at: an anonymous caller learns 401, not the shape of a valid body.
      preValidation: signedIn,
      schema: {
        tags: [DEVICE_UPLOAD_TAG],
        security: [{ token: [] }],
        summary: 'Upload a breast scan from a device (technician of the organization, device linked to it)',
        description: deviceUploadDocs.scan,
        headers: deviceUploadDocs.headers,
        body: ZScanUpload,
        response: { 200: ZScanSaved, 201: ZScanSaved },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const key = readIdempotencyKey(request);
      const answer = await uploadScan(app.ctx, actor, request.body, key, requestMeta(request));
      return sendIdempotentAnswer(reply, answer);
    },
  );
};

// ---- The console (part 2 §2.7–2.9, §7): list, CSV, map points, cluster ids, one scan, transfer, duplicates ------

const tags = ['scans'];
const DUPLICATE_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN'];

export const scanConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/scan/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags,
        security,
        summary:
          "Breast scans in the caller's scope with every §2.7 filter; format=csv streams scan_details.csv",
        querystring: ZScanListQuery,
        response: { 200: ZScanList },
      },
      // The rows are built by the database (scanRowJson): checked outside production (http/serializer.ts).
      serializerCompiler: builtRowsSerializer(app.ctx.config.checkResponses),
    },
    async (request, reply) => {
      const actor = requireRole(request, SCAN_LIST_ROLES);
      if (request.query.format !== 'csv')
        return listScans(app.ctx, actor, request.query, listRequest(request));
      const stream = await streamScansCsv(app.ctx, actor, request.query, csvRequest(request));
      return sendCsv(reply, csvDownloadName(SCAN_CSV_FILENAME, request, app.ctx.now()), stream);
    },
  );

  app.post(
    '/scan/ids/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      // A read sent as POST (a cluster's ids do not fit in a URL): allowed while impersonating, changes nothing.
      config: { impersonationAllowed: true },
      schema: {
        tags,
        security,
        summary:
          "The scans of a map cluster (ids_list, up to 100,000) in the caller's scope; the list's query applies",
        querystring: ZScanListQuery,
        body: ZScanIdsBody,
        response: { 200: ZScanList },
      },
      serializerCompiler: builtRowsSerializer(app.ctx.config.checkResponses),
    },
    async (request, reply) => {
      const actor = requireRole(request, SCAN_LIST_ROLES);
      const ids = [...new Set(request.body.ids_list)];
      if (request.query.format !== 'csv')
        return listScans(app.ctx, actor, request.query, listRequest(request), ids);
      const stream = await streamScansCsv(app.ctx, actor, request.query, csvRequest(request), ids);
      return sendCsv(reply, csvDownloadName(SCAN_CSV_FILENAME, request, app.ctx.now()), stream);
    },
  );

  app.get(
    '/scan/lat-long/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags,
        security,
        summary:
          'Map points of every scan the list filters select: application/octet-stream of 12-byte little-endian records (int32 id, float32 latitude, float32 longitude)',
        querystring: ZScanPointsQuery,
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, SCAN_LIST_ROLES);
      const stream = await streamScanPoints(app.ctx, actor, request.query, request.headers.timezone);
      return reply
        .header('content-type', SCAN_POINTS_CONTENT_TYPE)
        .header('cache-control', 'no-store')
        .send(stream as never);
    },
  );

  app.get(
    '/scan/lat-long/cells/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags,
        security,
        summary:
          "Console: the map's first picture, the points of scan/lat-long/ for the same query counted into 0.5° cells: application/octet-stream of 20-byte little-endian records (int32 cell key, int32 scans, float32 mean latitude, float32 mean longitude, int32 one scan's id), in key order",
        querystring: ZScanPointsQuery,
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, SCAN_LIST_ROLES);
      const cells = await scanPointCells(app.ctx, actor, request.query, request.headers.timezone);
      return reply.header('content-type', SCAN_POINTS_CONTENT_TYPE).header('cache-control', 'no-store').send(cells);
    },
  );

  app.post(
    '/scan/lat-long/cells/ids/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      // A read sent as POST (a cluster's cells do not fit in a URL): allowed while impersonating, changes nothing.
      config: { impersonationAllowed: true },
      schema: {
        tags,
        security,
        summary:
          "Console: the ids of the scans in these cells of the map's first picture (scan/lat-long/cells/ keys), up to 100,000, for the same query",
        querystring: ZScanPointsQuery,
        body: ZScanCellIdsBody,
        response: { 200: ZScanCellIds },
      },
    },
    async (request) => {
      const actor = requireRole(request, SCAN_LIST_ROLES);
      const ids = await scanIdsInCells(app.ctx, actor, request.query, request.headers.timezone, request.body.cells);
      return { ids };
    },
  );

  app.get(
    '/scan/sensor-serial-numbers/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags,
        security,
        summary:
          "Sensor serial numbers of the scans in the caller's scope (filter picker), starting with search",
        querystring: ZScanLookupQuery,
        response: { 200: ZScanSensorList },
      },
    },
    async (request) => ({
      sensor_serial_numbers: await listScanSerials(
        app.ctx,
        requireRole(request, SCAN_LIST_ROLES),
        'sensor',
        request.query,
      ),
    }),
  );

  app.get(
    '/scan/devices/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags,
        security,
        summary:
          "Device serial numbers of the scans in the caller's scope (filter picker), starting with search",
        querystring: ZScanLookupQuery,
        response: { 200: ZScanDeviceList },
      },
    },
    async (request) => ({
      devices: await listScanSerials(app.ctx, requireRole(request, SCAN_LIST_ROLES), 'device', request.query),
    }),
  );

  app.get(
    '/scan/report-log/',
    {
      preValidation: guard(REPORT_LOG_ROLES),
      schema: {
        tags,
        security,
        summary: 'The report log: CSV and report downloads with their filters (ADMIN)',
        querystring: ZReportLogQuery,
        response: { 200: ZReportLogList },
      },
    },
    async (request) =>
      listReportLog(app.ctx, requireRole(request, REPORT_LOG_ROLES), request.query, listRequest(request)),
  );

  app.get(
    '/scan/technician-summary/',
    {
      preValidation: guard(RECERTIFICATION_ROLES),
      schema: {
        tags,
        security,
        summary:
          "One technician's SCAN-type scans, positives, positivity and latest scan in the period (the re-certification modal; technician in scope, else 404)",
        querystring: ZTechnicianSummaryQuery,
        response: { 200: ZTechnicianSummary },
      },
    },
    async (request) =>
      getTechnicianSummary(
        app.ctx,
        requireRole(request, RECERTIFICATION_ROLES),
        request.query,
        request.headers.timezone,
      ),
  );

  app.get(
    '/scan/:id/',
    {
      preValidation: guard(SCAN_LIST_ROLES),
      schema: {
        tags,
        security,
        summary:
          "One scan with the view dialog's facts (404 outside the caller's scope); format=csv: its CSV line",
        params: ZIdParams,
        querystring: ZScanDetailQuery,
        response: { 200: ZScanDetail },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, SCAN_LIST_ROLES);
      const id = parseId(request.params.id);
      if (request.query.format !== 'csv') {
        const scan = await getScan(app.ctx, actor, id, request.query.using_read_db);
        await auditRead(app.ctx, request, { kind: 'scan', id, organizationId: scan.organization });
        return scan;
      }
      const stream = await streamOneScanCsv(app.ctx, actor, id, csvRequest(request));
      return sendCsv(reply, csvDownloadName(SCAN_CSV_FILENAME, request, app.ctx.now()), stream);
    },
  );

  app.delete(
    '/scan/:id/',
    {
      preValidation: guard(DUPLICATE_ROLES),
      schema: {
        tags,
        security,
        summary: 'Delete a duplicate scan (one with a parent scan; ADMIN, SUB_ADMIN)',
        params: ZIdParams,
        response: { 200: ZScanDeleted },
      },
    },
    async (request) =>
      deleteDuplicateScan(
        app.ctx,
        requireRole(request, DUPLICATE_ROLES),
        parseId(request.params.id),
        metaOf(request),
      ),
  );

  app.post(
    '/scan/:id/transfer/',
    {
      preValidation: guard(SCAN_TRANSFER_ROLES),
      schema: {
        tags,
        security,
        summary:
          'Move a scan (an original with its duplicates) to an organization in scope and a technician of it (TECHNICIAN, ORG_ADMIN or DISTRIBUTOR_ADMIN)',
        params: ZIdParams,
        body: ZScanTransferInput,
        response: { 200: ZScanRowSaved },
      },
    },
    async (request) =>
      transferScan(
        app.ctx,
        requireRole(request, SCAN_TRANSFER_ROLES),
        parseId(request.params.id),
        request.body,
        metaOf(request),
      ),
  );
};
