// An organization's follow-up settings (issue 26): the due interval of each active state, the overdue digest and the
// patient reminder SMS with its text per language. The defaults apply until the organization saves its own. Saving
// new intervals recomputes the due dates of the organization's active cases in the same transaction.
import { sql } from 'drizzle-orm';
import {
  FOLLOW_UP_AUDIT,
  FOLLOW_UP_MESSAGES,
  ZFollowUpSettingsInput,
  type TFollowUpSettings,
} from '@sc/shared/follow-up';
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import { followUpSettings, languages } from '../../db/schema/index.ts';
import { auditActor, auditChanges } from '../../services/audit.service.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, zodToFields } from '../../http/errors.ts';
import { assertInScope, resolveScope } from '../../http/scope.ts';
import { loadFollowUpSettings, loadOrganizationForFollowUp } from './follow-up-core.ts';
import { recomputeDue } from './follow-up.queries.ts';
import { assertCanFollowUp, type FollowUpContext } from './follow-up.service.ts';

type Meta = { ip: string; userAgent: string | null };

async function organizationInScope(ctx: FollowUpContext, actor: Actor, organizationId: number): Promise<void> {
  assertCanFollowUp(actor);
  const { db } = ctx.database;
  await assertInScope(db, await resolveScope(db, actor), organizationId);
}

/** GET organization/{id}/follow-up-settings/ */
export async function getFollowUpSettings(ctx: FollowUpContext, actor: Actor, organizationId: number): Promise<TFollowUpSettings> {
  await organizationInScope(ctx, actor, organizationId);
  return loadFollowUpSettings(ctx.database.db, organizationId);
}

/**
 * PUT (every field) and PATCH (any of them, checked merged with the current settings). A text's language must be one
 * of the Language menu's (iso code, lower case): 400 on `sms_texts.<code>` otherwise.
 */
export async function saveFollowUpSettings(
  ctx: FollowUpContext,
  actor: Actor,
  organizationId: number,
  input: Record<string, unknown>,
  meta: Meta,
): Promise<TFollowUpSettings> {
  await organizationInScope(ctx, actor, organizationId);
  const { db } = ctx.database;
  const current = await loadFollowUpSettings(db, organizationId);
  const { organization: _o, is_custom: _c, ...currentInput } = current;
  const parsed = ZFollowUpSettingsInput.safeParse({ ...currentInput, ...input });
  if (!parsed.success) throw badRequest(zodToFields(parsed.error.issues));
  const value = parsed.data;
  const texts = Object.fromEntries(Object.entries(value.sms_texts).filter(([, text]) => text !== ''));
  const codes = Object.keys(texts);
  if (codes.length > 0) {
    const known = await db
      .select({ iso: sql<string>`lower(${languages.isoCode})` })
      .from(languages)
      .where(sql`lower(${languages.isoCode}) in (${sql.join(codes.map((c) => sql`${c}`), sql`, `)})`);
    const knownCodes = new Set(known.map((k) => k.iso));
    const unknown = codes.filter((c) => !knownCodes.has(c));
    if (unknown.length > 0) {
      throw badRequest(Object.fromEntries(unknown.map((c) => [`sms_texts.${c}`, [FOLLOW_UP_MESSAGES.smsLanguageUnknown]])));
    }
  }
  const now = ctx.now();
  const row = {
    contactDays: value.contact_days,
    referralDays: value.referral_days,
    seenDays: value.seen_days,
    outcomeDays: value.outcome_days,
    digestEnabled: value.digest_enabled,
    smsEnabled: value.sms_enabled,
    smsTexts: texts,
    modified: now,
    modifiedBy: actor.id,
  };
  const intervalsChanged =
    value.contact_days !== current.contact_days ||
    value.referral_days !== current.referral_days ||
    value.seen_days !== current.seen_days ||
    value.outcome_days !== current.outcome_days;
  const org = await loadOrganizationForFollowUp(db, organizationId);
  await db.transaction(async (tx) => {
    await tx
      .insert(followUpSettings)
      .values({ organizationId, ...row, created: now, createdBy: actor.id })
      .onConflictDoUpdate({ target: followUpSettings.organizationId, set: row });
    if (intervalsChanged) await recomputeDue(tx, organizationId, value, org?.timezone ?? DEFAULT_TIMEZONE);
    await ctx.services.audit.record(
      {
        action: FOLLOW_UP_AUDIT.settings,
        ...auditActor(actor, meta),
        targetType: 'organization',
        targetId: organizationId,
        organizationId,
        changes: auditChanges(
          { ...current, sms_texts: current.sms_texts },
          { ...current, ...value, sms_texts: texts },
          ['contact_days', 'referral_days', 'seen_days', 'outcome_days', 'digest_enabled', 'sms_enabled', 'sms_texts'],
        ),
        details: {
          contact_days: value.contact_days,
          referral_days: value.referral_days,
          seen_days: value.seen_days,
          outcome_days: value.outcome_days,
          digest_enabled: value.digest_enabled,
          sms_enabled: value.sms_enabled,
          sms_languages: codes,
          due_recomputed: intervalsChanged,
        },
      },
      tx,
    );
  });
  return loadFollowUpSettings(db, organizationId);
}

