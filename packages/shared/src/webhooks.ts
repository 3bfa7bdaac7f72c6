// Organization webhooks (part 1 §2.5, §7, §8; architecture §7; issue 27): "send previous scans", signed deliveries,
// the delivery log and its Replay.
import { z } from 'zod';
import { WEBHOOK_EVENTS } from './follow-up.ts';
import { ZIsoDate, ZListQuery, idParam } from './list.ts';
import type { TUserType } from './roles.ts';
import { MESSAGES } from './validation.ts';

/**
 * Who manages an organization's webhook (its URL, token, secret, delivery log and Replay): the roles that edit
 * organizations, each within its scope (ADMIN and SUB_ADMIN anywhere, DISTRIBUTOR_ADMIN and MANAGER their scope,
 * ORG_ADMIN its own organization). Others get 403; an organization outside the scope answers 404.
 */
export const WEBHOOK_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'];
export const canManageWebhook = (role: TUserType): boolean => WEBHOOK_ROLES.includes(role);

// ---- Signatures (issue 27) -------------------------------------------------------------------------------------------

/**
 * Every delivery carries the time of its attempt and an HMAC-SHA256 of `${timestamp}.${body}` keyed with the
 * organization's webhook secret (the exact bytes of the body as sent):
 *   X-SC-Timestamp: 1767225600            (Unix seconds)
 *   X-SC-Signature: v1=5257a869e7ec...   (lower-case hex)
 * A receiver recomputes the HMAC over the raw body, compares in constant time, and refuses a timestamp more than
 * WEBHOOK_SIGNATURE_TOLERANCE_SECONDS away from its clock (a replayed capture). Each retry and Replay is signed anew.
 */
export const WEBHOOK_TIMESTAMP_HEADER = 'X-SC-Timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'X-SC-Signature';
export const WEBHOOK_SIGNATURE_VERSION = 'v1';
/** How far a receiver should accept a timestamp from its own clock, either way. */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;
/** The string that is signed: the timestamp, a dot, the raw body. */
export const webhookSignedString = (timestamp: number | string, body: string): string => `${timestamp}.${body}`;
/** Secrets start with this, so one found in a log or a repository is recognised. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** GET organization/{id}/webhook/secret/: whether the organization has a secret and since when; never the secret. */
export const ZWebhookSecretStatus = z.object({
  organization: z.number(),
  configured: z.boolean(),
  created: z.string().nullable(),
});
export type TWebhookSecretStatus = z.infer<typeof ZWebhookSecretStatus>;

/** POST organization/{id}/webhook/secret/: a new secret (made, or rotated), answered this once only. */
export const ZWebhookSecretCreated = z.object({
  detail: z.string(),
  organization: z.number(),
  secret: z.string(),
  created: z.string(),
  /** True when it replaced an earlier secret (which stops working at once). */
  rotated: z.boolean(),
});
export type TWebhookSecretCreated = z.infer<typeof ZWebhookSecretCreated>;

export const WEBHOOK_MESSAGES = {
  /** Part 1 §8, verbatim. */
  previousScansQueued: 'Organization Previous Scans Webhook Successfully',
  notReady: 'Switch the webhook on and save a URL first.',
  privateUrl: 'This URL points to a private or local address.',
  port: 'Webhook URLs may use only the standard ports (80 for http, 443 for https).',
  secretCreated: 'Webhook secret created. Copy it now: it will not be shown again.',
  secretRotated: 'Webhook secret rotated. Copy it now: it will not be shown again. The old secret no longer works.',
  replayQueued: 'Delivery queued to be sent again.',
  periodReplayQueued: 'Deliveries queued to be sent again.',
  replayPending: 'This delivery is still being sent; replay it once it is delivered or failed.',
  replayTooMany: (count: number) =>
    `This period holds ${count.toLocaleString('en-US')} deliveries; a replay sends at most ${WEBHOOK_REPLAY_MAX.toLocaleString('en-US')}. Choose a shorter period or a status.`,
} as const;

/** The most deliveries one period Replay sends again. */
export const WEBHOOK_REPLAY_MAX = 1000;

/** Ports a webhook URL may use without configuration (WEBHOOK_ALLOWED_PORTS adds others). */
export const WEBHOOK_DEFAULT_PORTS: readonly number[] = [80, 443];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
/** What a Replay sends again: finished deliveries (a pending one is still being sent). */
export const WEBHOOK_REPLAY_STATUSES = ['delivered', 'failed'] as const;
export { WEBHOOK_EVENTS };

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

const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `Select a valid choice: ${values.join(', ')}.` });

/**
 * GET organization/webhook-deliveries/: newest first. `created_after`/`created_before` are whole days (YYYY-MM-DD,
 * inclusive) read in the caller's Timezone header, as every list's period.
 */
export const ZWebhookDeliveryListQuery = ZListQuery.pick({
  page: true,
  limit: true,
  using_read_db: true,
}).extend({
  organization: ZId.optional(),
  scan: ZId.optional(),
  status: choice(WEBHOOK_DELIVERY_STATUSES).optional(),
  event: choice(WEBHOOK_EVENTS).optional(),
  created_after: ZIsoDate.optional(),
  created_before: ZIsoDate.optional(),
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
  /** When the last attempt was made, and how long it took (to the answer, or the error). */
  last_attempt_at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  /** The delivery this one sent again (a Replay); null for an original. */
  replay_of: z.number().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** POST organization/webhook-deliveries/{id}/replay/: the new pending delivery. */
export const ZWebhookReplayed = z.object({ detail: z.string(), delivery: ZWebhookDelivery });
export type TWebhookReplayed = z.infer<typeof ZWebhookReplayed>;

/**
 * POST organization/webhook-deliveries/replay/: every finished delivery of the organization created in the period
 * (whole days, inclusive, in the caller's Timezone), optionally of one status, sent again as new deliveries.
 */
export const ZWebhookPeriodReplayInput = z.object({
  organization: ZId.optional(),
  created_after: ZIsoDate.optional(),
  created_before: ZIsoDate.optional(),
  status: choice(WEBHOOK_REPLAY_STATUSES).optional(),
}).transform((v, ctx) => {
  for (const field of ['organization', 'created_after', 'created_before'] as const) {
    if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: MESSAGES.required });
  }
  if (v.organization === undefined || v.created_after === undefined || v.created_before === undefined) return z.NEVER;
  return { organization: v.organization, created_after: v.created_after, created_before: v.created_before, status: v.status };
});
export type TWebhookPeriodReplayInput = z.output<typeof ZWebhookPeriodReplayInput>;

export const ZWebhookPeriodReplayed = z.object({ detail: z.string(), queued: z.number() });
export type TWebhookPeriodReplayed = z.infer<typeof ZWebhookPeriodReplayed>;
