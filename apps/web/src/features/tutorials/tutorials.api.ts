// Server data of the tutorial area (part 3 §7 Modules, Quizzes, Quiz options, Content): the key factory, lists
// and single reads, saves (POST create, PUT update — translations are a PUT with localize), deletes and the
// one-call reorders. Every mutation invalidates the tutorial keys.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPaginated } from '@sc/shared/list';
import type {
  TContent,
  TModule,
  TOption,
  TQuiz,
  TSaved,
} from '@sc/shared/tutorials';
import { api } from '../../api/client.ts';
import { reorderedIds, type TReorderChange } from './reorder.ts';

export type TListParams = { page?: number; limit?: number; search?: string };

export const tutorialKeys = {
  all: ['tutorial'] as const,
  modules: (params: TListParams) => [...tutorialKeys.all, 'modules', params] as const,
  module: (id: number) => [...tutorialKeys.all, 'module', id] as const,
  quizzes: (module: number, params: TListParams) => [...tutorialKeys.all, 'quizzes', module, params] as const,
  quiz: (id: number) => [...tutorialKeys.all, 'quiz', id] as const,
  contents: (module: number, params: TListParams) => [...tutorialKeys.all, 'contents', module, params] as const,
  content: (id: number) => [...tutorialKeys.all, 'content', id] as const,
};

/** GET tutorial/module/ — in z_order. */
export function useModules(params: TListParams) {
  return useQuery({
    queryKey: tutorialKeys.modules(params),
    queryFn: ({ signal }) => api.list<TPaginated<TModule>>('tutorial/module/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useModule(id: number | undefined) {
  return useQuery({
    queryKey: tutorialKeys.module(id ?? 0),
    queryFn: ({ signal }) => api.get<TModule>(`tutorial/module/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
    retry: false,
  });
}

export function useQuizzes(module: number, params: TListParams) {
  return useQuery({
    queryKey: tutorialKeys.quizzes(module, params),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TQuiz>>('tutorial/quiz/', { query: { ...params, module }, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useQuiz(id: number | undefined) {
  return useQuery({
    queryKey: tutorialKeys.quiz(id ?? 0),
    queryFn: ({ signal }) => api.get<TQuiz>(`tutorial/quiz/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
    retry: false,
  });
}

export function useContents(module: number, params: TListParams) {
  return useQuery({
    queryKey: tutorialKeys.contents(module, params),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TContent>>('tutorial/content/', { query: { ...params, module }, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useContent(id: number | undefined) {
  return useQuery({
    queryKey: tutorialKeys.content(id ?? 0),
    queryFn: ({ signal }) => api.get<TContent>(`tutorial/content/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
    retry: false,
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: tutorialKeys.all });
}

export function useSaveModule() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: object }) =>
      id ? api.put<TSaved>(`tutorial/module/${id}/`, input) : api.post<TSaved>('tutorial/module/', input),
    onSuccess,
  });
}

export function useSaveQuiz() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: object }) =>
      id ? api.put<TSaved>(`tutorial/quiz/${id}/`, input) : api.post<TSaved>('tutorial/quiz/', input),
    onSuccess,
  });
}

/** Bodies are the shared schemas' parsed output (or what they accept). Option saves run one by one when a quiz is saved in edit mode (§7), so they do not invalidate each time. */
export const saveOption = (id: number | undefined, input: object) =>
  id ? api.put<TOption>(`tutorial/quiz-option/${id}/`, input) : api.post<TOption>('tutorial/quiz-option/', input);

export function useDeleteOption() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ detail: string }>(`tutorial/quiz-option/${id}/`),
    onSuccess,
  });
}

export function useSaveContent() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: object }) =>
      id ? api.put<TSaved>(`tutorial/content/${id}/`, input) : api.post<TSaved>('tutorial/content/', input),
    onSuccess,
  });
}

export function useDeleteContent() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ detail: string }>(`tutorial/content/${id}/`),
    onSuccess,
  });
}

export type TReorderKind = 'module' | 'quiz' | 'content';

/** Every id of a list in its current order (pages of 100), for a reorder that sends the whole list. */
async function allIds(kind: TReorderKind, module?: number): Promise<number[]> {
  const path = kind === 'module' ? 'tutorial/module/' : kind === 'quiz' ? 'tutorial/quiz/' : 'tutorial/content/';
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const res = await api.get<TPaginated<{ id: number }>>(path, {
      query: { page, limit: 100, ...(module ? { module } : {}) },
    });
    ids.push(...res.results.map((r) => r.id));
    if (!res.next) return ids;
  }
}

/** PUT tutorial/{kind}/order/ with every id of the list in its new order (one call, part 3 §2; decisions). */
export function useReorder(kind: TReorderKind, module?: number) {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: async (change: TReorderChange) => {
      const order = reorderedIds(await allIds(kind, module), change);
      return api.put<{ detail: string }>(`tutorial/${kind}/order/`, kind === 'module' ? { ids: order } : { module, ids: order });
    },
    onSuccess,
  });
}
