// GET scan/{id}/replay/ (issue 8 "Breast scans", the /chart/?id= page): a scan's recorded sensor frames
// ('sc-replay/1', packages/shared/src/replay.ts). Who: the roles of the scan list (REPLAY_ROLES, else 403), for a
// scan of an organization in their scope (an unassigned scan: platform admins only); anything else answers 404 as a
// missing id does. A scan in scope without a recording answers 404 saying so.
import { REPLAY_MESSAGES, REPLAY_ROLES, type TReplay } from '@sc/shared/replay';
import type { AppContext } from '../../app.ts';
import type { Actor } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { isInScope, resolveScope } from '../../http/scope.ts';
import { recordReplay } from './replay-frames.ts';
import { findReplayFacts } from './scan-files.queries.ts';

export type ReplayContext = Pick<AppContext, 'database'>;

export async function getScanReplay(ctx: ReplayContext, actor: Actor, scanId: number): Promise<TReplay> {
  if (!REPLAY_ROLES.includes(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  const { db } = ctx.database;
  const scan = await findReplayFacts(db, scanId);
  if (!scan) throw notFound();
  const scope = await resolveScope(db, actor);
  const inScope =
    scan.organizationId === null ? scope.kind === 'all' : await isInScope(db, scope, scan.organizationId);
  if (!inScope) throw notFound();
  if (!scan.isReplayAvailable) throw notFound(REPLAY_MESSAGES.notAvailable);
  return recordReplay(scan);
}
