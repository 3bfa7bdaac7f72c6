// GET /metrics: the app's Prometheus registry (services/metrics.ts) as text, for a scraper holding METRICS_TOKEN.
// Protected by a token rather than a second port: one listener to run, proxy and firewall, and a scrape through the
// same path as the traffic it measures. Unset, the route answers 404 as if it did not exist. Also the hook that counts
// every answered request by route pattern (never the raw URL: the label set stays bounded).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNMATCHED_ROUTE } from '../services/metrics.ts';
import { AUTH_ERRORS } from './authenticate.ts';
import { OPERATOR_ROUTE } from './health.ts';
import { SPA_FALLBACK_ROUTE } from './spa.ts';

export const METRICS_PATH = '/metrics';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Counts and times every answered request; register before the routes so that it sees them all. */
export function registerRequestMetrics(app: FastifyInstance): void {
  const { httpRequests, httpDuration } = app.ctx.services.metrics;
  app.addHook('onResponse', async (request, reply) => {
    // The console's catch-all answers 404 for what is no page (/wp-login.php, an unknown /api/ path): the same as no
    // route, with or without a built console.
    const unmatched =
      request.routeOptions.url === undefined ||
      (request.routeOptions.url === SPA_FALLBACK_ROUTE && reply.statusCode === 404);
    const labels = {
      method: request.method,
      route: unmatched ? UNMATCHED_ROUTE : request.routeOptions.url!,
      status_code: String(reply.statusCode),
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}

export function registerMetricsRoute(app: FastifyInstance): void {
  const { config, services } = app.ctx;
  const expected = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : null;
  app.get(METRICS_PATH, OPERATOR_ROUTE, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    if (!expected) return reply.status(404).send({ detail: 'Not found.' });
    const token = bearerToken(request);
    if (token === null || !timingSafeEqual(digest(token), expected)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ detail: token === null ? AUTH_ERRORS.notProvided : AUTH_ERRORS.invalidToken });
    }
    const text = await services.metrics.registry.metrics();
    return reply.type(services.metrics.registry.contentType).send(text);
  });
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return (header && BEARER.exec(header)?.[1]) ?? null;
}

/** Equal-length digests, so the comparison takes the same time whatever the token sent. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
