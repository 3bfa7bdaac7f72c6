import { ERROR_BANNER_MS } from '@sc/shared/constants';
import type { FieldError } from '../api/client.ts';
import { useTimedMessage } from './useTimedMessage.ts';

const NONE: FieldError[] = [];

/** Errors listed for ERROR_BANNER_MS after they were last shown (part 1 §8, §9). */
export function useErrorArea() {
  const { message, show, clear } = useTimedMessage<FieldError[]>(ERROR_BANNER_MS);
  return { errors: message ?? NONE, show, clear };
}
