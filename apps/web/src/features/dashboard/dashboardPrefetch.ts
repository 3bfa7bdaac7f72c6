// The dashboard's tiles and chart started with its route (issue 24, "no request waterfall"): the route loader calls
// this while the page's code is still loading, and the page's queries then find the answers under the same keys.
import type { QueryClient } from '@tanstack/react-query';
import { hasToken } from '../../api/storage.ts';
import { readListParams } from '../../components/list/useListParams.ts';
import { dashboardChartQuery, dashboardStatsQuery } from './dashboard.api.ts';
import { DASHBOARD_PARAM_DEFAULTS, ZDashboardParams, dashboardPeriod } from './dashboardPeriod.ts';

export function prefetchDashboard(client: QueryClient, url: string): void {
  if (!hasToken()) return;
  const period = dashboardPeriod(
    readListParams(ZDashboardParams, new URL(url).searchParams, DASHBOARD_PARAM_DEFAULTS),
  );
  void client.prefetchQuery(dashboardStatsQuery(period));
  void client.prefetchQuery(dashboardChartQuery(period));
}
