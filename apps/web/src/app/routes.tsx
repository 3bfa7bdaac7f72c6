// Every route of part 1 §2.1. Pages are lazy-loaded; the shell requires a token, the console a
// console role, user-delete a technician, and each page the roles of its menu entry.
import type { ComponentType } from 'react';
import { Center, Loader } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { Navigate, Outlet, type LoaderFunction, type RouteObject } from 'react-router';
import { currentUserQuery } from '../api/session.ts';
import { hasToken } from '../api/storage.ts';
import { loadDashboard, loadDashboardPrefetch, loadShell } from './afterSignIn.ts';
import { RequireConsoleRole, RequireMenuAccess, RequireTechnician, RequireToken } from './guards.tsx';
import type { RouteMenuKey } from './routeAccess.ts';

type PageModule = () => Promise<{ Component: ComponentType }>;

const page =
  <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType): PageModule =>
  async () => ({ Component: pick(await load()) });

function guarded(path: string, menuKey: RouteMenuKey, lazy: PageModule, loader?: LoaderFunction): RouteObject {
  return {
    path,
    element: <RequireMenuAccess menuKey={menuKey} />,
    // A loader runs on entering the route only: a list's filters change the search, and the page reads them itself.
    children: [{ index: true, lazy, ...(loader && { loader, shouldRevalidate: () => false }) }],
  };
}

/**
 * A route loader that starts its page's data beside the page's code: `load` brings a small prefetch module (its
 * code is not part of the first bundle that the sign-in form waits for, issue 24), `start` asks for the data into
 * the query cache, where the page's own queries find it under the same keys. Without the app's query client (tests
 * that render routes alone), no loader.
 */
const prefetchLoader =
  <M,>(
    queryClient: QueryClient | undefined,
    load: () => Promise<M>,
    start: (m: M, client: QueryClient, url: string) => void,
  ): LoaderFunction | undefined =>
  queryClient &&
  (({ request }) => {
    void load().then((m) => start(m, queryClient, request.url));
    return null;
  });

/**
 * The scan map's first picture starts with the route (issue 8 "Speed", issue 24). `mapOnly`: route mapreport; else
 * `scan`, whose List/Map toggle shows the map with view=map.
 */
const scanMapLoader = (queryClient: QueryClient | undefined, mapOnly: boolean) =>
  prefetchLoader(
    queryClient,
    () => import('../features/scans/map/scanMapPrefetch.ts'),
    (m, client, url) => m.prefetchScanMap(client, url, mapOnly),
  );

/** The dashboard's tiles and chart (issue 24: no request waterfall after sign-in). */
const dashboardLoader = (queryClient: QueryClient | undefined) =>
  prefetchLoader(queryClient, loadDashboardPrefetch, (m, client, url) => m.prefetchDashboard(client, url));

/** The signed-in user, which the shell waits for, asked for beside the shell's code rather than after it. */
const shellLoader = (queryClient: QueryClient | undefined): LoaderFunction | undefined =>
  queryClient &&
  (() => {
    if (hasToken()) void queryClient.prefetchQuery(currentUserQuery);
    return null;
  });

function PageLoader() {
  return (
    <Center h="60vh">
      <Loader />
    </Center>
  );
}

