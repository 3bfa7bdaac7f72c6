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

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} hosts={<DeferredHosts />}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
