// jsdom gaps Mantine relies on (STACK.md "Web"): ResizeObserver, scrollIntoView, matchMedia, document.fonts.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, vi } from 'vitest';
import { matchMediaFor } from './media.ts';

// findBy*/waitFor give up after 1 s by default; on a loaded 2-core CI machine a lazy route or a first Mantine
// render was seen to take longer (CI log of 2026-11-23: 'Unable to find role=heading' on screens that render).
// Only a failing wait lasts longer; a passing one returns as soon as its element appears.
configure({ asyncUtilTimeout: 5_000 });

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
