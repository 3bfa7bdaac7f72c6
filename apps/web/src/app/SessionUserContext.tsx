// The signed-in user, loaded once by the shell and read by everything inside it.
import { createContext, useContext } from 'react';
import type { TSessionUser } from '@sc/shared/auth';

export const SessionUserContext = createContext<TSessionUser | null>(null);

export function useSessionUser(): TSessionUser {
  const user = useContext(SessionUserContext);
  if (!user) throw new Error('useSessionUser must be used inside the console shell');
  return user;
}
