// The webhook's signing secret (issue 27): whether the organization has one and since when, and Generate (first) or
// Rotate (after) behind a confirm. The new secret is shown once, in a copyable field, with the warning that it will
// not be shown again; closing the dialog forgets it. How a receiver checks a delivery is summed up under it.
import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import {
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_SIGNATURE_VERSION,
  WEBHOOK_TIMESTAMP_HEADER,
  type TWebhookSecretCreated,
} from '@sc/shared/webhooks';
import { errorMessage } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { formatDateTime } from '../../../components/dateTime.ts';
import { useCreateWebhookSecret, useWebhookSecretStatus } from './webhooks.api.ts';

export const SECRET_TEXTS = {
  generate: 'Generate secret',
  rotate: 'Rotate secret',
  confirmGenerate: 'Generate a signing secret for this organization’s webhook? It is shown once, when it is made.',
  confirmRotate:
    'Rotate the signing secret? The current secret stops working at once: deliveries from now on are signed with the new one, so update your receiver straight away.',
  onceWarning: 'Copy this secret now and keep it safe. It will not be shown again.',
  none: 'No secret yet: one is made at the first delivery. Generate one to copy it.',
} as const;

export function WebhookSecretCard({ organizationId }: { organizationId: number }) {
  const status = useWebhookSecretStatus(organizationId);
  const create = useCreateWebhookSecret(organizationId);
  const [confirming, setConfirming] = useState(false);
  const [shown, setShown] = useState<TWebhookSecretCreated | null>(null);
  const configured = status.data?.configured === true;

  const onConfirm = () => {
    create.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirming(false);
        setShown(answer);
      },
    });
  };

  return (
    <Paper withBorder p="md" data-testid="webhook-secret">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ flex: '1 1 260px' }}>
            <Title order={2} size="h4">
              Signing secret
            </Title>
            <Text size="sm" c="dimmed" data-testid="webhook-secret-status">
              {status.isError
                ? errorMessage(status.error)
                : !status.data
                  ? 'Loading…'
                  : configured && status.data.created
                    ? `Secret in use since ${formatDateTime(status.data.created)}. Secrets are shown only when made; lost it? Rotate it.`
                    : SECRET_TEXTS.none}
            </Text>
          </Stack>
          <Button
            variant="light"
            leftSection={<IconKey size={16} />}
            onClick={() => setConfirming(true)}
            disabled={!status.data}
            data-testid="webhook-secret-button"
          >
            {configured ? SECRET_TEXTS.rotate : SECRET_TEXTS.generate}
          </Button>
        </Group>
        <Text size="xs" c="dimmed" data-testid="webhook-signature-help">
          Each delivery carries <code>{WEBHOOK_TIMESTAMP_HEADER}</code> (Unix seconds) and{' '}
          <code>
            {WEBHOOK_SIGNATURE_HEADER}: {WEBHOOK_SIGNATURE_VERSION}=&lt;hex&gt;
          </code>
          , the HMAC-SHA256 of <code>timestamp.body</code> with this secret. Check it over the raw body and refuse a
          timestamp more than {WEBHOOK_SIGNATURE_TOLERANCE_SECONDS / 60} minutes old.
        </Text>
      </Stack>

      <ConfirmDialog
        opened={confirming}
        loading={create.isPending}
        title={configured ? SECRET_TEXTS.rotate : SECRET_TEXTS.generate}
        message={
          <>
            {configured ? SECRET_TEXTS.confirmRotate : SECRET_TEXTS.confirmGenerate}
            {create.isError && (
              <Text span c="red" size="sm" display="block" mt="xs" data-testid="webhook-secret-error">
                {errorMessage(create.error)}
              </Text>
            )}
          </>
        }
        confirmLabel={configured ? 'Rotate' : 'Generate'}
        danger={configured}
        onConfirm={onConfirm}
        onCancel={() => {
          setConfirming(false);
          create.reset();
        }}
      />
      <SecretOnceDialog secret={shown} onClose={() => setShown(null)} />
    </Paper>
  );
}

/** The new secret, this once: a read-only field with Copy, the warning, and Done. */
export function SecretOnceDialog({ secret, onClose }: { secret: TWebhookSecretCreated | null; onClose: () => void }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Your new signing secret" size="lg" data-testid="webhook-secret-dialog">
      {secret && (
        <Stack gap="md">
          <Text size="sm">{secret.detail}</Text>
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="webhook-secret-warning">
            {SECRET_TEXTS.onceWarning}
          </Alert>
          <Stack gap={6}>
            <Text size="sm" fw={600} id="webhook-secret-label">
              Secret
            </Text>
            {/* The whole secret, wrapped on a phone, so it can be read or selected as well as copied. */}
            <Code block aria-labelledby="webhook-secret-label" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="webhook-secret-value">
              {secret.secret}
            </Code>
          </Stack>
          <Group justify="flex-end" gap="xs">
            <CopyButton value={secret.secret}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'filled' : 'light'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                  data-testid="webhook-secret-copy"
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose} data-testid="webhook-secret-done">
              Done
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
