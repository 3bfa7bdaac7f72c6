// While the server closes (SIGTERM, server.ts shutDown), every answer it still sends says `Connection: close`, so a
// proxy's keep-alive connection ends with the request in flight instead of lingering until keepAliveTimeout (72 s),
// which would hold the close back. (Requests that arrive once closing has begun get Fastify's own 503 with
// `Connection: close`; this covers those already running.) `isDraining` tells readiness the instance is going away.
import type { FastifyInstance } from 'fastify';

const draining = new WeakSet<FastifyInstance>();

export function registerDraining(app: FastifyInstance): void {
  app.addHook('preClose', async () => {
    draining.add(app);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (draining.has(app)) reply.header('connection', 'close');
    return payload;
  });
}

/** True once the app has begun to close: GET /readyz should answer 503 from then on. */
export function isDraining(app: FastifyInstance): boolean {
  return draining.has(app);
}
