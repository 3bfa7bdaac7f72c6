// Server data of the patient area: the query-key factory, the list, one patient, the transfer dialog's reports, and
// the mutations (create, edit, delete, transfer), each invalidating the patient keys.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPaginated } from '@sc/shared/list';
import type {
  TPatient,
  TPatientCreateInput,
  TPatientListQueryInput,
  TPatientPatchInput,
  TPatientReports,
  TPatientSaved,
  TPatientTransfer,
} from '@sc/shared/patients';
import { api } from '../../api/client.ts';

/** `GET patient/` parameters as the web sends them. */
export type TPatientQuery = Partial<TPatientListQueryInput>;

export const patientKeys = {
  all: ['patient'] as const,
  lists: () => [...patientKeys.all, 'list'] as const,
  list: (params: TPatientQuery) => [...patientKeys.lists(), params] as const,
  detail: (id: number) => [...patientKeys.all, 'detail', id] as const,
  reports: (id: number) => [...patientKeys.all, 'reports', id] as const,
};

/** GET patient/ — the previous page stays on screen while the next one loads. */
export function usePatients(params: TPatientQuery) {
  return useQuery({
    queryKey: patientKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TPatient>>('patient/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET patient/{id}/ */
export function usePatient(id: number | undefined) {
  return useQuery({
    queryKey: patientKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TPatient>(`patient/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

/** GET patient/{id}/reports/ — the transfer dialog's scan, cervical and ORCA tables. */
export function usePatientReports(id: number | undefined) {
  return useQuery({
    queryKey: patientKeys.reports(id ?? 0),
    queryFn: ({ signal }) => api.get<TPatientReports>(`patient/${id}/reports/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

function useInvalidatePatients() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: patientKeys.all });
}

/** POST patient/ or PATCH patient/{id}/ — answers the patient and its success message. */
export function useSavePatient() {
  const invalidate = useInvalidatePatients();
  return useMutation({
    mutationFn: (save: { input: TPatientCreateInput } | { id: number; patch: TPatientPatchInput }) =>
      'id' in save ? api.patch<TPatientSaved>(`patient/${save.id}/`, save.patch) : api.post<TPatientSaved>('patient/', save.input),
    onSuccess: invalidate,
  });
}

/** DELETE patient/{id}/ (ADMIN). */
export function useDeletePatient() {
  const invalidate = useInvalidatePatients();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ detail: string }>(`patient/${id}/`),
    onSuccess: invalidate,
  });
}

/** POST patient/transfer/{id}/ */
export function useTransferPatient() {
  const invalidate = useInvalidatePatients();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: TPatientTransfer }) => api.post<TPatientSaved>(`patient/transfer/${id}/`, input),
    onSuccess: invalidate,
  });
}
