// Counts device uploads by outcome for /metrics (services/metrics.ts). Every device upload (patient, scan, cervical,
// ORCA) is a POST carrying an Idempotency-Key, and no other call takes one (the console's own creates never send it),
// so one hook classifies them all from their answer, refusals before the handler (401, 400 on the body) included.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '@sc/shared/uploads';
import type { UploadOutcomeLabel } from '../../services/metrics.ts';

const KEY_HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();

/** What an upload's answer says happened, or null when the request was not a device upload. */
export function uploadOutcomeOf(request: FastifyRequest, reply: FastifyReply): UploadOutcomeLabel | null {
  if (request.method !== 'POST' || request.headers[KEY_HEADER] === undefined) return null;
  const status = reply.statusCode;
  if (status >= 500) return 'failed';
  if (status >= 400) return 'refused';
  if (reply.getHeader(IDEMPOTENT_REPLAY_HEADER) === 'true') return 'replayed';
  // 200 without a replay: the same (device, local_db_id) with identical content, answered with the stored object.
  return status === 201 ? 'created' : 'existing';
}

export function registerUploadMetrics(app: FastifyInstance): void {
  const { deviceUploads } = app.ctx.services.metrics;
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    const outcome = uploadOutcomeOf(request, reply);
    // A POST to no route is no upload of ours, whatever it carries.
    if (outcome && route) deviceUploads.inc({ route, outcome });
  });
}
