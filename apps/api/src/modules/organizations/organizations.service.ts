// Organization use cases (read side). The route has already checked the role; here the scope is resolved and
// applied, so an organization outside it is as missing as one that does not exist.
import {
  MAX_ID,
  ORGANIZATION_DEFAULT_ORDERING,
  type TOrganization,
  type TOrganizationListItem,
  type TOrganizationListQuery,
} from '@sc/shared/organizations';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { toPageParams } from '../../http/pagination.ts';
import { requestPeriod } from '../../http/period.ts';
import { resolveScope } from '../../http/scope.ts';
import * as queries from './organizations.queries.ts';
import { presentOrganization, presentOrganizationListItem } from './organizations.presenter.ts';

export type OrganizationServiceContext = { database: Database; now: () => Date };

export async function listOrganizations(
  ctx: OrganizationServiceContext,
  actor: Actor,
  query: TOrganizationListQuery,
  /** The raw `Timezone` header, read for period filters. */
  timezoneHeader: string | string[] | undefined,
): Promise<{ count: number; results: TOrganizationListItem[] }> {
  // Validate every input before touching the database, so a bad query changes nothing and costs nothing.
  const orderBy = parseOrdering(
    query.ordering,
    queries.organizationOrderingFields,
    ORGANIZATION_DEFAULT_ORDERING,
  );
  const created = requestPeriod(query, timezoneHeader, ctx.now());
  // The scope is read from the primary: a link added a moment ago must already count.
  const scope = await resolveScope(ctx.database.db, actor);
  const db = query.using_read_db ? ctx.database.readDb : ctx.database.db;
  const { rows, count } = await queries.listOrganizations(
    db,
    scope,
    {
      search: query.search,
      parent: query.parent,
      canCreateOrganization: query.can_create_organization,
      subOrganisation: query.sub_organisation,
      ids: query.ids,
      created,
    },
    orderBy,
    toPageParams(query),
  );
  return { count, results: rows.map(presentOrganizationListItem) };
}

/** `{id}` from the path: anything but a positive 32-bit integer names no organization → 404. */
export function parseOrganizationId(raw: string): number | undefined {
  if (!/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : undefined;
}

export async function getOrganization(
  ctx: OrganizationServiceContext,
  actor: Actor,
  rawId: string,
  usingReadDb = false,
): Promise<TOrganization> {
  const id = parseOrganizationId(rawId);
  if (id === undefined) throw notFound();
  const scope = await resolveScope(ctx.database.db, actor);
  const row = await queries.findOrganization(usingReadDb ? ctx.database.readDb : ctx.database.db, scope, id);
  if (!row) throw notFound();
  return presentOrganization(row);
}
