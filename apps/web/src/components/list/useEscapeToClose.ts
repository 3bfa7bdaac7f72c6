// Escape closes a list's filter popover wherever the focus is (issue 23.16). Mantine's closeOnEscape hears only keys
// pressed inside the dropdown, and the focus stays on the Filter button (trapFocus off, so the list stays usable).
// A key already handled inside (a select closing its own options) is left alone.
import { useWindowEvent } from '@mantine/hooks';

export function useEscapeToClose(opened: boolean, close: () => void): void {
  useWindowEvent('keydown', (event) => {
    if (opened && event.key === 'Escape' && !event.defaultPrevented) close();
  });
}
