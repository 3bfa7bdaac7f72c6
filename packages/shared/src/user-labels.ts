// What the console shows for the users area beyond the contract (user-input.ts, user-permissions.ts, users.ts): the
// training status labels (part 2 §3 names only CERTIFIED; architecture §7 "Training status" gives the steps) and the
// time an organization-link error stays under the picker (part 2 §8, §9).

/** The training status words are one table in labels.ts. */
export { TRAINING_STATUS_LABELS } from './labels.ts';

/** "Adding an organization link fails: server error text shown beneath for 2 seconds" (part 2 §8, §9). */
export const LINK_ERROR_MS = 2000;
