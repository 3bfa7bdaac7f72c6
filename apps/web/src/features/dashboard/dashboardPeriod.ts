// The dashboard's period as its URL holds it (period, from, to) and as its calls send it: read by the page and by
// its route loader (dashboardPrefetch.ts), so both ask for the same figures.
import type { z } from 'zod';
import { periodToQuery } from '../../components/list/periods.ts';
import { ZBaseListParams } from '../../components/list/useListParams.ts';
import type { TStatsPeriod } from './dashboard.api.ts';

export const ZDashboardParams = ZBaseListParams.pick({ period: true, from: true, to: true });
export type TDashboardParams = z.infer<typeof ZDashboardParams>;
export const DASHBOARD_PARAM_DEFAULTS: Partial<TDashboardParams> = {};

export const dashboardPeriod = ({ period, from, to }: TDashboardParams): TStatsPeriod =>
  periodToQuery({ period, from, to }, 'date_time') as TStatsPeriod;
