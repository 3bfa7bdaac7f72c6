// The users routes' names for the shared route helpers (apps/api/src/http/route-helpers.ts): the id parameter, the
// guard that answers 401/403 before validation, and the path id (404 when it names no user).
export { ZIdParams as ZUserIdParams, guard as userGuard, parseId as parseUserId } from '../../http/route-helpers.ts';
