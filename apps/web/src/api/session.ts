// The signed-in user: the one client-global besides server data (STYLE "The web app").
import { useQuery } from '@tanstack/react-query';
import type { TSessionUser } from '@sc/shared/auth';
import { browser } from './browser.ts';
import { api } from './client.ts';
import { clearStorage, getImpersonationToken, hasToken } from './storage.ts';

export const userKeys = {
  all: ['user'] as const,
  me: () => [...userKeys.all, 'me'] as const,
};

export const fetchCurrentUser = (): Promise<TSessionUser> => api.get<TSessionUser>('user/');

export function useCurrentUser() {
  return useQuery({
    queryKey: userKeys.me(),
    queryFn: fetchCurrentUser,
    enabled: hasToken(),
    staleTime: 5 * 60_000,
  });
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
