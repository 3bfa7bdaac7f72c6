// What the console keeps in localStorage (part 1 §4: the session is a stored token; sign-out
// clears all local storage).
export const TOKEN_KEY = 'dashboard_token';
/** Set while an ADMIN impersonates someone; used for GET and HEAD requests only. */
export const IMPERSONATION_TOKEN_KEY = 'impersonation_token';
/** The hidden API mode of the user card (part 1 §2.3). */
export const API_MODE_KEY = 'api_mode';

export const getToken = (): string | null => localStorage.getItem(TOKEN_KEY);
export const setToken = (token: string): void => localStorage.setItem(TOKEN_KEY, token);
export const hasToken = (): boolean => Boolean(getToken());
export const getImpersonationToken = (): string | null => localStorage.getItem(IMPERSONATION_TOKEN_KEY);
export const clearStorage = (): void => localStorage.clear();
