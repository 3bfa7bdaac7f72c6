// Languages (part 3 §2 Languages page, §3, §5, §7; architecture §7b). Every signed-in user may list and read them (the
// organization form's pickers, the device apps); ADMIN (the Language menu's role) creates and edits them. The ISO
// code is unique in any case, and the app version, when given, must be a version of the IBE app (part 3 §3). Each
// write records an audit row in its transaction.
import {
  LANGUAGE_MESSAGES,
  canEditLanguages,
  type TLanguage,
  type TLanguageInput,
  type TLanguageListQuery,
  type TLanguagePatch,
  type TLanguageSaved,
} from '@sc/shared/languages';
import { invalidPk } from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import type { AppContext } from '../../app.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditActor, auditChanges, auditRow, type AuditChange } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, notFound, type FieldErrors } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { presentLanguage } from './languages.presenter.ts';
import * as q from './languages.queries.ts';
import { readerFor } from '../../db/replica.ts';

export type LanguagesContext = Pick<AppContext, 'database' | 'services' | 'now'>;

export const LANGUAGE_AUDIT = { created: 'language.created', updated: 'language.updated' } as const;

function assertCanEdit(actor: Actor): void {
  if (!canEditLanguages(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

export async function listLanguagesFor(
  ctx: Pick<AppContext, 'database'>,
  _actor: Actor,
  query: TLanguageListQuery,
  request: { url: string },
): Promise<TPaginated<TLanguage>> {
  const db = readerFor(ctx.database, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count } = await q.listLanguages(db, query, page);
  return paginate(request, page, count, rows.map(presentLanguage));
}

export async function getLanguage(
  ctx: Pick<AppContext, 'database'>,
  _actor: Actor,
  id: number,
  readDb = false,
): Promise<TLanguage> {
  const row = await q.findLanguage(readerFor(ctx.database, readDb), id);
  if (!row) throw notFound();
  return presentLanguage(row);
}

/** The field errors of the rules a schema cannot check: the ISO code is free, the app version is an IBE one. */
async function checkReferences(
  tx: DbOrTx,
  values: { isoCode?: string; appVersionId?: number | null },
  exceptId?: number,
): Promise<void> {
  const errors: FieldErrors = {};
  if (values.isoCode !== undefined && (await q.isIsoCodeTaken(tx, values.isoCode, exceptId))) {
    errors.iso_code = [LANGUAGE_MESSAGES.isoTaken];
  }
  if (values.appVersionId !== undefined && values.appVersionId !== null) {
    const type = await q.findAppVersionType(tx, values.appVersionId);
    if (type === undefined) errors.app_version = [invalidPk(values.appVersionId)];
    else if (type !== 'IBE') errors.app_version = [LANGUAGE_MESSAGES.appVersionNotIbe];
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
}

/** Two requests taking one ISO code at once: the loser gets the field error, not a 500. */
async function uniqueIsoCode<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
      if ((e as { code?: unknown }).code === '23505') throw badRequest({ iso_code: [LANGUAGE_MESSAGES.isoTaken] });
    }
    throw error;
  }
}

export async function createLanguage(
  ctx: LanguagesContext,
  actor: Actor,
  input: TLanguageInput,
  meta: RequestMeta,
): Promise<TLanguageSaved> {
  assertCanEdit(actor);
  const values: q.LanguageValues = {
    name: input.name,
    isoCode: input.iso_code,
    isTutorialAvailable: input.is_tutorial_available,
    appVersionId: input.app_version,
    ibeConsentForm: input.ibe_consent_form ?? [],
  };
  const row = await uniqueIsoCode(() =>
    ctx.database.db.transaction(async (tx) => {
      await checkReferences(tx, values);
      const inserted = await q.insertLanguage(tx, values, ctx.now());
      await record(ctx, tx, actor, meta, LANGUAGE_AUDIT.created, inserted.id, Object.keys(input), auditChanges(null, auditRow(inserted)));
      return inserted;
    }),
  );
  return { ...presentLanguage(row), detail: LANGUAGE_MESSAGES.created };
}

/** PUT and PATCH: the fields sent replace the stored ones; a field left out is kept. */
export async function updateLanguage(
  ctx: LanguagesContext,
  actor: Actor,
  id: number,
  patch: TLanguagePatch,
  meta: RequestMeta,
): Promise<TLanguageSaved> {
  assertCanEdit(actor);
  const values: Partial<q.LanguageValues> = {
    ...(patch.name === undefined ? {} : { name: patch.name }),
    ...(patch.iso_code === undefined ? {} : { isoCode: patch.iso_code }),
    ...(patch.is_tutorial_available === undefined ? {} : { isTutorialAvailable: patch.is_tutorial_available }),
    ...(patch.app_version === undefined ? {} : { appVersionId: patch.app_version }),
    ...(patch.ibe_consent_form === undefined ? {} : { ibeConsentForm: patch.ibe_consent_form }),
  };
  const row = await uniqueIsoCode(() =>
    ctx.database.db.transaction(async (tx) => {
      const before = await q.findLanguage(tx, id);
      if (!before) throw notFound();
      await checkReferences(tx, values, id);
      const updated = await q.updateLanguage(tx, id, values, ctx.now());
      if (!updated) throw notFound();
      const changed = Object.keys(patch).filter((k) => k !== 'id');
      await record(ctx, tx, actor, meta, LANGUAGE_AUDIT.updated, id, changed, auditChanges(auditRow(before), auditRow(updated)));
      return updated;
    }),
  );
  return { ...presentLanguage(row), detail: LANGUAGE_MESSAGES.updated };
}

// The audit row names the fields sent, not their values (its secret filter would drop keys such as iso_code).
async function record(
  ctx: LanguagesContext,
  tx: DbOrTx,
  actor: Actor,
  meta: RequestMeta,
  action: string,
  id: number,
  fields: string[],
  changes: AuditChange[],
): Promise<void> {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType: 'language',
      targetId: id,
      changes,
      details: { fields },
    },
    tx,
  );
}
