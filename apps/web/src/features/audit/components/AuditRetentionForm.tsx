// The audit trail's retention (issue 27), for AUDIT_SETTINGS_ROLES: keep every row (the default) or keep N days
// (AUDIT_RETENTION_MIN_DAYS to AUDIT_RETENTION_MAX_DAYS). Checked with the shared ZAuditRetention, whose message shows
// on the field, as the API's 400 does; saved with PUT audit/settings/.
import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArchive } from '@tabler/icons-react';
import { AUDIT_RETENTION_MAX_DAYS, AUDIT_RETENTION_MIN_DAYS, ZAuditRetention, type TAuditRetention } from '@sc/shared/audit';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { NumberField } from '../../../components/NumberField.tsx';
import { useAuditRetention, useSaveAuditRetention } from '../audit.api.ts';

type Mode = 'all' | 'days';

/** The request of the form's values: null keeps every row; a typed text that is not a number fails the schema. */
export function retentionInput(mode: Mode, days: number | string): { retention_days: unknown } {
  if (mode === 'all') return { retention_days: null };
  return { retention_days: days === '' ? undefined : Number(days) };
}

function apiFieldError(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const value = (error.body as Record<string, unknown> | undefined)?.retention_days;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

export function AuditRetentionForm({ current, onDone }: { current: TAuditRetention; onDone: () => void }) {
  const [mode, setMode] = useState<Mode>(current.retention_days === null ? 'all' : 'days');
  const [days, setDays] = useState<number | string>(current.retention_days ?? '');
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const save = useSaveAuditRetention();
  const serverError = apiFieldError(save.error);

  const submit = () => {
    const parsed = ZAuditRetention.safeParse(retentionInput(mode, days));
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    save.mutate(parsed.data, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: 'Retention saved.' });
        onDone();
      },
    });
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      data-testid="audit-retention-form"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Rows older than the retention are pruned; each prune is itself written to the trail.
        </Text>
        <Radio.Group
          label="Keep audit rows"
          value={mode}
          onChange={(v) => {
            setMode(v as Mode);
            setFieldError(undefined);
          }}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="all" label="Keep all rows" data-testid="audit-retention-all" />
            <Radio value="days" label="Keep a number of days" data-testid="audit-retention-days-mode" />
          </Stack>
        </Radio.Group>
        {mode === 'days' && (
          <NumberField
            label="Days"
            integer
            min={AUDIT_RETENTION_MIN_DAYS}
            max={AUDIT_RETENTION_MAX_DAYS}
            value={days}
            onChange={(v) => {
              setDays(v);
              setFieldError(undefined);
            }}
            error={fieldError ?? serverError}
            w={200}
            data-testid="audit-retention-days"
          />
        )}
        {mode === 'all' && (fieldError ?? serverError) && <Text c="red" size="sm">{fieldError ?? serverError}</Text>}
        {save.error && !serverError && (
          <Alert color="red" variant="light">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="audit-retention-save">
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The Retention button of the audit screen and its dialog. */
export function AuditRetentionButton() {
  const [opened, setOpened] = useState(false);
  const retention = useAuditRetention(opened);
  return (
    <>
      <Button variant="default" leftSection={<IconArchive size={16} />} onClick={() => setOpened(true)} data-testid="audit-retention">
        Retention
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Audit trail retention" data-testid="audit-retention-dialog">
        {opened &&
          (retention.data ? (
            <AuditRetentionForm current={retention.data} onDone={() => setOpened(false)} />
          ) : retention.error ? (
            <Alert color="red">{errorMessage(retention.error)}</Alert>
          ) : (
            <Loader size="sm" />
          ))}
      </Modal>
    </>
  );
}
