import './app/signInStyles.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { createQueryClient } from './api/queryClient.ts';
import { AppProviders } from './app/AppProviders.tsx';
import { DeferredHosts } from './app/DeferredHosts.tsx';
import { createAppRoutes } from './app/routes.tsx';

const queryClient = createQueryClient();
const router = createBrowserRouter(createAppRoutes(queryClient));
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

/** Settles when the first route's code and data are in: what can wait loads after that. */
const firstScreen = new Promise<void>((resolve) => {
  if (router.state.initialized) return resolve();
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    resolve();
  });
});

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} hosts={<DeferredHosts after={firstScreen} />}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
