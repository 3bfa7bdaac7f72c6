// The user dialog's actions (part 2 §2.3, §6, §7): Reset Pin, Reset Password, Certify, re-certify, the scan counts
// and the tutorial status. Each finds the user in the caller's scope first (404 outside it), then asks the shared
// rule (user-permissions.ts) that the console's button asks too.
import { USER_MESSAGES } from '@sc/shared/user-input';
import {
  NON_CERTIFIABLE_TYPES,
  canResetPassword,
  canResetPin,
  certifyProblem,
  isAboveActor,
} from '@sc/shared/user-permissions';
import type {
  TPasswordLinkResponse,
  TPinResetResponse,
  TTutorialStatus,
  TUserSaved,
  TUserScanCount,
} from '@sc/shared/users';
import { AppError, fieldError, nonFieldError } from '../../http/errors.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { auditChanges } from '../../services/audit.service.ts';
import { AUDIT_REDACTED } from '@sc/shared/audit';
import type { Actor } from '../../http/actor.ts';
import { localDate } from '../../http/period.ts';
import { resolveScope } from '../../http/scope.ts';
import { presentOrganizationUser } from './organization-users.presenter.ts';
import * as q from './organization-users.queries.ts';
import {
  USER_AUDIT,
  accessDenied,
  actorFacts,
  assertCanUser,
  findVisibleUser,
  recordUserAudit,
  savedUser,
  type OrganizationUserServiceContext,
  type UserMeta,
} from './organization-users.service.ts';
import { listTutorialStatus } from './user-actions.queries.ts';
import { sendPasswordLink } from './user-password-links.ts';
import { readerFor } from '../../db/replica.ts';

/** PUT organization/user/{id}/reset/pin/: the device app asks the user for a new PIN (the old one stops working). */
export async function resetUserPin(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
  meta: UserMeta,
): Promise<TPinResetResponse> {
  assertCanUser(actor, 'user.resetPin');
  const target = await findVisibleUser(ctx, actor, id);
  if (!canResetPin(actorFacts(actor), presentOrganizationUser(target))) throw accessDenied();
  await ctx.database.db.transaction(async (tx) => {
    await q.updateUser(
      tx,
      id,
      { pinResetRequest: true, pinHash: null },
      { modifiedBy: actor.id, at: ctx.now() },
    );
    await recordUserAudit(ctx, actor, USER_AUDIT.pinReset, id, {}, meta, tx, {
      organizationId: target.organizationId,
      changes: auditChanges({ pin_reset_request: target.pinResetRequest, pin: AUDIT_REDACTED }, { pin_reset_request: true, pin: null }),
    });
  });
  return { detail: USER_MESSAGES.pinReset, pin_reset_request: true };
}

/** POST organization/user/{id}/reset/password/: e-mails a one-hour reset link (only to a user with an e-mail). */
export async function resetUserPassword(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
  meta: UserMeta,
): Promise<TPasswordLinkResponse> {
  assertCanUser(actor, 'user.resetPassword');
  const target = await findVisibleUser(ctx, actor, id);
  if (isAboveActor(actor.userType, target.userType)) throw accessDenied();
  if (!target.email) throw fieldError('email', USER_MESSAGES.noEmail);
  if (!target.isValid) throw nonFieldError(USER_MESSAGES.userDisabled);
  if (!canResetPassword(actorFacts(actor), presentOrganizationUser(target))) throw accessDenied();
  await sendPasswordLink(ctx, { id, email: target.email, firstName: target.firstName }, 'password_reset');
  await recordUserAudit(
    ctx,
    actor,
    USER_AUDIT.passwordLinkSent,
    id,
    { purpose: 'password_reset', email: target.email },
    meta,
  );
  return { detail: USER_MESSAGES.passwordLinkSent(target.email), email: target.email };
}

