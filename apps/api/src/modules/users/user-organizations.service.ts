// A MANAGER's organization links (part 2 §2.3, §4, §7): listed, added and removed one at a time from the user
// dialog. Managers hold no organization, so only roles whose scope is everything see them (ADMIN, SUB_ADMIN) and
// change their links (`user.manageLinks`); a manager reads its own. Organizations must be in the caller's scope.
import { invalidPk } from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import { USER_MESSAGES, type TUserOrganizationLinkInput } from '@sc/shared/user-input';
import { canEditUser } from '@sc/shared/user-permissions';
import type {
  TUserOrganizationLink,
  TUserOrganizationLinkQuery,
  TUserOrganizationLinkSaved,
} from '@sc/shared/users';
import type { Actor } from '../../http/actor.ts';
import { badRequest, fieldError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { isInScope, resolveScope } from '../../http/scope.ts';
import { presentOrganizationUser } from './organization-users.presenter.ts';
import { findUserInScope } from './organization-users.queries.ts';
import {
  USER_AUDIT,
  accessDenied,
  actorFacts,
  assertCanUser,
  findVisibleUser,
  recordUserAudit,
  uniqueViolation,
  type OrganizationUserServiceContext,
  type UserMeta,
} from './organization-users.service.ts';
import * as q from './user-organizations.queries.ts';
import { readerFor } from '../../db/replica.ts';

function presentLink(r: q.UserOrganizationLinkRow): TUserOrganizationLink {
  return {
    id: r.id,
    user: r.userId,
    organization: r.organizationId,
    organization_data: {
      id: r.organization.id,
      name: r.organization.name,
      can_create_organization: r.organization.canCreateOrganization,
      country: r.organization.country,
    },
    created: r.created.toISOString(),
  };
}

/** GET user/organizations/?user= */
export async function listUserOrganizations(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  query: TUserOrganizationLinkQuery,
  request: { url: string },
): Promise<TPaginated<TUserOrganizationLink>> {
  const { db } = ctx.database;
  const own = query.user === actor.id;
  if (!own) {
    assertCanUser(actor, 'user.read');
    await findVisibleUser(ctx, actor, query.user);
  }
  // A manager sees all of its own links (its scope is made of them); others the links into their scope.
  const scope = own ? { kind: 'all' as const } : await resolveScope(db, actor);
  const read = readerFor(ctx.database, query.using_read_db);
  const { rows, count } = await q.listUserOrganizationLinks(read, scope, query.user, toPageParams(query));
  return paginate(request, toPageParams(query), count, rows.map(presentLink));
}

/** POST user/organizations/ {organization, user} */
export async function addUserOrganization(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  input: TUserOrganizationLinkInput,
  meta: UserMeta,
): Promise<TUserOrganizationLinkSaved> {
  assertCanUser(actor, 'user.manageLinks');
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const user = await findUserInScope(db, scope, input.user);
  if (!user) throw fieldError('user', invalidPk(input.user));
  if (!canEditUser(actorFacts(actor), presentOrganizationUser(user))) throw accessDenied();
  if (user.userType !== 'MANAGER') throw fieldError('user', USER_MESSAGES.managerLinksOnly);
  if (!(await isInScope(db, scope, input.organization)))
    throw fieldError('organization', invalidPk(input.organization));
  if (await q.hasUserOrganizationLink(db, user.id, input.organization)) {
    throw badRequest({ organization: [USER_MESSAGES.duplicateLink] });
  }
  let linkId: number;
  try {
    linkId = await db.transaction(async (tx) => {
      const id = await q.insertUserOrganizationLink(tx, {
        userId: user.id,
        organizationId: input.organization,
        createdBy: actor.id,
        at: ctx.now(),
      });
      await recordUserAudit(
        ctx,
        actor,
        USER_AUDIT.organizationLinked,
        user.id,
        { organization: input.organization, link: id },
        meta,
        tx,
        { organizationId: input.organization, changes: [{ field: 'linked_organization', before: null, after: input.organization }] },
      );
      return id;
    });
  } catch (error) {
    // Two adds at once: the unique (user, organization) index keeps one; the other is told, not a 500.
    if (uniqueViolation(error) !== null) {
      throw badRequest({ organization: [USER_MESSAGES.duplicateLink] });
    }
    throw error;
  }
  const row = await q.findUserOrganizationLink(db, linkId);
  if (!row) throw notFound();
  return { ...presentLink(row), detail: USER_MESSAGES.linkAdded };
}

/** DELETE user/organizations/{id}/ */
export async function removeUserOrganization(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
  meta: UserMeta,
): Promise<{ detail: string }> {
  assertCanUser(actor, 'user.manageLinks');
  const { db } = ctx.database;
  const link = await q.findUserOrganizationLink(db, id);
  if (!link) throw notFound();
  const scope = await resolveScope(db, actor);
  const user = await findUserInScope(db, scope, link.userId);
  if (!user || !(await isInScope(db, scope, link.organizationId))) throw notFound();
  if (!canEditUser(actorFacts(actor), presentOrganizationUser(user))) throw accessDenied();
  await db.transaction(async (tx) => {
    await q.deleteUserOrganizationLink(tx, id);
    await recordUserAudit(
      ctx,
      actor,
      USER_AUDIT.organizationUnlinked,
      user.id,
      { organization: link.organizationId, link: id },
      meta,
      tx,
      { organizationId: link.organizationId, changes: [{ field: 'linked_organization', before: link.organizationId, after: null }] },
    );
  });
  return { detail: USER_MESSAGES.linkRemoved };
}
