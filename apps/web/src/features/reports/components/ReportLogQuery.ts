// Server data of the report log page (part 3 "Report log page", §7): `GET scan/report-log/` through the read replica.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TPeriodQuery } from '@sc/shared/list';
import type { TReportLogRow } from '@sc/shared/scans';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../../api/client.ts';

export type TReportLogQuery = Partial<TPeriodQuery> & { page: number; limit: number; ordering?: string; search?: string };

export const reportLogKeys = {
  all: ['report-log'] as const,
  list: (query: TReportLogQuery) => [...reportLogKeys.all, 'list', query] as const,
};

export function useReportLog(query: TReportLogQuery) {
  return useQuery({
    queryKey: reportLogKeys.list(query),
    queryFn: ({ signal }) => api.list<TPaginated<TReportLogRow>>('scan/report-log/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}
