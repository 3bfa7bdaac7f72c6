import { act, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ORCA_FILE_ERROR_MS } from '@sc/shared/orca';
import { mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { OrcaFileFrame, useTransientError } from './OrcaFileFrame.tsx';

describe('OrcaFileFrame', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the error of a file that fails to load in red', async () => {
    mockFetch({ 'GET /api/v1/file/': { status: 404, body: { detail: 'Not found.' } } });
    renderWithProviders(<OrcaFileFrame path="reports/orca/orca_1.pdf" title="Report" />);
    expect(await screen.findByTestId('orca-file-error')).toHaveTextContent('Not found.');
  });

  it('keeps a file error for 3 s, then lets it go', async () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(
      ({ error }: { error: string | null }) => useTransientError(error),
      {
        initialProps: { error: null as string | null },
      },
    );
    expect(result.current).toBe(false);
    rerender({ error: 'storage/unauthorized' });
    expect(result.current).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(ORCA_FILE_ERROR_MS - 1));
    expect(result.current).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current).toBe(false);
  });
});
