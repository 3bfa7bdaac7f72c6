import { useCallback, useEffect, useRef, useState } from 'react';
import { ERROR_BANNER_MS } from '@sc/shared/constants';
import type { FieldError } from '../api/client.ts';

/** Errors listed for ERROR_BANNER_MS after they were last shown (part 1 §8, §9). */
export function useErrorArea() {
  const [errors, setErrors] = useState<FieldError[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback((list: FieldError[]) => {
    clearTimeout(timer.current);
    setErrors(list);
    timer.current = setTimeout(() => setErrors([]), ERROR_BANNER_MS);
  }, []);
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setErrors([]);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { errors, show, clear };
}
