// Builds the Fastify app: used by server.ts and by the tests (through app.inject).
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { JSON_BODY_MAX_BYTES } from '@sc/shared/constants';
import { can } from '@sc/shared/permissions';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { AppError, HTTP_MESSAGES, answerClientError, answerFrameworkError, registerErrorHandler } from './http/errors.ts';
import { validatorCompiler } from './http/validator.ts';
import { swaggerOptions } from './http/openapi.ts';
import { registerResponseHeaders } from './http/response-headers.ts';
import { registerCompression } from './http/compression.ts';
import { databaseRateLimitStore } from './http/rate-limit-store.ts';
import { registerDraining } from './http/draining.ts';
import { registerReplicaRouting } from './http/replica-routing.ts';
import { registerSpa } from './http/spa.ts';
import { registerHealthRoutes } from './http/health.ts';
import { registerMetricsRoute, registerRequestMetrics } from './http/metrics.ts';
import { registerUploadMetrics } from './modules/uploads/upload-metrics.ts';
import { AUTH_ERRORS, registerAuthentication, requireActor } from './http/authenticate.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { userRoutes } from './modules/users/users.routes.ts';
import { impersonationRoutes } from './modules/users/impersonation.routes.ts';
import { organizationUserRoutes } from './modules/users/organization-users.routes.ts';
import { trainingReportRoutes } from './modules/users/training-reports.routes.ts';
import { lookupRoutes } from './modules/lookups/lookups.routes.ts';
import { organizationRoutes } from './modules/organizations/organizations.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { followUpFiguresRoutes } from './modules/follow-up/follow-up-figures.routes.ts';
import { reportRoutes } from './modules/reports/reports.routes.ts';
import { organizationReferenceRoutes } from './modules/organizations/organization-references.routes.ts';
import { organizationWebhookRoutes } from './modules/organizations/organization-webhooks.routes.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { devRoutes } from './modules/dev/dev.routes.ts';
import { geocodeRoutes } from './modules/lookups/geocode.routes.ts';
import { languageRoutes } from './modules/languages/languages.routes.ts';
import { appVersionRoutes } from './modules/app-versions/app-versions.routes.ts';
import { deviceRoutes } from './modules/devices/devices.routes.ts';
import { patientRoutes } from './modules/patients/patients.routes.ts';
import { orcaRoutes } from './modules/orca/orca.routes.ts';
import { scanRoutes } from './modules/scans/scans.routes.ts';
import { cervicalRoutes } from './modules/cervical/cervical.routes.ts';
import { replayRoutes } from './modules/scan-files/replay.routes.ts';
import { deviceSessionRoutes } from './modules/uploads/device-upload.routes.ts';
import { licenceRoutes } from './modules/licences/licences.routes.ts';
import { examUploadRoutes } from './modules/exam-uploads/exam-uploads.routes.ts';
import { bookingRoutes } from './modules/bookings/bookings.routes.ts';
import { followUpRoutes } from './modules/follow-up/follow-up.routes.ts';
import { trashRoutes } from './modules/trash/trash.routes.ts';
import { followUpSettingsRoutes } from './modules/follow-up/follow-up-settings.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { followUpBackfillRoutes } from './modules/follow-up/follow-up-backfill.routes.ts';
import { queueStartupFollowUpBackfill } from './jobs/follow-up-backfill.job.ts';
import { tutorialRoutes } from './modules/tutorials/tutorials.routes.ts';
import { firmwareRoutes } from './modules/firmware/firmware.routes.ts';
import { registerSpecAliases } from './modules/spec-paths/spec-aliases.ts';
import { specRoutes } from './modules/spec-paths/spec-routes.ts';
import { createServices, type Services } from './services/index.ts';
import { loggablePath, pinoPolicy } from './services/logger.ts';

export type AppContext = {
  config: Config;
  database: Database;
  services: Services;
  /** The clock, replaceable in tests (code expiry, rate windows). */
  now: () => Date;
};

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export type BuildOptions = {
  config: Config;
  database: Database;
  /** false: no logging (tests); `{stream}`: log lines go there (tests that read the log); default stdout. */
  logger?: boolean | { stream: NodeJS.WritableStream };
  now?: () => Date;
  services?: Partial<Services>;
};

