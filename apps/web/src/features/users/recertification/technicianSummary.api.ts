// GET scan/technician-summary/ (part 2 §2.11, §7): the counts table of the technician scan modal.
import { useQuery } from '@tanstack/react-query';
import type { TTechnicianSummary } from '@sc/shared/scans';
import { api } from '../../../api/client.ts';

export type TTechnicianWindow = { date_time_after: string; date_time_before: string } | null;

export const technicianSummaryKeys = {
  all: ['technician-summary'] as const,
  one: (id: number, window: TTechnicianWindow) => [...technicianSummaryKeys.all, id, window] as const,
};

export function useTechnicianSummary(id: number, window: TTechnicianWindow, enabled = true) {
  return useQuery({
    queryKey: technicianSummaryKeys.one(id, window),
    queryFn: ({ signal }) =>
      api.list<TTechnicianSummary>('scan/technician-summary/', { query: { technician: id, ...window }, signal }),
    enabled,
  });
}
