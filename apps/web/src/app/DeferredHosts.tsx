// Loads the page-wide overlays (app/hosts.tsx) when a screen first asks for them (components/appHosts.ts), so their
// code and the console's styles (Mantine's modal, transition and notification parts) are not part of the sign-in
// screens' download on a slow link (issue 24).
import { Suspense, lazy, useEffect, useState } from 'react';
import { appHostsWanted } from '../components/appHosts.ts';

const AppHosts = lazy(() => import('./hosts.tsx').then((m) => ({ default: m.AppHosts })));

export function DeferredHosts() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    let live = true;
    void appHostsWanted().then(() => live && setShow(true));
    return () => {
      live = false;
    };
  }, []);
  return show ? (
    <Suspense fallback={null}>
      <AppHosts />
    </Suspense>
  ) : null;
}
