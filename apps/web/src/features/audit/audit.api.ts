// Server data of the audit trail (issue 27): the keyset list (the audit screen and a record's History), one row, and
// the retention setting.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AUDIT_PATHS, type TAuditListQuery, type TAuditRetention, type TAuditRow } from '@sc/shared/audit';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../api/client.ts';

export type TAuditQuery = Partial<Omit<TAuditListQuery, 'format' | 'using_read_db'>>;

export const auditKeys = {
  all: ['audit'] as const,
  list: (params: TAuditQuery) => [...auditKeys.all, 'list', params] as const,
  history: (params: TAuditQuery) => [...auditKeys.all, 'history', params] as const,
  row: (id: number) => [...auditKeys.all, 'row', id] as const,
  settings: () => [...auditKeys.all, 'settings'] as const,
};

/** GET audit/ — the screen's page, from the read replica; the page on screen stays while the next one loads. */
export function useAuditRows(params: TAuditQuery, enabled = true) {
  return useQuery({
    queryKey: auditKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TAuditRow>>(AUDIT_PATHS.list, { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * GET audit/?target_type=&target_id= — a record's History. Read from the primary, not the replica: the History is
 * opened right after a save, and that save's row must be in it.
 */
export function useRecordHistory(params: TAuditQuery, enabled = true) {
  return useQuery({
    queryKey: auditKeys.history(params),
    queryFn: ({ signal }) => api.get<TPaginated<TAuditRow>>(AUDIT_PATHS.list, { query: params, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
  });
}

/** GET audit/settings/ */
export function useAuditRetention(enabled = true) {
  return useQuery({
    queryKey: auditKeys.settings(),
    queryFn: ({ signal }) => api.get<TAuditRetention>(AUDIT_PATHS.settings, { signal }),
    enabled,
  });
}

/** PUT audit/settings/ — the change writes an audit row, so the list refreshes too. */
export function useSaveAuditRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TAuditRetention) => api.put<TAuditRetention>(AUDIT_PATHS.settings, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditKeys.all }),
  });
}
