// Impersonation (part 1 §2.7, §4): the user list of the modal (`GET organization/user/`), starting an
// impersonation (store the token, reload after 1 s) and ending it (DELETE with the impersonation token, reload).
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { IMPERSONATION_RELOAD_MS } from '@sc/shared/constants';
import type {
  TImpersonationResponse,
  TOrganizationUserList,
  TOrganizationUserListParams,
} from '@sc/shared/users';
import { browser } from '../../api/browser.ts';
import { api, apiFetch } from '../../api/client.ts';
import { IMPERSONATION_TOKEN_KEY } from '../../api/storage.ts';

export const impersonationKeys = {
  all: ['impersonation'] as const,
  users: (params: TOrganizationUserListParams) => [...impersonationKeys.all, 'users', params] as const,
};

export function useImpersonationUsers(params: TOrganizationUserListParams) {
  return useQuery({
    queryKey: impersonationKeys.users(params),
    queryFn: ({ signal }) => api.get<TOrganizationUserList>('organization/user/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET user/impersonation/{id}/ → keep the token for reads, reload 1 s later (the app then shows the user seen). */
export function useStartImpersonation() {
  return useMutation({
    mutationFn: (userId: number) => api.get<TImpersonationResponse>(`user/impersonation/${userId}/`),
    onSuccess: ({ token }) => {
      localStorage.setItem(IMPERSONATION_TOKEN_KEY, token);
      setTimeout(() => browser.reload(), IMPERSONATION_RELOAD_MS);
    },
  });
}

/**
 * Ends the impersonation: the server revokes the token; whatever it answers (the token may have expired
 * already), the key goes and the page reloads as the real user.
 */
export async function endImpersonation(): Promise<void> {
  try {
    await apiFetch('user/impersonation/', {
      method: 'DELETE',
      body: {},
      asImpersonation: true,
      handleErrors: false,
    });
  } catch {
    // An expired or revoked token has nothing left to end.
  }
  localStorage.removeItem(IMPERSONATION_TOKEN_KEY);
  browser.reload();
}
