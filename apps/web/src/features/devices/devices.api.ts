// Server data of the device area: the query-key factory, the list and detail hooks, the mutations (each
// invalidates the device keys) and the serial-number lookup. The CSV download is the shared CsvDownloadButton.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TDevice,
  TDeviceInput,
  TDeviceLinkInput,
  TDeviceLinkPatch,
  TDeviceLinkSaved,
  TDeviceListQuery,
  TDeviceSaved,
} from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../api/client.ts';

/** `GET device/` parameters as the web sends them. */
export type TDeviceQuery = Partial<Omit<TDeviceListQuery, 'format'>>;

export const deviceKeys = {
  all: ['device'] as const,
  lists: () => [...deviceKeys.all, 'list'] as const,
  list: (params: TDeviceQuery) => [...deviceKeys.lists(), params] as const,
  detail: (id: number) => [...deviceKeys.all, 'detail', id] as const,
};

/** GET device/ — the previous page stays on screen while the next one loads. */
export function useDevices(params: TDeviceQuery) {
  return useQuery({
    queryKey: deviceKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TDevice>>('device/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET device/{id}/ */
export function useDevice(id: number | undefined) {
  return useQuery({
    queryKey: deviceKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TDevice>(`device/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

/** Device lookup by serial number (part 2 §7): the existing device, or null. */
export async function findDeviceBySerial(serialNumber: string): Promise<TDevice | null> {
  const answer = await api.list<TPaginated<TDevice>>('device/', { query: { serial_number: serialNumber, limit: 1 } });
  return answer.count > 0 ? (answer.results[0] ?? null) : null;
}

function useInvalidateDevices() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: deviceKeys.all });
}

/** POST device/ or PUT device/{id}/ — answers the device and its success message. */
export function useSaveDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: TDeviceInput }) =>
      id === undefined ? api.post<TDeviceSaved>('device/', input) : api.put<TDeviceSaved>(`device/${id}/`, input),
    onSuccess: invalidate,
  });
}

/** POST organization/device/ (link) or PATCH organization/device/{linkId}/ (transfer, unassign with null). */
export function useChangeDeviceLink() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (change: { link: TDeviceLinkInput } | { linkId: number; patch: TDeviceLinkPatch }) =>
      'link' in change
        ? api.post<TDeviceLinkSaved>('organization/device/', change.link)
        : api.patch<TDeviceLinkSaved>(`organization/device/${change.linkId}/`, change.patch),
    onSuccess: invalidate,
  });
}