/** Longer URLs answer 414 (Node refuses a request line and headers past 16 KB with 431 before this). */
export const URL_MAX_LENGTH = 8192;

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            // No secret in any log line: redaction, error summaries without query parameters (services/logger.ts).
            ...pinoPolicy(),
            ...(typeof opts.logger === 'object' ? { stream: opts.logger.stream } : {}),
          },
    // One line per request at debug (slow ones at info) instead of Fastify's two at info.
    logController: new OneLineRequestLog(),
    // X-Forwarded-For is believed only from configured proxies (TRUST_PROXY): request.ip is the address the rate
    // limits count and the audit log records, and a client must not be able to choose it.
    trustProxy: trustProxyOption(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: JSON_BODY_MAX_BYTES,
    // Errors the router raises before any route or hook (undecodable path, over-long path id) get our body too.
    frameworkErrors: answerFrameworkError,
    // And so do requests Node's HTTP parser refuses (URL or headers too large: 431).
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  const now = opts.now ?? (() => new Date());
  // Services log through the app's logger (same redaction, same destination) when there is one.
  const services = { ...createServices(config, database, now, opts.logger === false ? undefined : app.log), ...opts.services };
  app.decorate('ctx', { config, database, services, now });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  acceptEmptyJsonBodies(app);
  refuseUnreadableRequests(app);

  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: true, directives: cspDirectives(config) },
    strictTransportSecurity: false,
  });
  registerResponseHeaders(app);
  // Before any route: the counters see every answer.
  registerRequestMetrics(app);
  registerUploadMetrics(app);
  // On close (SIGTERM): answers still in flight end their keep-alive connection (http/draining.ts).
  registerDraining(app);
  registerReplicaRouting(app);
  // Before any route (the API's, the docs', the built console's): the plugin hooks every route added after it.
  await registerCompression(app);
  // Counted in the database, so a limit holds across every instance behind the proxy (http/rate-limit-store.ts).
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(database) });
  // Before the plugins below, so their routes (the API docs) see request.actor too.
  registerAuthentication(app);
  await app.register(multipart, { limits: { fileSize: 25 * 1024 * 1024, files: 1 } });
  // The document's security scheme, error answers, shared schemas, tags and forms: http/openapi.ts.
  await app.register(swagger, swaggerOptions());
  if (config.apiDocs !== 'off') {
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      // API_DOCS=admin (the production default): the page and the spec only for ADMIN sessions.
      uiHooks: config.apiDocs === 'admin' ? { onRequest: requireApiDocsReader } : {},
    });
  }

  await app.register(
    async (api) => {
      // First: the spec's alias paths are added as the modules below register their product routes.
      registerSpecAliases(api);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(impersonationRoutes);
      await api.register(organizationUserRoutes);
      await api.register(trainingReportRoutes);
      await api.register(lookupRoutes);
      await api.register(dashboardRoutes);
      await api.register(followUpFiguresRoutes);
      await api.register(reportRoutes);
      await api.register(organizationRoutes);
      await api.register(organizationReferenceRoutes);
      await api.register(organizationWebhookRoutes);
      await api.register(fileRoutes);
      await api.register(geocodeRoutes);
      await api.register(languageRoutes);
      await api.register(appVersionRoutes);
      await api.register(deviceRoutes);
      await api.register(deviceSessionRoutes);
      await api.register(patientRoutes);
      await api.register(orcaRoutes);
      await api.register(scanRoutes);
      await api.register(cervicalRoutes);
      await api.register(replayRoutes);
      await api.register(licenceRoutes);
      await api.register(examUploadRoutes);
      await api.register(followUpRoutes);
      await api.register(followUpSettingsRoutes);
      await api.register(bookingRoutes);
      await api.register(tutorialRoutes);
      await api.register(firmwareRoutes);
      await api.register(followUpBackfillRoutes);
      await api.register(auditRoutes);
      await api.register(trashRoutes);
      await api.register(specRoutes);
      if (config.outboxReadable) await api.register(devRoutes);
    },
    { prefix: '/api/v1' },
  );

  // Outside /api/v1 and the API document: for probes and scrapers (http/health.ts, http/metrics.ts).
  registerHealthRoutes(app);
  registerMetricsRoute(app);
  registerSpa(app, config);
  app.addHook('onClose', async () => {
    await services.close();
  });
  // Job workers poll in the server only; tests run queued jobs with services.queue.drain(). Each start queues the
  // follow-up backfill (once across instances starting together), which opens the cases of positives stored before.
  if (config.NODE_ENV !== 'test') {
    app.addHook('onReady', async () => {
      await services.queue.start();
      await queueStartupFollowUpBackfill(services);
    });
  }
  return app;
}

