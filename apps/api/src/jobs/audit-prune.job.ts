// The audit retention's prune (issue 27): daily; with a retention set, deletes the rows older than it (in batches,
// each in a transaction that sets sc.audit_prune) and writes one audit.pruned row per run that deleted something.
// With no retention (the default) it does nothing. Idempotent: the next run deletes what this one left.
import { z } from 'zod';
import { pruneAudit } from '../modules/audit/audit.service.ts';
import { defineJob, type JobContext } from '../services/queue/job.ts';

export const AUDIT_PRUNE_CRON = '41 3 * * *';

export const auditPruneJob = defineJob({
  name: 'audit-prune',
  payload: z.object({}),
  // Not retried: the next daily run does the same work.
  options: { retryLimit: 0, expireInSeconds: 60 * 60 },
  schedule: { cron: AUDIT_PRUNE_CRON, payload: {} },
  handle: async (ctx: JobContext) => {
    const rows = await pruneAudit(ctx);
    if (rows > 0) ctx.services.log.info({ rows }, 'audit rows pruned');
  },
});
