// Server data of the dashboard (part 2 §2.1, §7 Dashboard): tiles, chart, By Device, By Technician and the
// leaderboard. The figures refetch every DASHBOARD_REFRESH_MS and when the window regains focus, so a new upload
// shows within seconds without a reload.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  DASHBOARD_REFRESH_MS,
  customRangeParam,
  type TDashboardChart,
  type TDashboardStats,
  type TDeviceStats,
  type TLeaderboardRow,
  type TTechnicianStats,
} from '@sc/shared/dashboard';
import type { TPaginated, TPeriodQuery } from '@sc/shared/list';
import { api } from '../../api/client.ts';

/** The period as the dashboard calls send it (date_time_after/before; nothing for All Time). */
export type TStatsPeriod = Partial<Pick<TPeriodQuery, 'date_time_after' | 'date_time_before'>>;
export type TStatsListParams = TStatsPeriod & { page: number; limit: number; ordering?: string };

export const dashboardKeys = {
  all: ['dashboard'] as const,
  stats: (period: TStatsPeriod) => [...dashboardKeys.all, 'stats', period] as const,
  chart: (period: TStatsPeriod) => [...dashboardKeys.all, 'chart', period] as const,
  devices: (params: TStatsListParams) => [...dashboardKeys.all, 'devices', params] as const,
  technicians: (params: TStatsListParams) => [...dashboardKeys.all, 'technicians', params] as const,
  leaderboard: (params: TStatsListParams) => [...dashboardKeys.all, 'leaderboard', params] as const,
};

/**
 * The period as the technician positivity list and the leaderboard take it (part 2 §7): `custom_range` with the end
 * exclusive — the last chosen day plus one — as the spec's client sends it (issue 23.22). The tiles, the chart and
 * By Device keep date_time_after/before, as the spec lists their calls.
 */
export function withCustomRange<T extends TStatsPeriod>({ date_time_after, date_time_before, ...rest }: T) {
  if (!date_time_after) return rest;
  return { ...rest, custom_range: customRangeParam(date_time_after, date_time_before ?? date_time_after) };
}

const live = {
  refetchInterval: DASHBOARD_REFRESH_MS,
  // An answer the route loader fetched a moment ago is shown, not asked for again as the page mounts.
  staleTime: DASHBOARD_REFRESH_MS / 2,
  refetchOnWindowFocus: true,
  placeholderData: keepPreviousData,
} as const;

/** GET scan/dashboard/: the hook's query, and the route loader's (dashboardPrefetch.ts). */
export const dashboardStatsQuery = (period: TStatsPeriod) =>
  queryOptions({
    queryKey: dashboardKeys.stats(period),
    queryFn: ({ signal }) => api.list<TDashboardStats>('scan/dashboard/', { query: period, signal }),
  });

/** GET scan/dashboard/chart/ */
export const dashboardChartQuery = (period: TStatsPeriod) =>
  queryOptions({
    queryKey: dashboardKeys.chart(period),
    queryFn: ({ signal }) => api.list<TDashboardChart>('scan/dashboard/chart/', { query: period, signal }),
  });

export function useDashboardStats(period: TStatsPeriod) {
  return useQuery({ ...dashboardStatsQuery(period), ...live });
}

export function useDashboardChart(period: TStatsPeriod) {
  return useQuery({
    ...dashboardChartQuery(period),
    ...live,
  });
}

/** GET scan/device-positive/ */
export function useDeviceStats(params: TStatsListParams) {
  return useQuery({
    queryKey: dashboardKeys.devices(params),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TDeviceStats>>('scan/device-positive/', { query: params, signal }),
    ...live,
  });
}

/** GET organization/technician-positive/ */
export function useTechnicianStats(params: TStatsListParams) {
  return useQuery({
    queryKey: dashboardKeys.technicians(params),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TTechnicianStats>>('organization/technician-positive/', {
        query: withCustomRange(params),
        signal,
      }),
    ...live,
  });
}

/** GET organization/leaderboard/ (ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN) */
export function useLeaderboard(params: TStatsListParams, enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.leaderboard(params),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TLeaderboardRow>>('organization/leaderboard/', {
        query: withCustomRange(params),
        signal,
      }),
    enabled,
    ...live,
  });
}
