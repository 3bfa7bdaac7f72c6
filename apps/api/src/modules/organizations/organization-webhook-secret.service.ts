// An organization's webhook secret (issue 27): made or rotated on request and answered that once; read back only as
// "configured, since when". The delivery job makes one for an organization that has none, so no delivery is sent
// unsigned. Every change writes an audit row in its transaction; the secret itself never reaches the row
// (auditChanges redacts keys that name a secret).
import { and, eq, isNull } from 'drizzle-orm';
import {
  WEBHOOK_MESSAGES,
  canManageWebhook,
  type TWebhookSecretCreated,
  type TWebhookSecretStatus,
} from '@sc/shared/webhooks';
import type { AppContext } from '../../app.ts';
import { organizations } from '../../db/schema/index.ts';
import type { Actor } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { assertInScope, resolveScope } from '../../http/scope.ts';
import { auditChanges } from '../../services/audit.service.ts';
import { newWebhookSecret } from '../../services/webhooks/signature.ts';
import type { Db } from '../../db/client.ts';

type SecretContext = Pick<AppContext, 'database' | 'services' | 'now'>;

export const WEBHOOK_SECRET_AUDIT = { created: 'webhook.secret_created', rotated: 'webhook.secret_rotated' } as const;

export function assertWebhookRole(actor: Actor): void {
  if (!canManageWebhook(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

/** The organization, when it exists and is in the actor's scope; 403 for a role that manages no webhook, else 404. */
export async function webhookOrganizationFor(db: Db, actor: Actor, organizationId: number) {
  assertWebhookRole(actor);
  await assertInScope(db, await resolveScope(db, actor), organizationId);
  const [org] = await db
    .select({
      id: organizations.id,
      webhookSecret: organizations.webhookSecret,
      webhookSecretCreated: organizations.webhookSecretCreated,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  if (!org) throw notFound();
  return org;
}

export async function webhookSecretStatus(
  ctx: SecretContext,
  actor: Actor,
  organizationId: number,
): Promise<TWebhookSecretStatus> {
  const org = await webhookOrganizationFor(ctx.database.db, actor, organizationId);
  return {
    organization: org.id,
    configured: org.webhookSecret !== null,
    created: org.webhookSecretCreated ? org.webhookSecretCreated.toISOString() : null,
  };
}

/** Makes the organization's first secret, or replaces the one it has (which stops working at once). */
export async function createWebhookSecret(
  ctx: SecretContext,
  actor: Actor,
  organizationId: number,
  meta: { ip?: string | null; userAgent?: string | null } = {},
): Promise<TWebhookSecretCreated> {
  const { db } = ctx.database;
  await webhookOrganizationFor(db, actor, organizationId);
  const secret = newWebhookSecret();
  const created = ctx.now();
  const rotated = await db.transaction(async (tx) => {
    // Locked, so two rotations at once each audit what they replaced.
    const [before] = await tx
      .select({ webhookSecret: organizations.webhookSecret, webhookSecretCreated: organizations.webhookSecretCreated })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for('update');
    if (!before) throw notFound();
    await tx
      .update(organizations)
      .set({ webhookSecret: secret, webhookSecretCreated: created })
      .where(eq(organizations.id, organizationId));
    const had = before.webhookSecret !== null;
    await ctx.services.audit.record(
      {
        action: had ? WEBHOOK_SECRET_AUDIT.rotated : WEBHOOK_SECRET_AUDIT.created,
        actorId: actor.id,
        impersonatorId: actor.impersonatorId,
        targetType: 'organization',
        targetId: organizationId,
        organizationId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        changes: auditChanges(
          { webhook_secret: before.webhookSecret, webhook_signing_since: before.webhookSecretCreated },
          { webhook_secret: secret, webhook_signing_since: created },
        ),
      },
      tx,
    );
    return had;
  });
  return {
    detail: rotated ? WEBHOOK_MESSAGES.secretRotated : WEBHOOK_MESSAGES.secretCreated,
    organization: organizationId,
    secret,
    created: created.toISOString(),
    rotated,
  };
}

/**
 * The organization's secret, made now when it has none (the first delivery of an organization that never generated
 * one): written only if still missing, so two deliveries at once agree on one secret. Audited as made by no one.
 */
export async function ensureWebhookSecret(ctx: SecretContext, organizationId: number): Promise<string> {
  const { db } = ctx.database;
  const secret = newWebhookSecret();
  const created = ctx.now();
  const made = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizations)
      .set({ webhookSecret: secret, webhookSecretCreated: created })
      .where(and(eq(organizations.id, organizationId), isNull(organizations.webhookSecret)))
      .returning();
    if (!row) return false;
    await ctx.services.audit.record(
      {
        action: WEBHOOK_SECRET_AUDIT.created,
        actorId: null,
        targetType: 'organization',
        targetId: organizationId,
        organizationId,
        details: { reason: 'first signed delivery' },
        changes: auditChanges(
          { webhook_secret: null, webhook_signing_since: null },
          { webhook_secret: secret, webhook_signing_since: created },
        ),
      },
      tx,
    );
    return true;
  });
  if (made) return secret;
  const [org] = await db
    .select({ webhookSecret: organizations.webhookSecret })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  // Made by another delivery a moment ago.
  if (org?.webhookSecret) return org.webhookSecret;
  throw new Error(`Organization ${organizationId} is gone.`);
}
