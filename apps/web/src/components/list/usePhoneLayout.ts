// Whether a list is drawn for a phone (part 1 §9: xs is up to 600 px). Lists drop their low-priority
// columns, pin the row actions and shorten dates there, so a 390 px screen keeps every action in reach.
import { useMediaQuery } from '@mantine/hooks';
import { BREAKPOINTS } from '@sc/shared/constants';

export const PHONE_QUERY = `(max-width: ${BREAKPOINTS.xs}px)`;

export function usePhoneLayout(): boolean {
  // Read at once, not after a first desktop render: a phone never lays out the wide table.
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
}
