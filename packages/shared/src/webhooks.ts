// Organization webhooks (part 1 §2.5, §7, §8; architecture §7): "send previous scans" and the delivery log.
import { z } from 'zod';
import { ZListQuery, idParam } from './list.ts';
import { MESSAGES } from './validation.ts';

export const WEBHOOK_MESSAGES = {
  /** Part 1 §8, verbatim. */
  previousScansQueued: 'Organization Previous Scans Webhook Successfully',
  notReady: 'Switch the webhook on and save a URL first.',
  privateUrl: 'This URL points to a private or local address.',
  port: 'Webhook URLs may use only the standard ports (80 for http, 443 for https).',
} as const;

/** Ports a webhook URL may use without configuration (WEBHOOK_ALLOWED_PORTS adds others). */
export const WEBHOOK_DEFAULT_PORTS: readonly number[] = [80, 443];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** An id in a body or a query: a number, or its decimal digits ('12', never '0x10'). */
const ZId = idParam('id');

/** POST organization/previous-scans/: `{organization}` (also accepted: `organization_id`, `id`). */
export const ZPreviousScansInput = z
  .object({ organization: ZId.optional(), organization_id: ZId.optional(), id: ZId.optional() })
  .transform((v, ctx) => {
    const organization = v.organization ?? v.organization_id ?? v.id;
    if (organization === undefined) {
      ctx.addIssue({ code: 'custom', path: ['organization'], message: MESSAGES.required });
      return z.NEVER;
    }
    return { organization };
  });
export type TPreviousScansInput = z.output<typeof ZPreviousScansInput>;

export const ZPreviousScansQueued = z.object({ detail: z.string(), queued: z.number() });
export type TPreviousScansQueued = z.infer<typeof ZPreviousScansQueued>;

/** GET organization/webhook-deliveries/ */
export const ZWebhookDeliveryListQuery = ZListQuery.pick({
  page: true,
  limit: true,
  using_read_db: true,
}).extend({
  organization: ZId.optional(),
  scan: ZId.optional(),
  status: z
    .enum(WEBHOOK_DELIVERY_STATUSES, {
      error: `Select a valid choice: ${WEBHOOK_DELIVERY_STATUSES.join(', ')}.`,
    })
    .optional(),
});
export type TWebhookDeliveryListQuery = z.infer<typeof ZWebhookDeliveryListQuery>;

export const ZWebhookDelivery = z.object({
  id: z.number(),
  organization: z.number(),
  /** What was POSTed: 'scan.created', or a follow-up case's move (issue 26). */
  event: z.string(),
  /** The scan of a scan.created delivery; null for other events. */
  scan: z.number().nullable(),
  /** The follow-up case of a case event; null otherwise. */
  follow_up_case: z.number().nullable(),
  url: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  created: z.string(),
  delivered_at: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
