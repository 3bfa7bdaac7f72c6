import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { fileNameFromDisposition } from '../api/csv.ts';
import { CsvDownloadButton, csvRowsLabel } from './CsvDownloadButton.tsx';

/**
 * Stubs fetch with a CSV answer streamed in the chunks given: the header and `rows` lines arrive at once, then the
 * stream stays open until `finish()` is called, so the button's progress can be read mid-download.
 */
function streamCsv(rows: number, headers: Record<string, string> = {}) {
  let finish = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const lines = ['id,name', ...Array.from({ length: rows }, (_, i) => `${i + 1},row ${i + 1}`)];
      controller.enqueue(new TextEncoder().encode(`${lines.join('\n')}\n`));
      finish = () => controller.close();
    },
  });
  const fetchMock = vi.fn(
    async () =>
      new Response(body, { status: 200, headers: { 'content-type': 'text/csv', ...headers } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, finish: () => finish() };
}

function renderButton(props: Partial<Parameters<typeof CsvDownloadButton>[0]> = {}) {
  renderWithProviders(
    <CsvDownloadButton path="scan/" query={{ search: 'ra' }} total={200} filename="scans.csv" testId="csv" {...props} />,
  );
  return screen.getByTestId('csv');
}

describe('CsvDownloadButton', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  // jsdom has no object URLs; saving the file is not what these tests read.
  const stubSave = () => {
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = vi.fn(() => 'blob:csv');
        static override revokeObjectURL = vi.fn();
      },
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  };

  it('shows the percentage of the list count while the rows arrive', async () => {
    stubSave();
    const { finish } = streamCsv(50);
    const button = renderButton();
    await userEvent.click(button);
    await waitFor(() => expect(button).toHaveTextContent('Downloading 25%'));
    expect(button).toBeDisabled();
    finish();
    await waitFor(() => expect(button).toHaveTextContent('Download CSV'));
  });

  it('with a capped count shows the rows received so far, not a percentage of a wrong total', async () => {
    stubSave();
    const { finish } = streamCsv(250);
    const button = renderButton({ capped: true });
    await userEvent.click(button);
    await waitFor(() => expect(button).toHaveTextContent('Downloading… 250 rows'));
    expect(button).not.toHaveTextContent('%');
    finish();
    await waitFor(() => expect(button).toHaveTextContent('Download CSV'));
  });

  // Issue 23.14: the server names the file with the period it holds; the console keeps that name.
  it("saves the file under the server's name, or its own when the server gives none", async () => {
    stubSave();
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const served = streamCsv(1, {
      'content-disposition':
        'attachment; filename="Clinica_scan_details_2026-11-01_2026-11-27.csv"; ' +
        "filename*=UTF-8''Cl%C3%ADnica_scan_details_2026-11-01_2026-11-27.csv",
    });
    const button = renderButton();
    await userEvent.click(button);
    served.finish();
    await waitFor(() => expect(names).toEqual(['Clínica_scan_details_2026-11-01_2026-11-27.csv']));
    await waitFor(() => expect(button).toHaveTextContent('Download CSV'));
    streamCsv(1).finish();
    await userEvent.click(button);
    await waitFor(() => expect(names).toHaveLength(2));
    expect(names[1]).toBe('scans.csv');
  });

  it.each([
    ['attachment; filename=device_details_2026-11-27.csv', 'device_details_2026-11-27.csv'],
    ['attachment; filename="a \\"b\\".csv"', 'a "b".csv'],
    [null, null],
  ])('fileNameFromDisposition(%j) is %j', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });

  it.each([
    [0, 'Downloading…'],
    [1, 'Downloading… 1 row'],
    [1234, 'Downloading… 1234 rows'],
  ])('csvRowsLabel(%i) is %j', (rows, label) => {
    expect(csvRowsLabel(rows)).toBe(label);
  });
});
