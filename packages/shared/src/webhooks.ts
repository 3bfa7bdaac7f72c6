// Organization webhooks (part 1 §2.5, §7, §8; DESIGN §7): "send previous scans" and the delivery log.
import { z } from 'zod';
import { ZListQuery } from './list.ts';
import { MESSAGES } from './validation.ts';

export const WEBHOOK_MESSAGES = {
  /** Part 1 §8, verbatim. */
  previousScansQueued: 'Organization Previous Scans Webhook Successfully',
  notReady: 'Switch the webhook on and save a URL first.',
  privateUrl: 'This URL points to a private or local address.',
} as const;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

const ZId = z.coerce
  .number({ error: 'A valid integer is required.' })
  .int('A valid integer is required.')
  .positive('A valid integer is required.')
  .max(2_147_483_647, 'A valid integer is required.');

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
  scan: z.number(),
  url: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  created: z.string(),
  delivered_at: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