/** Fastify takes a hop count at run time but types only a function for it: the same rule, as a function. */
function trustProxyOption(value: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}

/** API_DOCS=admin: the caller must be signed in (401) as a role that may read the docs (403). */
async function requireApiDocsReader(request: FastifyRequest): Promise<void> {
  const actor = requireActor(request);
  if (!can(actor.userType, 'apiDocs.read')) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

/**
 * Content-Security-Policy: the console talks to its own server only, and loads images from itself, data/blob URLs
 * (cropped logos, fetched files), the map tile host (TILE_URL) and the object storage host (S3_ENDPOINT) when set;
 * frames show its own pages and fetched files (blob: URLs of the scan view's PDFs).
 */
export function cspDirectives(config: Config): Record<string, string[] | null> {
  const { tiles, storage } = config.contentOrigins;
  const extra = (...origins: Array<string | null>) => origins.filter((o): o is string => o !== null);
  return {
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...extra(tiles, storage)],
    'connect-src': ["'self'", ...extra(storage)],
    // Scan reports, consent forms and assessment files are fetched with the token and shown from blob: URLs in frames.
    'frame-src': ["'self'", 'blob:'],
    'upgrade-insecure-requests': null,
  };
}

/**
 * Requests the server would misread are refused before any body is parsed: a compressed body (Content-Encoding
 * gzip/deflate/br…) would be read as raw bytes, and URLs past URL_MAX_LENGTH name no resource of ours.
 */
function refuseUnreadableRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.url.length > URL_MAX_LENGTH) {
      throw new AppError('uri_too_long', HTTP_MESSAGES.urlTooLong(URL_MAX_LENGTH));
    }
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (encoding && encoding !== 'identity' && hasBody) {
      throw new AppError('unsupported_media_type', HTTP_MESSAGES.contentEncoding(encoding));
    }
  });
}

/** An answer slower than this is logged at info, in production too. */
const SLOW_REQUEST_MS = 1000;

/**
 * One compact line per answered request ('GET /api/v1/patient/ 200 4 ms'), its URL loggable (no query string, tokens
 * masked: services/logger.ts). At debug level, slow answers at info: production at info keeps what an operator acts
 * on (slow requests here, failures from the error handler); a line per request at info was 236,000 lines (81 MB) in a
 * 20-minute load test. LOG_LEVEL=debug shows them all.
 */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const url = loggablePath(request.url);
    const ms = Math.round(reply.elapsedTime);
    reply.log[ms >= SLOW_REQUEST_MS ? 'info' : 'debug'](
      { method: request.method, url, statusCode: reply.statusCode, ms, remoteAddress: request.ip },
      `${request.method} ${url} ${reply.statusCode} ${ms} ms`,
    );
  }
}

/**
 * Browsers and HTTP clients send `Content-Type: application/json` on body-less POST and DELETE calls
 * (sign-out, delete my account); Fastify's default parser refuses those with a 400. An empty body is
 * read as no body; anything else goes to Fastify's own parser, which also refuses `__proto__` and
 * `constructor.prototype` keys (prototype poisoning).
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    void parseJson(request, text, (error, parsed) => {
      if (!error) return done(null, parsed);
      const invalid = new Error('JSON parse error - the request body is not valid JSON.') as Error & { statusCode: number };
      invalid.statusCode = 400;
      done(invalid, undefined);
    });
  });
}