/** Today in the caller's zone and the same day a year later (Feb 29 → Feb 28), as YYYY-MM-DD. */
function certificateYear(now: Date, zone: string): { issue: string; expiry: string } {
  const issue = localDate(now, zone);
  const [y, m, d] = issue.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(y + 1, m, 0)).getUTCDate();
  const expiry = `${y + 1}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
  return { issue, expiry };
}

/** Certify is a GET in the spec; an impersonation token (read-only) must not change anything through it. */
function assertNotImpersonating(actor: Actor): void {
  if (actor.impersonatorId !== null) throw new AppError('forbidden', AUTH_ERRORS.impersonationReadOnly);
}

/** GET user/certify/{id}/ (part 2 §6): CERTIFIED, issued today, expiring a year later (architecture §7). */
export async function certifyUser(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
  meta: UserMeta,
): Promise<TUserSaved> {
  assertNotImpersonating(actor);
  assertCanUser(actor, 'user.certify');
  const target = await findVisibleUser(ctx, actor, id);
  if (isAboveActor(actor.userType, target.userType)) throw accessDenied();
  const problem = certifyProblem(presentOrganizationUser(target));
  if (problem) throw nonFieldError(USER_MESSAGES[problem]);
  const { issue, expiry } = certificateYear(ctx.now(), meta.timezone);
  await ctx.database.db.transaction(async (tx) => {
    await q.updateUser(
      tx,
      id,
      { ibeTrainingStatus: 'CERTIFIED', certificateIssueDate: issue, certificateExpiryDate: expiry },
      { modifiedBy: actor.id, at: ctx.now() },
    );
    await recordUserAudit(
      ctx,
      actor,
      USER_AUDIT.certified,
      id,
      { previous_status: target.ibeTrainingStatus, issue_date: issue, expiry_date: expiry },
      meta,
      tx,
      {
        organizationId: target.organizationId,
        changes: auditChanges(
          { ibe_training_status: target.ibeTrainingStatus, certificate_issue_date: target.certificateIssueDate, certificate_expiry_date: target.certificateExpiryDate },
          { ibe_training_status: 'CERTIFIED', certificate_issue_date: issue, certificate_expiry_date: expiry },
        ),
      },
    );
  });
  return savedUser(ctx, id, USER_MESSAGES.certified);
}

/** POST organization/user/{id}/re-certify/: a certified user gets a new year from today (architecture §7). */
export async function reCertifyUser(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
  meta: UserMeta,
): Promise<TUserSaved> {
  assertCanUser(actor, 'user.reCertify');
  const target = await findVisibleUser(ctx, actor, id);
  if (isAboveActor(actor.userType, target.userType)) throw accessDenied();
  if (NON_CERTIFIABLE_TYPES.includes(target.userType)) throw nonFieldError(USER_MESSAGES.certifyType);
  if (target.ibeTrainingStatus !== 'CERTIFIED') throw nonFieldError(USER_MESSAGES.notCertified);
  const { issue, expiry } = certificateYear(ctx.now(), meta.timezone);
  await ctx.database.db.transaction(async (tx) => {
    await q.updateUser(
      tx,
      id,
      { certificateIssueDate: issue, certificateExpiryDate: expiry },
      { modifiedBy: actor.id, at: ctx.now() },
    );
    await recordUserAudit(
      ctx,
      actor,
      USER_AUDIT.reCertified,
      id,
      { previous_expiry_date: target.certificateExpiryDate, issue_date: issue, expiry_date: expiry },
      meta,
      tx,
      {
        organizationId: target.organizationId,
        changes: auditChanges(
          { certificate_issue_date: target.certificateIssueDate, certificate_expiry_date: target.certificateExpiryDate },
          { certificate_issue_date: issue, certificate_expiry_date: expiry },
        ),
      },
    );
  });
  return savedUser(ctx, id, USER_MESSAGES.reCertified);
}

/** GET organization/user/{id}/scan/count/ */
export async function getUserScanCount(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  id: number,
  usingReadDb = false,
): Promise<TUserScanCount> {
  assertCanUser(actor, 'user.read');
  await findVisibleUser(ctx, actor, id);
  const scope = await resolveScope(ctx.database.db, actor);
  return q.countTrainingScans(readerFor(ctx.database, usingReadDb), scope, id);
}

/** GET tutorial/module/status/?user_id= : the published modules and the user's progress through each. */
export async function getTutorialStatus(
  ctx: OrganizationUserServiceContext,
  actor: Actor,
  userId: number,
  usingReadDb = false,
): Promise<TTutorialStatus> {
  assertCanUser(actor, 'user.read');
  await findVisibleUser(ctx, actor, userId);
  const rows = await listTutorialStatus(readerFor(ctx.database, usingReadDb), userId);
  const completed = rows.filter((r) => r.completed).length;
  const total = rows.length;
  return {
    results: rows,
    completed,
    total,
    progress_completed: total ? Math.round((completed / total) * 100) : 0,
  };
}
