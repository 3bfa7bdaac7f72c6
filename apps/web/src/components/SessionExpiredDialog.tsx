// Part 1 §8: any 401 opens 'Expired User Session'; after 3 s local storage is cleared and the
// user goes to the login page, which says why and returns to this page after sign-in (issue 23.11).
// The watcher is in the first bundle (a 401 can come with the first screen); the dialog's code loads when it opens.
import { Suspense, lazy, useEffect, useState } from 'react';
import { SESSION_EXPIRED_REDIRECT_MS } from '@sc/shared/constants';
import { browser } from '../api/browser.ts';
import { onSessionExpired } from '../api/client.ts';
import { clearStorage } from '../api/storage.ts';
import { loginUrl } from '../app/returnPath.ts';

const SessionExpiredModal = lazy(() => import('./SessionExpiredModal.tsx').then((m) => ({ default: m.SessionExpiredModal })));

export function SessionExpiredDialog() {
  const [opened, setOpened] = useState(false);

  useEffect(() => onSessionExpired(() => setOpened(true)), []);

  useEffect(() => {
    if (!opened) return;
    const timer = setTimeout(() => {
      clearStorage();
      const { pathname, search, hash } = window.location;
      browser.assign(loginUrl(pathname + search + hash, true));
    }, SESSION_EXPIRED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [opened]);

  return opened ? (
    <Suspense fallback={null}>
      <SessionExpiredModal />
    </Suspense>
  ) : null;
}
