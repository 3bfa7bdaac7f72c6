// The users area's rules come from packages/shared (user-permissions.ts); this file only feeds them the session's
// facts and names what the console shows (a user's name, a training status).
import type { TSessionUser } from '@sc/shared/auth';
import { TRAINING_STATUS_LABELS } from '@sc/shared/user-labels';
import type { TUserActor } from '@sc/shared/user-permissions';

/** The signed-in user as the shared user rules read it. */
export const actorOf = (session: TSessionUser): TUserActor => ({
  id: session.id,
  user_type: session.user_type,
  organization: session.organization,
});

export const fullName = (u: { first_name: string; last_name: string; username: string }): string =>
  `${u.first_name} ${u.last_name}`.trim() || u.username;

export const trainingStatusLabel = (status: keyof typeof TRAINING_STATUS_LABELS): string => TRAINING_STATUS_LABELS[status];
