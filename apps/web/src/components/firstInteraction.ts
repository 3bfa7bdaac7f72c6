// The user's first key or pointer on the page: what the sign-in screen loads then rather than on arrival, where it
// would share a slow link with the form's own code (issue 24).
import { useEffect } from 'react';

/** Calls `start` once, on the first keydown or pointerdown anywhere in the document (not while `enabled` is false). */
export function useFirstInteraction(start: () => void, enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const once = () => start();
    document.addEventListener('keydown', once, { once: true });
    document.addEventListener('pointerdown', once, { once: true });
    return () => {
      document.removeEventListener('keydown', once);
      document.removeEventListener('pointerdown', once);
    };
  }, [start, enabled]);
}
