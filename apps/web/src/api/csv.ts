// Streamed CSV downloads (architecture §4: every CSV is streamed by the API with the list's filters): one request for
// every row, read as it arrives so a button can show how many of the list's rows have come, then saved under its name.
import { ApiError, buildUrl, clientTimezone, clientTimezoneOffset, type DrfErrorBody } from './client.ts';
import { getImpersonationToken, getToken } from './storage.ts';

export type CsvProgress = { rows: number; total: number };

type QueryValue = string | number | boolean | undefined | null;

/**
 * GET `path` with `format=csv` and the list's filters (no page or limit), as a Blob. Rows are counted by line ends:
 * the files this serves hold one-line fields only.
 */
export async function downloadCsv(
  path: string,
  query: Record<string, QueryValue>,
  total: number,
  onProgress: (p: CsvProgress) => void,
  signal?: AbortSignal,
): Promise<Blob> {
  const headers: Record<string, string> = {
    Accept: 'text/csv',
    Timezone: clientTimezone(),
    'Timezone-Offset': String(clientTimezoneOffset()),
  };
  const token = getImpersonationToken() ?? getToken();
  if (token) headers.Authorization = `Token ${token}`;
  const response = await fetch(
    buildUrl(path, { ...query, page: undefined, limit: undefined, format: 'csv' }),
    { headers, signal },
  );
  if (!response.ok) {
    const body = (await response.json().catch(() => ({ detail: response.statusText }))) as DrfErrorBody;
    throw new ApiError(response.status, body);
  }
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    for (const byte of value) if (byte === 10) lines++;
    // The first line is the header.
    onProgress({ rows: Math.max(0, lines - 1), total });
  }
  return new Blob(chunks as BlobPart[], { type: 'text/csv;charset=utf-8' });
}

/** Saves a Blob as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const csvProgressLabel = ({ rows, total }: CsvProgress): string =>
  total > 0 ? `Downloading ${Math.min(100, Math.round((rows / total) * 100))}%` : 'Downloading…';
