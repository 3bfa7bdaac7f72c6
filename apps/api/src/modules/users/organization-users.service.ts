// The user list use case (part 2 §2.2, §7): the scope is resolved here and applied to every row, so a user of an
// organization outside it is as missing as one that does not exist.
import {
  USER_DEFAULT_ORDERING,
  type TOrganizationUser,
  type TOrganizationUserListQuery,
} from '@sc/shared/users';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { toPageParams } from '../../http/pagination.ts';
import { requestPeriod } from '../../http/period.ts';
import { resolveScope } from '../../http/scope.ts';
import { presentOrganizationUser } from './organization-users.presenter.ts';
import {
  listOrganizationUsers as queryOrganizationUsers,
  organizationUserOrderingFields,
} from './organization-users.queries.ts';

export type OrganizationUserServiceContext = { database: Database; now: () => Date };

export async function listOrganizationUsers(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  query: TOrganizationUserListQuery,
  /** The raw `Timezone` header, read for period filters. */
  timezoneHeader: string | string[] | undefined,
): Promise<{ count: number; results: TOrganizationUser[] }> {
  // Validate every input before touching the database.
  const orderBy = parseOrdering(query.ordering, organizationUserOrderingFields, USER_DEFAULT_ORDERING);
  const created = requestPeriod(query, timezoneHeader, ctx.now());
  // The scope is read from the primary: a manager link added a moment ago must already count.
  const scope = await resolveScope(ctx.database.db, actor);
  const db = query.using_read_db ? ctx.database.readDb : ctx.database.db;
  const { rows, count } = await queryOrganizationUsers(
    db,
    scope,
    {
      search: query.search,
      userTypes: query.user_type,
      isValid: query.is_valid,
      organizationId: query.organization_id,
      isUnassigned: query.is_unassigned,
      created,
    },
    orderBy,
    toPageParams(query),
  );
  return { count, results: rows.map(presentOrganizationUser) };
}
