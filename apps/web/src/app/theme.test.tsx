import { DEFAULT_THEME, Modal, type MantineTheme } from '@mantine/core';
import { modals } from '@mantine/modals';
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('theme', () => {
  it('keeps dimmed text and white text on primary buttons at WCAG AA contrast (4.5:1)', () => {
    const merged = {
      ...DEFAULT_THEME,
      ...theme,
      colors: { ...DEFAULT_THEME.colors, ...theme.colors },
    } as MantineTheme;
    const dimmed = cssVariablesResolver(merged).light['--mantine-color-dimmed']!;
    // On white, on the page background and on a hovered table row.
    for (const background of ['#ffffff', DEFAULT_THEME.colors.gray[0], DEFAULT_THEME.colors.gray[1]]) {
      expect(contrast(dimmed, background)).toBeGreaterThanOrEqual(4.5);
    }
    const shade = typeof theme.primaryShade === 'object' ? theme.primaryShade.light! : theme.primaryShade!;
    expect(contrast('#ffffff', theme.colors!.clinic![shade])).toBeGreaterThanOrEqual(4.5);
  });

  it("names every dialog's close button for screen readers", () => {
    renderWithProviders(
      <Modal opened onClose={() => undefined} title="Some dialog">
        body
      </Modal>,
    );
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('names the close button of dialogs opened through the modals manager too', async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      modals.open({ title: 'Managed dialog', children: 'body' });
    });
    expect(await screen.findByText('Managed dialog')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });
});
