// Streamed CSV downloads (architecture §4: every CSV is streamed by the API with the list's filters): one request for
// every row, read as it arrives so a button can show how many of the list's rows have come, then saved under its name.
import { ApiError, buildUrl, clientTimezone, clientTimezoneOffset, type DrfErrorBody } from './client.ts';
import { getImpersonationToken, getToken } from './storage.ts';

export type CsvProgress = { rows: number; total: number };

/** A downloaded CSV and the name the server gave it (null when it gave none). */
export type CsvDownload = { blob: Blob; filename: string | null };

/**
 * The file name of a Content-Disposition header (RFC 6266): the UTF-8 `filename*` when present (an organization's
 * name outside ASCII), else `filename`, quoted or not; null without one. The server names each CSV with the period
 * it holds (issue 23.14), so the console saves it under that name rather than one of its own.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const quoted = /filename\s*=\s*"((?:\\.|[^"\\])*)"/i.exec(header);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  const token = /filename\s*=\s*([^;\s]+)/i.exec(header);
  return token?.[1] ?? null;
}

type QueryValue = string | number | boolean | undefined | null;

/**
 * GET `path` with `format=csv` and the list's filters (no page or limit), as a Blob with the server's file name.
 * Rows are counted by line ends: the files this serves hold one-line fields only.
 */
export async function downloadCsv(
  path: string,
  query: Record<string, QueryValue>,
  total: number,
  onProgress: (p: CsvProgress) => void,
  signal?: AbortSignal,
): Promise<CsvDownload> {
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
  const filename = fileNameFromDisposition(response.headers.get('content-disposition'));
  if (!response.body) return { blob: await response.blob(), filename };
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
  return { blob: new Blob(chunks as BlobPart[], { type: 'text/csv;charset=utf-8' }), filename };
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
