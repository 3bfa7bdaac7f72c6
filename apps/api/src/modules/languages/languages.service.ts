// Languages (part 3; DESIGN §7b). Read side for now: every signed-in user may list them (the organization form's
// pickers, the device apps). The Languages screen adds create and edit here.
import type { TLanguage, TLanguageListQuery } from '@sc/shared/languages';
import type { TPaginated } from '@sc/shared/list';
import type { AppContext } from '../../app.ts';
import type { Actor } from '../../http/actor.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { presentLanguage } from './languages.presenter.ts';
import * as q from './languages.queries.ts';

export type LanguagesContext = Pick<AppContext, 'database'>;

export async function listLanguagesFor(
  ctx: LanguagesContext,
  _actor: Actor,
  query: TLanguageListQuery,
  request: { url: string },
): Promise<TPaginated<TLanguage>> {
  const db = query.using_read_db ? ctx.database.readDb : ctx.database.db;
  const page = toPageParams(query);
  const { rows, count } = await q.listLanguages(db, query, page);
  return paginate(request, page, count, rows.map(presentLanguage));
}
