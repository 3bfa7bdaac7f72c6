// Loads the page-wide overlays (app/hosts.tsx) once the first screen is drawn, so their code (Mantine's modal,
// transition and notification parts) does not delay the sign-in form on a slow link (issue 24).
import { Suspense, lazy, useEffect, useState } from 'react';

const AppHosts = lazy(() => import('./hosts.tsx').then((m) => ({ default: m.AppHosts })));

export function DeferredHosts({ after }: { after: Promise<unknown> }) {
  const [show, setShow] = useState(false);
  useEffect(() => {
    let live = true;
    void after.then(() => live && setShow(true));
    return () => {
      live = false;
    };
  }, [after]);
  return show ? (
    <Suspense fallback={null}>
      <AppHosts />
    </Suspense>
  ) : null;
}
