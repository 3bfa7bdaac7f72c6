// follow-up/backfill/ (issue 26): an ADMIN re-runs the opening of cases for positives stored before follow-up
// existed or missed; the job (jobs/follow-up-backfill.job.ts) is safe to re-run, so the request only queues it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FOLLOW_UP_AUDIT, FOLLOW_UP_MESSAGES, ZFollowUpBackfillQueued, canRunFollowUpBackfill } from '@sc/shared/follow-up';
import type { AppContext } from '../../app.ts';
import { followUpBackfillJob } from '../../jobs/follow-up-backfill.job.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { requireActor, requestMeta } from '../../http/authenticate.ts';
import { AppError } from '../../http/errors.ts';
import { TOKEN_SECURITY as security, signedIn as preValidation } from '../../http/route-helpers.ts';
import { enqueue } from '../../services/queue/job.ts';

const tags = ['follow-up'];

/** Queues the backfill (ADMIN only, else 403) with an audit row; answers before it runs. */
export async function queueFollowUpBackfill(
  ctx: Pick<AppContext, 'services'>,
  actor: Actor,
  meta: Pick<RequestMeta, 'ip' | 'userAgent'>,
): Promise<{ detail: string }> {
  if (!canRunFollowUpBackfill(actor.userType)) throw new AppError('forbidden', FOLLOW_UP_MESSAGES.backfillRole);
  const jobId = await enqueue(ctx.services.queue, followUpBackfillJob, { requested_by: actor.id });
  await ctx.services.audit.record({
    action: FOLLOW_UP_AUDIT.backfill,
    actorId: actor.id,
    impersonatorId: actor.impersonatorId,
    // The programme's follow-up: the backfill opens cases in every organization.
    targetType: 'settings',
    targetId: 'follow_up_backfill',
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { job: jobId },
  });
  return { detail: FOLLOW_UP_MESSAGES.backfillQueued };
}

export const followUpBackfillRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/follow-up/backfill/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Re-run the opening of follow-up cases for existing screen-positives (ADMIN; answers before it runs)',
        response: { 202: ZFollowUpBackfillQueued },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      return reply.status(202).send(await queueFollowUpBackfill(app.ctx, actor, requestMeta(request)));
    },
  );
};
