// Server data of the dashboard's follow-up figures (issue 26): GET follow-up/figures/ (the card) and
// GET follow-up/figures/organizations/ (the table per organization), for the dashboard's period. They refetch like
// the dashboard's other figures.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DASHBOARD_REFRESH_MS } from '@sc/shared/dashboard';
import type { TFollowUpFigures, TFollowUpFiguresOrgRow } from '@sc/shared/follow-up';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../api/client.ts';
import { dashboardKeys, type TStatsListParams, type TStatsPeriod } from './dashboard.api.ts';

export const followUpFiguresKeys = {
  card: (period: TStatsPeriod) => [...dashboardKeys.all, 'follow-up', period] as const,
  organizations: (params: TStatsListParams) => [...dashboardKeys.all, 'follow-up-organizations', params] as const,
};

const live = {
  refetchInterval: DASHBOARD_REFRESH_MS,
  staleTime: DASHBOARD_REFRESH_MS / 2,
  refetchOnWindowFocus: true,
  placeholderData: keepPreviousData,
} as const;

/** GET follow-up/figures/ */
export function useFollowUpFigures(period: TStatsPeriod) {
  return useQuery({
    queryKey: followUpFiguresKeys.card(period),
    queryFn: ({ signal }) => api.list<TFollowUpFigures>('follow-up/figures/', { query: period, signal }),
    ...live,
  });
}

/** GET follow-up/figures/organizations/ */
export function useFollowUpFiguresByOrganization(params: TStatsListParams) {
  return useQuery({
    queryKey: followUpFiguresKeys.organizations(params),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TFollowUpFiguresOrgRow>>('follow-up/figures/organizations/', { query: params, signal }),
    ...live,
  });
}
