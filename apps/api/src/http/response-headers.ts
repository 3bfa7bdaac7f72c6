// Headers every answer gets in one place (issue 22.12). Patient data must not outlive a session: a shared computer's
// browser cache, or a proxy's, would show it after sign-out, so API answers are `no-store` unless their route says
// otherwise (public reference lists may be cached), and stored files are `private, no-store`. HSTS only means
// something on a connection that is HTTPS (request.protocol honours X-Forwarded-Proto behind TRUST_PROXY); sent over
// plain HTTP it is ignored by browsers and only misleads.
import type { FastifyInstance } from 'fastify';

/** For routes that stream a stored file (a scan's report, an exam's photo, firmware): the caller's, never kept. */
export const PRIVATE_FILE_CACHE_CONTROL = 'private, no-store';

/** Helmet's default, sent by us so that it goes only over HTTPS. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') void reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    return payload;
  });
}
