// Server data of follow-up (issue 26): the worklist, one case with its timeline, actions on it, its assigned user,
// the users a case may be assigned to, and an organization's due intervals and reminder texts.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TFollowUpAction,
  TFollowUpAssignee,
  TFollowUpCase,
  TFollowUpListQuery,
  TFollowUpRow,
  TFollowUpSettings,
  TFollowUpSettingsInput,
} from '@sc/shared/follow-up';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../api/client.ts';

export type TFollowUpQuery = Partial<Omit<TFollowUpListQuery, 'format'>>;

export const followUpKeys = {
  all: ['follow-up'] as const,
  list: (params: TFollowUpQuery) => [...followUpKeys.all, 'list', params] as const,
  detail: (id: number) => [...followUpKeys.all, 'detail', id] as const,
  assignees: (organization: number) => [...followUpKeys.all, 'assignees', organization] as const,
  settings: (organization: number) => [...followUpKeys.all, 'settings', organization] as const,
};

/** GET follow-up/ — the previous page stays on screen while the next one loads. */
export function useFollowUpCases(params: TFollowUpQuery, enabled = true) {
  return useQuery({
    queryKey: followUpKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TFollowUpRow>>('follow-up/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET follow-up/{id}/ (the API writes an audit row for each read of the timeline). */
export function useFollowUpCase(id: number | undefined) {
  return useQuery({
    queryKey: followUpKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TFollowUpCase>(`follow-up/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

/** GET follow-up/assignees/?organization= — users of a follow-up role with the organization in scope. */
export function useFollowUpAssignees(organization: number | undefined) {
  return useQuery({
    queryKey: followUpKeys.assignees(organization ?? 0),
    queryFn: ({ signal }) =>
      api.get<TFollowUpAssignee[]>('follow-up/assignees/', { query: { organization }, signal }),
    enabled: organization !== undefined && organization > 0,
  });
}

function useInvalidateFollowUp() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: followUpKeys.all });
}

/** POST follow-up/{id}/actions/ — one timeline entry; the list and the case refresh. */
export function useFollowUpAction() {
  const invalidate = useInvalidateFollowUp();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: TFollowUpAction }) =>
      api.post<TFollowUpCase>(`follow-up/${id}/actions/`, action),
    onSuccess: invalidate,
  });
}

/** PATCH follow-up/{id}/ — the assigned user (null: unassigned). */
export function useAssignFollowUp() {
  const invalidate = useInvalidateFollowUp();
  return useMutation({
    mutationFn: ({ id, assigned_user }: { id: number; assigned_user: number | null }) =>
      api.patch<TFollowUpCase>(`follow-up/${id}/`, { assigned_user }),
    onSuccess: invalidate,
  });
}

/** GET organization/{id}/follow-up-settings/ */
export function useFollowUpSettings(organization: number) {
  return useQuery({
    queryKey: followUpKeys.settings(organization),
    queryFn: ({ signal }) =>
      api.get<TFollowUpSettings>(`organization/${organization}/follow-up-settings/`, { signal }),
  });
}

/** PUT organization/{id}/follow-up-settings/ */
export function useSaveFollowUpSettings(organization: number) {
  const invalidate = useInvalidateFollowUp();
  return useMutation({
    mutationFn: (input: TFollowUpSettingsInput) =>
      api.put<TFollowUpSettings>(`organization/${organization}/follow-up-settings/`, input),
    onSuccess: invalidate,
  });
}
