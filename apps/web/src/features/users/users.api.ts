// Server data of the users area (part 2 §2.2, §2.3, §7 "Users"): the query-key factory, the list, a user with its
// scan counts, tutorial status and organization links, every change (each invalidates the user keys, so the list
// reloads after it: part 2 §4 "Dialog outcome") and the training and practice report PDFs.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPinResetInput, TUserInputBody, TUserOrganizationLinkInput, TUserPatch, TUserUpdateBody } from '@sc/shared/user-input';
import type {
  TOrganizationUserList,
  TOrganizationUserListParams,
  TPasswordLinkResponse,
  TPinResetResponse,
  TTutorialStatus,
  TUserDetail,
  TUserOrganizationLinkList,
  TUserOrganizationLinkSaved,
  TUserSaved,
  TUserScanCount,
} from '@sc/shared/users';
import { API_BASE, ApiError, api, clientTimezone, clientTimezoneOffset, type DrfErrorBody } from '../../api/client.ts';
import { getImpersonationToken, getToken } from '../../api/storage.ts';

export const userKeys = {
  all: ['user'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: TOrganizationUserListParams) => [...userKeys.lists(), params] as const,
  detail: (id: number) => [...userKeys.all, 'detail', id] as const,
  scanCount: (id: number) => [...userKeys.all, 'scan-count', id] as const,
  tutorialStatus: (id: number) => [...userKeys.all, 'tutorial-status', id] as const,
  links: (id: number) => [...userKeys.all, 'links', id] as const,
};

/** GET organization/user/ (read replica) — the previous page stays on screen while the next one loads. */
export function useUsers(params: TOrganizationUserListParams) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => api.list<TOrganizationUserList>('organization/user/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET organization/user/{id}/ — 404 when the user is outside the caller's scope (the Unauthorized access panel). */
export function useUser(id: number | undefined) {
  return useQuery({
    queryKey: userKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TUserDetail>(`organization/user/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

/** GET organization/user/{id}/scan/count/ — pre_training, training, practice. */
export function useUserScanCount(id: number, enabled = true) {
  return useQuery({
    queryKey: userKeys.scanCount(id),
    queryFn: ({ signal }) => api.get<TUserScanCount>(`organization/user/${id}/scan/count/`, { signal }),
    enabled,
  });
}

/** GET tutorial/module/status/?user_id= (read replica) — each published module, completed or not. */
export function useTutorialStatus(id: number, enabled = true) {
  return useQuery({
    queryKey: userKeys.tutorialStatus(id),
    queryFn: ({ signal }) => api.list<TTutorialStatus>('tutorial/module/status/', { query: { user_id: id }, signal }),
    enabled,
  });
}

/** The most links a manager's list reads (part 2 §9). */
export const USER_LINKS_LIMIT = 1000;

/** GET user/organizations/?user=&limit=1000 — a manager's organization links. */
export function useUserOrganizationLinks(id: number, enabled = true) {
  return useQuery({
    queryKey: userKeys.links(id),
    queryFn: ({ signal }) =>
      api.list<TUserOrganizationLinkList>('user/organizations/', { query: { user: id, limit: USER_LINKS_LIMIT }, signal }),
    enabled,
  });
}

export function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userKeys.all });
}

/** POST organization/user/ or PUT organization/user/{id}/ — the user as saved, its message and any password-link text. */
export function useSaveUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (save: { id?: undefined; input: TUserInputBody } | { id: number; input: TUserUpdateBody }) =>
      save.id === undefined
        ? api.post<TUserSaved>('organization/user/', save.input)
        : api.put<TUserSaved>(`organization/user/${save.id}/`, save.input),
    onSuccess: invalidate,
  });
}

/** PATCH organization/user/{id}/ — the list's Unassign (organization null) and the Transfer User dialog. */
export function usePatchUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: TUserPatch }) => api.patch<TUserSaved>(`organization/user/${id}/`, patch),
    onSuccess: invalidate,
  });
}

/** PUT organization/user/{id}/reset/pin/ with pin_reset_request true. */
export function useResetPin() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: number) =>
      api.put<TPinResetResponse>(`organization/user/${id}/reset/pin/`, { pin_reset_request: true } satisfies TPinResetInput),
    onSuccess: invalidate,
  });
}

/** POST organization/user/{id}/reset/password/ — e-mails the user a set-password link. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (id: number) => api.post<TPasswordLinkResponse>(`organization/user/${id}/reset/password/`, {}),
  });
}

/** GET user/certify/{id}/ (part 2 §7: a GET that certifies). */
export function useCertifyUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: number) => api.get<TUserSaved>(`user/certify/${id}/`),
    onSuccess: invalidate,
  });
}

/** POST organization/user/{id}/re-certify/ with an empty body: a new year of certification from today. */
export function useReCertifyUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: number) => api.post<TUserSaved>(`organization/user/${id}/re-certify/`, {}),
    onSuccess: invalidate,
  });
}

/** POST user/organizations/ — one more organization for a manager. */
export function useAddOrganizationLink() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (input: TUserOrganizationLinkInput) => api.post<TUserOrganizationLinkSaved>('user/organizations/', input),
    onSuccess: invalidate,
  });
}

/** DELETE user/organizations/{id}/ — one link removed. */
export function useRemoveOrganizationLink() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (linkId: number) => api.delete<{ detail?: string } | undefined>(`user/organizations/${linkId}/`),
    onSuccess: invalidate,
  });
}

export type TrainingReportKind = 'training' | 'practice';

/**
 * GET user/{kind}/report/pdf/{id}/ as a Blob, with the session's token (a new tab cannot send the Authorization
 * header, so the console fetches the PDF and opens an object URL, as it does for stored files).
 */
export async function fetchTrainingReport(kind: TrainingReportKind, id: number): Promise<Blob> {
  const headers: Record<string, string> = {
    Accept: 'application/pdf',
    Timezone: clientTimezone(),
    'Timezone-Offset': String(clientTimezoneOffset()),
  };
  const token = getImpersonationToken() ?? getToken();
  if (token) headers.Authorization = `Token ${token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/user/${kind}/report/pdf/${id}/`, { headers });
  } catch {
    throw new ApiError(0, { detail: 'Unable to reach the server. Check your connection and try again.' });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({ detail: response.statusText || `HTTP ${response.status}` }))) as DrfErrorBody;
    throw new ApiError(response.status, body);
  }
  return response.blob();
}
