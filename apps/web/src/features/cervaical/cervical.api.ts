// Server data of the cervical area (part 3 §7 Cervical list): the key factory, the list, one exam, the review
// documents and catalogue, reviewer agreement, and the writes (reviews, an ADMIN's final read).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CERVICAL_REVIEW_LIST_LIMIT,
  type TAdjudicationInput,
  type TCervicalDetail,
  type TCervicalDocument,
  type TCervicalListQueryInput,
  type TCervicalRow,
  type TReviewerAgreement,
  type TReviewInputRaw,
  type TReviewOptions,
} from '@sc/shared/cervical';
import type { TPaginated } from '@sc/shared/list';
import { LIST_READ_QUERY, api } from '../../api/client.ts';

/** `GET cervaical/` parameters as the web sends them (the CSV button adds format). */
export type TCervicalQuery = Omit<Partial<TCervicalListQueryInput>, 'format' | 'report_log'>;

export const cervicalKeys = {
  all: ['cervaical'] as const,
  list: (params: TCervicalQuery) => [...cervicalKeys.all, 'list', params] as const,
  byIds: (ids: readonly number[], params: TCervicalQuery) => [...cervicalKeys.all, 'ids', ids, params] as const,
  detail: (id: number) => [...cervicalKeys.all, 'detail', id] as const,
  documents: (id: number) => [...cervicalKeys.all, 'documents', id] as const,
  options: () => [...cervicalKeys.all, 'options'] as const,
  agreement: (organization: number | undefined) => [...cervicalKeys.all, 'agreement', organization ?? null] as const,
};

export function useCervicalList(params: TCervicalQuery, enabled = true) {
  return useQuery({
    queryKey: cervicalKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TCervicalRow>>('cervaical/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** POST cervaical/ids/ — exactly these exams (opened from a map with ids), paged; the list's query applies. */
export function useCervicalByIds(ids: readonly number[] | undefined, params: TCervicalQuery) {
  return useQuery({
    queryKey: cervicalKeys.byIds(ids ?? [], params),
    queryFn: ({ signal }) =>
      api.post<TPaginated<TCervicalRow>>(
        'cervaical/ids/',
        { ids_list: ids },
        { query: { ...params, ...LIST_READ_QUERY }, signal },
      ),
    placeholderData: keepPreviousData,
    enabled: ids !== undefined,
  });
}

export function useCervical(id: number | null) {
  return useQuery({
    queryKey: cervicalKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TCervicalDetail>(`cervaical/${id}/`, { signal }),
    enabled: id !== null && id > 0,
  });
}

/** GET cervaical/document/?scan=&limit=100&ordering=document_type */
export function useCervicalDocuments(examId: number | null) {
  return useQuery({
    queryKey: cervicalKeys.documents(examId ?? 0),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TCervicalDocument>>('cervaical/document/', {
        query: { scan: examId ?? 0, limit: CERVICAL_REVIEW_LIST_LIMIT, ordering: 'document_type' },
        signal,
      }),
    enabled: examId !== null && examId > 0,
  });
}

export function useReviewOptions(enabled: boolean) {
  return useQuery({
    queryKey: cervicalKeys.options(),
    queryFn: ({ signal }) => api.get<TReviewOptions>('cervaical/review-options/', { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useReviewerAgreement(organization: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: cervicalKeys.agreement(organization),
    queryFn: ({ signal }) =>
      api.list<TReviewerAgreement>('cervaical/reviewer-agreement/', { query: { organization }, signal }),
    enabled,
  });
}

/** One POST per new review, one PATCH per changed review (part 3 §7 Review save). */
export function useSaveReviews() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (reviews: TReviewInputRaw[]) => {
      for (const review of reviews) {
        if (review.id) await api.patch(`cervaical/document-user/${review.id}/`, review);
        else await api.post('cervaical/document-user/', review);
      }
    },
    onSettled: () => client.invalidateQueries({ queryKey: cervicalKeys.all }),
  });
}

export function useAdjudicate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: TAdjudicationInput }) =>
      api.post<TCervicalRow & { detail: string }>(`cervaical/${id}/adjudication/`, input),
    onSuccess: () => client.invalidateQueries({ queryKey: cervicalKeys.all }),
  });
}
