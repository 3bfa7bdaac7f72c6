// Records the page the user is on with PUT user/last_dashboard_path/ (part 1 §7), once the location has been
// still for a moment. Skipped while impersonating: writes go out with the admin's own token. A path the API would
// refuse (too long, usually for a long search) is stored shorter (storableDashboardPath), never sent as is.
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { storableDashboardPath } from '@sc/shared/auth';
import { api } from '../../api/client.ts';
import { getImpersonationToken } from '../../api/storage.ts';

export const RECORD_PATH_DELAY_MS = 1500;

/** `user` is the signed-in user once loaded (nothing is recorded before). */
export function useRecordDashboardPath(user: { last_used_dashboard_path: string | null } | undefined): void {
  const { pathname, search } = useLocation();
  const last = useRef<string | null>(null);
  const loaded = user !== undefined;
  const stored = user?.last_used_dashboard_path ?? null;

  useEffect(() => {
    const url = storableDashboardPath(pathname, search);
    if (!url || !loaded || url === (last.current ?? stored) || getImpersonationToken()) return;
    const timer = setTimeout(() => {
      last.current = url;
      // A failed write only loses the hint; the page is unaffected.
      api.put('user/last_dashboard_path/', { url }, { handleErrors: false }).catch(() => undefined);
    }, RECORD_PATH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pathname, search, loaded, stored]);
}
