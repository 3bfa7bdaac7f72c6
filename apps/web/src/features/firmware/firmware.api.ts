// Server data of the firmware area (part 3 §7 Firmware): the query-key factory, the list, one version, the
// version check the modal makes before create, the multipart create, the download and the delete.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  firmwareFileName,
  type TFirmware,
  type TFirmwareCreated,
  type TFirmwareListQuery,
} from '@sc/shared/firmware';
import type { TPaginated } from '@sc/shared/list';
import { API_BASE, ApiError, api, clientTimezone, clientTimezoneOffset, type DrfErrorBody } from '../../api/client.ts';
import { saveBlob } from '../../api/csv.ts';
import { getImpersonationToken, getToken } from '../../api/storage.ts';

export type TFirmwareQuery = Partial<TFirmwareListQuery>;

export const firmwareKeys = {
  all: ['firmware'] as const,
  lists: () => [...firmwareKeys.all, 'list'] as const,
  list: (params: TFirmwareQuery) => [...firmwareKeys.lists(), params] as const,
  detail: (id: number) => [...firmwareKeys.all, 'detail', id] as const,
};

/** GET firmware/ — the previous page stays on screen while the next one loads. */
export function useFirmwareList(params: TFirmwareQuery) {
  return useQuery({
    queryKey: firmwareKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TFirmware>>('firmware/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET firmware/{id}/ */
export function useFirmware(id: number | undefined) {
  return useQuery({
    queryKey: firmwareKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TFirmware>(`firmware/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

/** True when `version` is on record (GET firmware/?version=, in version order): 'already exists' before create. */
export async function isFirmwareVersionTaken(version: string): Promise<boolean> {
  const page = await api.get<TPaginated<TFirmware>>('firmware/', { query: { version, limit: 1 } });
  return page.count > 0;
}

function headers(method: 'GET' | 'POST'): Record<string, string> {
  const out: Record<string, string> = { Timezone: clientTimezone(), 'Timezone-Offset': String(clientTimezoneOffset()) };
  // The impersonation token is read-only on the server: reads only.
  const impersonation = getImpersonationToken();
  const token = impersonation && method === 'GET' ? impersonation : getToken();
  if (token) out.Authorization = `Token ${token}`;
  return out;
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

/** POST firmware/ (multipart: the file and the version read from it). */
export async function postFirmware(file: File, version: string): Promise<TFirmwareCreated> {
  const form = new FormData();
  form.append('version', version);
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/firmware/`, { method: 'POST', headers: headers('POST'), body: form });
  } catch {
    throw new ApiError(0, { detail: 'Unable to reach the server. Check your connection and try again.' });
  }
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as TFirmwareCreated;
}

export function useCreateFirmware() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, version }: { file: File; version: string }) => postFirmware(file, version),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: firmwareKeys.all }),
  });
}

/** DELETE firmware/{id}/ (ADMIN). */
export function useDeleteFirmware() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ detail: string }>(`firmware/${id}/`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: firmwareKeys.all }),
  });
}

/** GET firmware/{id}/download/ with the session's token, saved as firmware_{version}.ibe. */
export async function downloadFirmware(firmware: Pick<TFirmware, 'url' | 'version'>): Promise<void> {
  let response: Response;
  try {
    response = await fetch(firmware.url, { headers: headers('GET') });
  } catch {
    throw new ApiError(0, { detail: 'Unable to reach the server. Check your connection and try again.' });
  }
  if (!response.ok) throw await errorOf(response);
  saveBlob(await response.blob(), firmwareFileName(firmware.version));
}
