// The code of the screens a sign-in leads to: the shell and the dashboard (the landing screen of ADMIN, SUB_ADMIN,
// DISTRIBUTOR_ADMIN and ORG_ADMIN) with its chart and its route loader. The routes load them from here; the sign-in
// screens fetch them as soon as the user starts to type, so 'Log in' is followed by the landing screen's data only
// (issue 24).
export const loadShell = () => import('./shell/ShellLayout.tsx');
export const loadDashboard = () => import('../features/dashboard/pages/DashboardPage.tsx');
export const loadDashboardPrefetch = () => import('../features/dashboard/dashboardPrefetch.ts');
const loadDashboardChart = () => import('../features/dashboard/components/ScansChart.tsx');

let started = false;

/** Fetches (once) the code of the shell and the landing screen. */
export function prefetchAfterSignIn(): void {
  if (started) return;
  started = true;
  void loadShell();
  void loadDashboardPrefetch();
  void loadDashboard().then(loadDashboardChart);
}
