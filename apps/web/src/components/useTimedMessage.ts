import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A message that clears itself `ms` after it was last shown (login errors: 6 s, banners and form errors: 5 s).
 * `T` is what is shown: a text by default, or a form's error list or field errors (`useErrorArea`).
 */
export function useTimedMessage<T = string>(ms: number) {
  const [message, setMessage] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setMessage(null);
  }, []);

  const show = useCallback(
    (value: T) => {
      clearTimeout(timer.current);
      setMessage(() => value);
      timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  return { message, show, clear };
}
