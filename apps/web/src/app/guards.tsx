// Route guards of part 1 §2.1: a stored token for the shell, console roles for the console,
// TECHNICIAN only for user-delete, and the menu's roles for each route.
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { isConsoleRole, landingPathFor } from '@sc/shared/roles';
import { hasToken } from '../api/storage.ts';
import { loginUrl } from './returnPath.ts';
import { canOpenMenuKey, resolveMenuKey, type RouteMenuKey } from './routeAccess.ts';
import { useSessionUser } from './SessionUserContext.tsx';

export function RequireToken() {
  const location = useLocation();
  // The asked page rides along in the login URL (not router state), so sign-in returns to it (issue 23.11).
  if (!hasToken()) return <Navigate to={loginUrl(location.pathname + location.search + location.hash)} replace />;
  return <Outlet />;
}

/** ADMIN, SUB_ADMIN, ORG_ADMIN, DISTRIBUTOR_ADMIN, MANAGER and CERVAICAL_REVIEWER. */
export function RequireConsoleRole() {
  const user = useSessionUser();
  if (!isConsoleRole(user.user_type)) return <Navigate to={landingPathFor(user.user_type)} replace />;
  return <Outlet />;
}

/** user-delete admits only TECHNICIAN; other roles delete their account from the user card. */
export function RequireTechnician() {
  const user = useSessionUser();
  if (user.user_type !== 'TECHNICIAN') return <Navigate to={landingPathFor(user.user_type)} replace />;
  return <Outlet />;
}

export function RequireMenuAccess({ menuKey }: { menuKey: RouteMenuKey }) {
  const user = useSessionUser();
  const [search] = useSearchParams();
  if (!canOpenMenuKey(user.user_type, resolveMenuKey(menuKey, search))) {
    return <Navigate to={landingPathFor(user.user_type)} replace />;
  }
  return <Outlet />;
}
