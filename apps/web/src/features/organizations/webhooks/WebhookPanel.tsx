// The Webhook tab of an organization's page (issue 27): the signing secret and the delivery log with Replay.
// The URL, token and switch stay in the organization's edit form.
import { Stack } from '@mantine/core';
import { WebhookDeliveryLog } from './WebhookDeliveryLog.tsx';
import { WebhookSecretCard } from './WebhookSecretCard.tsx';

export function WebhookPanel({ organizationId }: { organizationId: number }) {
  return (
    <Stack gap="md" data-testid="webhook-panel">
      <WebhookSecretCard organizationId={organizationId} />
      <WebhookDeliveryLog organizationId={organizationId} />
    </Stack>
  );
}
