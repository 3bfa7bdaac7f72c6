// Server data of an organization's webhook settings (issue 27): the signing secret's status and its once-shown
// creation, the delivery log, and Replay of one delivery or a period. Mutations reload the log and the status.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPaginated } from '@sc/shared/list';
import type {
  TWebhookDelivery,
  TWebhookDeliveryListQuery,
  TWebhookPeriodReplayInput,
  TWebhookPeriodReplayed,
  TWebhookReplayed,
  TWebhookSecretCreated,
  TWebhookSecretStatus,
} from '@sc/shared/webhooks';
import { api } from '../../../api/client.ts';

export type TDeliveryLogParams = Partial<
  Pick<TWebhookDeliveryListQuery, 'page' | 'limit' | 'status' | 'event' | 'created_after' | 'created_before'>
>;

export const webhookKeys = {
  all: (organization: number) => ['organization', 'webhook', organization] as const,
  secret: (organization: number) => [...webhookKeys.all(organization), 'secret'] as const,
  log: (organization: number, params: TDeliveryLogParams) => [...webhookKeys.all(organization), 'log', params] as const,
};

/** GET organization/{id}/webhook/secret/ — whether a secret exists and since when (never the secret). */
export function useWebhookSecretStatus(organization: number) {
  return useQuery({
    queryKey: webhookKeys.secret(organization),
    queryFn: ({ signal }) => api.get<TWebhookSecretStatus>(`organization/${organization}/webhook/secret/`, { signal }),
  });
}

/** POST organization/{id}/webhook/secret/ — makes or rotates the secret; the answer is the only time it is shown. */
export function useCreateWebhookSecret(organization: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<TWebhookSecretCreated>(`organization/${organization}/webhook/secret/`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.secret(organization) }),
  });
}

/** GET organization/webhook-deliveries/?organization= — newest first. */
export function useWebhookDeliveries(organization: number, params: TDeliveryLogParams) {
  return useQuery({
    queryKey: webhookKeys.log(organization, params),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TWebhookDelivery>>('organization/webhook-deliveries/', {
        query: { organization, ...params },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateLog(organization: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [...webhookKeys.all(organization), 'log'] });
}

/** POST organization/webhook-deliveries/{id}/replay/ */
export function useReplayDelivery(organization: number) {
  const invalidate = useInvalidateLog(organization);
  return useMutation({
    mutationFn: (id: number) => api.post<TWebhookReplayed>(`organization/webhook-deliveries/${id}/replay/`, {}),
    onSuccess: invalidate,
  });
}

/** POST organization/webhook-deliveries/replay/ */
export function useReplayPeriod(organization: number) {
  const invalidate = useInvalidateLog(organization);
  return useMutation({
    mutationFn: (input: Omit<TWebhookPeriodReplayInput, 'organization'>) =>
      api.post<TWebhookPeriodReplayed>('organization/webhook-deliveries/replay/', { organization, ...input }),
    onSuccess: invalidate,
  });
}
