// Dashboard statistics (part 2 §7 Dashboard; part 1 §7 lookups): scan/dashboard/ (tiles), scan/dashboard/chart/,
// scan/device-positive/ (By Device), organization/technician-positive/ (By Technician) and organization/leaderboard/
// (JSON, or leaderboard.csv with format=csv). Each authenticates and checks the role before the query is validated.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DASHBOARD_ACTIONS,
  LEADERBOARD_CSV_FILENAME,
  ZDashboardChart,
  ZDashboardStats,
  ZDashboardStatsQuery,
  ZDeviceStats,
  ZLeaderboardQuery,
  ZLeaderboardRow,
  ZStatsListQuery,
  ZTechnicianStats,
} from '@sc/shared/dashboard';
import { paginated } from '@sc/shared/list';
import { requireRole } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  csvDownloadName,
  csvRequest,
  guard,
  listRequest,
  sendCsv,
} from '../../http/route-helpers.ts';
import {
  getDashboardChart,
  getDashboardStats,
  listDeviceStats,
  listLeaderboard,
  listTechnicianStats,
  statsPeriod,
  streamLeaderboardCsv,
} from './dashboard.service.ts';

const tags = ['dashboard'];
const READ = DASHBOARD_ACTIONS['dashboard.read'];
const LEADERBOARD = DASHBOARD_ACTIONS['dashboard.leaderboard'];


export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/scan/dashboard/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary:
          "Dashboard tiles: SCAN-type scans, positives and positivity in the caller's scope and period",
        querystring: ZDashboardStatsQuery,
        response: { 200: ZDashboardStats },
      },
    },
    async (request) =>
      getDashboardStats(app.ctx, requireRole(request, READ), request.query, listRequest(request)),
  );

  app.get(
    '/scan/dashboard/chart/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: 'Scans and positives per day (up to 62 days) or per month over the period',
        querystring: ZDashboardStatsQuery,
        response: { 200: ZDashboardChart },
      },
    },
    async (request) =>
      getDashboardChart(app.ctx, requireRole(request, READ), request.query, listRequest(request)),
  );

  app.get(
    '/scan/device-positive/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: 'By Device: scans and positivity per device serial number (default -positivity_percentage)',
        querystring: ZStatsListQuery,
        response: { 200: paginated(ZDeviceStats) },
      },
    },
    async (request) =>
      listDeviceStats(app.ctx, requireRole(request, READ), request.query, listRequest(request)),
  );

  app.get(
    '/organization/technician-positive/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: 'By Technician: scans and positivity per technician and organization (default -scans_count)',
        querystring: ZStatsListQuery,
        response: { 200: paginated(ZTechnicianStats) },
      },
    },
    async (request) =>
      listTechnicianStats(app.ctx, requireRole(request, READ), request.query, listRequest(request)),
  );

  app.get(
    '/organization/leaderboard/',
    {
      preValidation: guard(LEADERBOARD),
      schema: {
        tags,
        security,
        summary:
          'Leaderboard of organizations (ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN); format=csv streams leaderboard.csv',
        querystring: ZLeaderboardQuery,
        response: { 200: paginated(ZLeaderboardRow) },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, LEADERBOARD);
      if (request.query.format !== 'csv')
        return listLeaderboard(app.ctx, actor, request.query, listRequest(request));
      const stream = await streamLeaderboardCsv(app.ctx, actor, request.query, csvRequest(request));
      const period = statsPeriod(request.query, request.headers.timezone, app.ctx.now());
      return sendCsv(reply, csvDownloadName(LEADERBOARD_CSV_FILENAME, request, app.ctx.now(), period), stream);
    },
  );
};
