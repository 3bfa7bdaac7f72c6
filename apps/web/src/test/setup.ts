// jsdom gaps Mantine relies on (STACK.md "Web"): ResizeObserver, scrollIntoView, matchMedia, document.fonts.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, vi } from 'vitest';
import { matchMediaFor } from './media.ts';

// findBy*/waitFor give up after 1 s by default; on a loaded 2-core machine a lazy route or a first Mantine render
// takes longer (5 s and 6.5 s waits for a heading that did render failed in full runs beside other suites). The
// budget is set here, once, and not per call: a test waits for its condition, and only a failing wait lasts this long.
// It stays below the test's own budget (testTimeout in vitest.config.ts), so a wait that fails says what it missed.
configure({ asyncUtilTimeout: 30_000 });

afterEach(() => {
  cleanup();
  // Mantine's notification store is global: a message one test shows must not appear in the next one's render.
  notifications.clean();
  localStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView = () => {};

// jsdom has no matchMedia; mantine-datatable hides every column unless '' and 'all' match.
Object.defineProperty(window, 'matchMedia', { writable: true, value: matchMediaFor() });

// Mantine's autosize Textarea listens on document.fonts, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}
