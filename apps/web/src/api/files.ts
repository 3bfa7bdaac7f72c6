// Uploads (POST file/upload/, multipart) and stored files (GET file/?path=). Both need the Authorization header,
// which an <img src> cannot send, so images are fetched into blob URLs by `useFileObjectUrl`.
import { useEffect, useState } from 'react';
import { fileUrl, type TFileUploadResult, type TUploadFolder } from '@sc/shared/files';
import { API_BASE, ApiError, clientTimezone, clientTimezoneOffset, type DrfErrorBody } from './client.ts';
import { getImpersonationToken, getToken } from './storage.ts';

function headersFor(method: 'GET' | 'POST'): Record<string, string> {
  const headers: Record<string, string> = {
    Timezone: clientTimezone(),
    'Timezone-Offset': String(clientTimezoneOffset()),
  };
  // The impersonation token is read-only on the server: reads only.
  const impersonation = getImpersonationToken();
  const token = impersonation && method === 'GET' ? impersonation : getToken();
  if (token) headers.Authorization = `Token ${token}`;
  return headers;
}

async function errorOf(response: Response): Promise<ApiError> {
  let body: DrfErrorBody;
  try {
    body = (await response.json()) as DrfErrorBody;
  } catch {
    body = { detail: response.statusText || `HTTP ${response.status}` };
  }
  return new ApiError(response.status, body);
}

/** POST file/upload/ with `file` and `folder`; answers the stored path and its URL. */
export async function uploadFile(
  file: Blob,
  folder: TUploadFolder,
  fileName = file instanceof File ? file.name : 'image.jpg',
): Promise<TFileUploadResult> {
  const form = new FormData();
  // The folder first: the API applies the folder's size limit while it reads the file.
  form.append('folder', folder);
  form.append('file', file, fileName);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/file/upload/`, { method: 'POST', headers: headersFor('POST'), body: form });
  } catch {
    throw new ApiError(0, { detail: 'Unable to reach the server. Check your connection and try again.' });
  }
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as TFileUploadResult;
}

/** GET file/?path= as a Blob. */
export async function fetchFileBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const response = await fetch(fileUrl(path), { headers: headersFor('GET'), signal });
  if (!response.ok) throw await errorOf(response);
  return response.blob();
}

export type FileObjectUrl = { url: string | null; loading: boolean; error: string | null };

/** A blob: URL for a stored file, fetched with the session's token; revoked when the path changes or on unmount. */
export function useFileObjectUrl(path: string | null | undefined): FileObjectUrl {
  const [state, setState] = useState<FileObjectUrl>({ url: null, loading: false, error: null });

  useEffect(() => {
    if (!path) {
      setState({ url: null, loading: false, error: null });
      return;
    }
    const controller = new AbortController();
    let objectUrl: string | null = null;
    setState({ url: null, loading: true, error: null });
    fetchFileBlob(path, controller.signal).then(
      (blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ url: objectUrl, loading: false, error: null });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ url: null, loading: false, error: error instanceof Error ? error.message : 'The image could not be loaded.' });
      },
    );
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path]);

  return state;
}
