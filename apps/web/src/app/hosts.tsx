// The page-wide overlays every screen may call on: the modals manager (confirm(), openAlert()) and the
// notifications container. They are not needed to draw the first screen, so the app loads them after it
// (DeferredHosts); component tests render them at once (test/render.tsx).
import './consoleStyles.ts';
import { useEffect } from 'react';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { markModalsMounted } from '../components/appHosts.ts';

function ModalsMounted() {
  useEffect(() => markModalsMounted(), []);
  return null;
}

export function AppHosts() {
  return (
    <>
      <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>
        <ModalsMounted />
      </ModalsProvider>
      <Notifications position="top-right" />
    </>
  );
}
