// The signed-in user: the one client-global besides server data (STYLE "The web app").
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TSessionUser } from '@sc/shared/auth';
import { browser } from './browser.ts';
import { api } from './client.ts';
import { clearStorage, getImpersonationToken, hasToken } from './storage.ts';

export const userKeys = {
  all: ['user'] as const,
  me: () => [...userKeys.all, 'me'] as const,
};

export const fetchCurrentUser = (): Promise<TSessionUser> => api.get<TSessionUser>('user/');

/** GET user/: the shell's query, its route loader's and the sign-in's. */
export const currentUserQuery = queryOptions({
  queryKey: userKeys.me(),
  queryFn: fetchCurrentUser,
  staleTime: 5 * 60_000,
});

export function useCurrentUser() {
  return useQuery({ ...currentUserQuery, enabled: hasToken() });
}

/**
 * Sign out: end an impersonation first so its token does not outlive the session, tell the server (failures
 * ignored), clear ALL local storage, reload (part 1 §4).
 */
export async function signOut(): Promise<void> {
  if (getImpersonationToken()) {
    try {
      await api.delete('user/impersonation/', { asImpersonation: true, handleErrors: false });
    } catch {
      // Already expired or revoked.
    }
  }
  try {
    await api.post('user/logout/', undefined, { handleErrors: false });
  } catch {
    // The session may already be gone on the server; the local sign-out still happens.
  }
  clearStorage();
  browser.reload();
}