const consoleRoutes = (queryClient: QueryClient | undefined): RouteObject[] => [
  { index: true, element: <Navigate to="/dashboard" replace /> },
  guarded('dashboard', 'dashboard', page(loadDashboard, (m) => m.DashboardPage), dashboardLoader(queryClient)),
  guarded(
    'scan',
    'scan',
    page(() => import('../features/scans/pages/ScanListPage.tsx'), (m) => m.ScanListPage),
    scanMapLoader(queryClient, false),
  ),
  guarded(
    'mapreport',
    'mapreport',
    page(() => import('../features/scans/pages/ScanMapPage.tsx'), (m) => m.ScanMapPage),
    scanMapLoader(queryClient, true),
  ),
  // The scan replay opened from a scan row (part 2 §2.7): it admits REPLAY_ROLES itself (ORG_ADMIN has no Scans menu
  // entry but replays from its organization's Scans tab).
  { path: 'chart', lazy: page(() => import('../features/scans/pages/ScanReplayPage.tsx'), (m) => m.ScanReplayPage) },
  guarded('cervaical', 'cervaical', page(() => import('../features/cervaical/pages/CervaicalListPage.tsx'), (m) => m.CervaicalListPage)),
  guarded('orca', 'orca', page(() => import('../features/orca/pages/OrcaListPage.tsx'), (m) => m.OrcaListPage)),
  guarded('report', 'report', page(() => import('../features/reports/pages/ReportPage.tsx'), (m) => m.ReportPage)),
  guarded('report-log', 'report-log', page(() => import('../features/reports/pages/ReportLogPage.tsx'), (m) => m.ReportLogPage)),
  guarded(
    'organization',
    'organization',
    page(() => import('../features/organizations/pages/OrganizationListPage.tsx'), (m) => m.OrganizationListPage),
  ),
  guarded(
    'organization/:id',
    'organization',
    page(() => import('../features/organizations/pages/OrganizationDetailPage.tsx'), (m) => m.OrganizationDetailPage),
  ),
  guarded('device', 'device', page(() => import('../features/devices/pages/DeviceListPage.tsx'), (m) => m.DeviceListPage)),
  guarded('firmware', 'firmware', page(() => import('../features/firmware/pages/FirmwareListPage.tsx'), (m) => m.FirmwareListPage)),
  guarded('license', 'license', page(() => import('../features/licences/pages/LicenseListPage.tsx'), (m) => m.LicenseListPage)),
  guarded(
    'user',
    (search) => (search.has('unassign') ? 'user-unassign' : 'user-all'),
    page(() => import('../features/users/pages/UserListPage.tsx'), (m) => m.UserListPage),
  ),
  guarded(
    're-certification',
    're-certification',
    page(() => import('../features/users/pages/ReCertificationPage.tsx'), (m) => m.ReCertificationPage),
  ),
  guarded('patient', 'patient', page(() => import('../features/patients/pages/PatientListPage.tsx'), (m) => m.PatientListPage)),
  guarded('follow-up', 'follow-up', page(() => import('../features/follow-up/pages/FollowUpPage.tsx'), (m) => m.FollowUpPage)),
  guarded('audit', 'audit', page(() => import('../features/audit/pages/AuditPage.tsx'), (m) => m.AuditPage)),
  guarded('language', 'language', page(() => import('../features/languages/pages/LanguageListPage.tsx'), (m) => m.LanguageListPage)),
  guarded('tutorial/module', 'tutorial', page(() => import('../features/tutorials/pages/ModuleListPage.tsx'), (m) => m.ModuleListPage)),
  guarded(
    'tutorial/module/content',
    'tutorial',
    page(() => import('../features/tutorials/pages/ContentListPage.tsx'), (m) => m.ContentListPage),
  ),
  guarded(
    'app-version',
    'release-notes',
    page(() => import('../features/app-versions/pages/AppVersionPage.tsx'), (m) => m.AppVersionPage),
  ),
  guarded('booking', 'booking', page(() => import('../features/bookings/pages/BookingListPage.tsx'), (m) => m.BookingListPage)),
];

/** The app's routes; with the app's query client, routes whose data can start before their page do so. */
export const createAppRoutes = (queryClient?: QueryClient): RouteObject[] => [
  {
    element: <Outlet />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { path: '/login', lazy: page(() => import('../features/auth/pages/LoginPage.tsx'), (m) => m.LoginPage) },
      { path: '/register', lazy: page(() => import('../features/auth/pages/LoginPage.tsx'), (m) => m.LoginPage) },
      // The public booking page (issue 12): no sign-in, outside the shell.
      { path: '/book/:token', lazy: page(() => import('../features/bookings/pages/PublicBookingPage.tsx'), (m) => m.PublicBookingPage) },
      {
        path: '/book/:token/booking/:booking',
        lazy: page(() => import('../features/bookings/pages/PublicBookingPage.tsx'), (m) => m.PublicBookingPage),
      },
      {
        path: '/reset-password',
        lazy: page(() => import('../features/auth/pages/ResetPasswordPage.tsx'), (m) => m.ResetPasswordPage),
      },
      {
        path: '/',
        element: <RequireToken />,
        children: [
          {
            // The shell (menu, header, the current user) loads after sign-in, not with the sign-in screens.
            lazy: page(loadShell, (m) => m.ShellLayout),
            loader: shellLoader(queryClient),
            shouldRevalidate: () => false,
            children: [
              {
                path: 'user-delete',
                element: <RequireTechnician />,
                children: [
                  { index: true, lazy: page(() => import('../features/account/pages/UserDeletePage.tsx'), (m) => m.UserDeletePage) },
                ],
              },
              { element: <RequireConsoleRole />, children: consoleRoutes(queryClient) },
            ],
          },
        ],
      },
      { path: '*', lazy: page(() => import('./NotFoundPage.tsx'), (m) => m.NotFoundPage) },
    ],
  },
];

/** Without a query client (nothing starts before its page): the routes tests render. */
export const appRoutes: RouteObject[] = createAppRoutes();
