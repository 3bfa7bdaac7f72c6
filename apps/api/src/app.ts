// Builds the Fastify app: used by server.ts and by the tests (through app.inject).
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { answerFrameworkError, registerErrorHandler } from './http/errors.ts';
import { validatorCompiler } from './http/validator.ts';
import { registerAuthentication } from './http/authenticate.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { userRoutes } from './modules/users/users.routes.ts';
import { impersonationRoutes } from './modules/users/impersonation.routes.ts';
import { organizationUserRoutes } from './modules/users/organization-users.routes.ts';
import { lookupRoutes } from './modules/lookups/lookups.routes.ts';
import { organizationRoutes } from './modules/organizations/organizations.routes.ts';
import { organizationReferenceRoutes } from './modules/organizations/organization-references.routes.ts';
import { organizationWebhookRoutes } from './modules/organizations/organization-webhooks.routes.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { devRoutes } from './modules/dev/dev.routes.ts';
import { geocodeRoutes } from './modules/lookups/geocode.routes.ts';
import { languageRoutes } from './modules/languages/languages.routes.ts';
import { createServices, type Services } from './services/index.ts';

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
  logger?: boolean;
  now?: () => Date;
  services?: Partial<Services>;
};

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            // Never log a credential: tokens travel in headers, codes and passwords in bodies (not logged).
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-impersonation-token"]'],
          },
    trustProxy: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 2 * 1024 * 1024,
    // Errors the router raises before any route or hook (undecodable path, over-long path id) get our body too.
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  const now = opts.now ?? (() => new Date());
  const services = { ...createServices(config, database, now), ...opts.services };
  app.decorate('ctx', { config, database, services, now });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  acceptEmptyJsonBodies(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'connect-src': ["'self'", 'https:'],
        'upgrade-insecure-requests': null,
      },
    },
  });
  await app.register(rateLimit, { global: false });
  await app.register(multipart, { limits: { fileSize: 25 * 1024 * 1024, files: 1 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Screening Console API', version: '1.0.0' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  registerAuthentication(app);

  await app.register(
    async (api) => {
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(impersonationRoutes);
      await api.register(organizationUserRoutes);
      await api.register(lookupRoutes);
      await api.register(organizationRoutes);
      await api.register(organizationReferenceRoutes);
      await api.register(organizationWebhookRoutes);
      await api.register(fileRoutes);
      await api.register(geocodeRoutes);
      await api.register(languageRoutes);
      if (config.outboxReadable) await api.register(devRoutes);
    },
    { prefix: '/api/v1' },
  );

  registerSpa(app, config);
  app.addHook('onClose', async () => {
    await services.close();
  });
  // Job workers poll in the server only; tests run queued jobs with services.queue.drain().
  if (config.NODE_ENV !== 'test') app.addHook('onReady', async () => services.queue.start());
  return app;
}

/** Serves the built console; GET/HEAD of extension-less paths outside /api/ and /assets/ get index.html. */
function registerSpa(app: FastifyInstance, config: Config): void {
  const dist = config.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist');
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) return;
  void app.register(fastifyStatic, { root: dist, prefix: '/', wildcard: false, index: false });
  // Read once: the build does not change under a running server.
  const page = fs.readFileSync(index, 'utf8');
  const html = () => page;
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || url.startsWith('/assets/') || path.extname(url) !== '') {
      return reply.status(404).send({ detail: 'Not found.' });
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(html());
  });
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html').header('cache-control', 'no-cache').send(html()),
  );
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
