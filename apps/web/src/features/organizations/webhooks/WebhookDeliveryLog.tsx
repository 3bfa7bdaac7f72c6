// An organization's webhook delivery log (issue 27): newest first, filtered by status, event and a period; each row
// with its status, event, when it was made, attempts, the last answer or error and how long the last attempt took.
// Replay sends a finished delivery again (a new row, "replay of #n"); "Replay a period" sends again every finished
// delivery made in a date range, optionally of one status (the API refuses more than WEBHOOK_REPLAY_MAX).
import { useState } from 'react';
import { Badge, Button, Group, Modal, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue, type DateStringValue } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { IconCalendarRepeat, IconRepeat } from '@tabler/icons-react';
import { DEFAULT_PAGE_SIZE } from '@sc/shared/constants';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENTS,
  WEBHOOK_REPLAY_MAX,
  WEBHOOK_REPLAY_STATUSES,
  type TWebhookDelivery,
} from '@sc/shared/webhooks';
import { errorMessage } from '../../../api/client.ts';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListTable, emptyText, type ListColumn } from '../../../components/list/ListTable.tsx';
import { toApiDate } from '../../../components/list/periods.ts';
import { useReplayDelivery, useReplayPeriod, useWebhookDeliveries, type TDeliveryLogParams } from './webhooks.api.ts';

type TStatus = TWebhookDelivery['status'];

export const STATUS_COLORS: Record<TStatus, string> = { pending: 'blue', delivered: 'green.9', failed: 'red.9' };
const STATUS_LABELS: Record<TStatus, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };
const EVENT_LABELS: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  'scan.created': 'Scan created',
  'follow_up_case.status_changed': 'Follow-up status changed',
};

/** The last answer: 'HTTP 500: …', the error alone, or '200' for a delivered one. */
function lastOutcome(d: TWebhookDelivery): string {
  if (d.last_error) return d.last_error;
  if (d.last_status_code !== null) return `HTTP ${d.last_status_code}`;
  return '—';
}

const formatDuration = (ms: number | null): string =>
  ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

export function WebhookDeliveryLog({ organizationId }: { organizationId: number }) {
  const [params, setParams] = useState<TDeliveryLogParams>({ page: 1, limit: DEFAULT_PAGE_SIZE });
  const [range, setRange] = useState<DatesRangeValue<DateStringValue>>([null, null]);
  const [periodOpen, setPeriodOpen] = useState(false);
  const log = useWebhookDeliveries(organizationId, params);
  const replay = useReplayDelivery(organizationId);
  const filtered = Boolean(params.status || params.event || params.created_after);

  const update = (next: Partial<TDeliveryLogParams>) => setParams((p) => ({ ...p, page: 1, ...next }));

  const onReplay = (d: TWebhookDelivery) =>
    replay.mutate(d.id, {
      onSuccess: (answer) => notifications.show({ color: 'green', message: `${answer.detail} (#${answer.delivery.id})` }),
      onError: (err) => notifications.show({ color: 'red', message: errorMessage(err) }),
    });

  const columns: ListColumn<TWebhookDelivery>[] = [
    {
      accessor: 'status',
      title: 'Status',
      render: (d) => (
        <Badge color={STATUS_COLORS[d.status]} variant="filled" data-testid={`delivery-status-${d.id}`}>
          {STATUS_LABELS[d.status]}
        </Badge>
      ),
    },
    {
      accessor: 'event',
      title: 'Event',
      render: (d) => (
        <Stack gap={0}>
          <Text size="sm">{EVENT_LABELS[d.event as keyof typeof EVENT_LABELS] ?? d.event}</Text>
          <Text size="xs" c="dimmed">
            #{d.id}
            {d.scan !== null ? ` · scan ${d.scan}` : ''}
            {d.replay_of !== null ? ` · replay of #${d.replay_of}` : ''}
          </Text>
        </Stack>
      ),
    },
    { accessor: 'created', title: 'Created', render: (d) => <ListDate value={d.created} /> },
    { accessor: 'attempts', title: 'Attempts', textAlign: 'right', hideOnPhone: true },
    {
      accessor: 'last_error',
      title: 'Last answer',
      hideOnPhone: true,
      priority: 2,
      render: (d) => (
        <Text size="sm" lineClamp={2} title={lastOutcome(d)} c={d.last_error ? 'red.9' : undefined} maw={320}>
          {lastOutcome(d)}
        </Text>
      ),
    },
    {
      accessor: 'duration_ms',
      title: 'Duration',
      textAlign: 'right',
      hideOnPhone: true,
      priority: 3,
      render: (d) => formatDuration(d.duration_ms),
    },
  ];

  return (
    <Paper withBorder data-testid="webhook-log">
      <Stack gap="sm" p="md" pb={0}>
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h4">
            Delivery log
          </Title>
          <Button
            variant="light"
            leftSection={<IconCalendarRepeat size={16} />}
            onClick={() => setPeriodOpen(true)}
            data-testid="webhook-replay-period"
          >
            Replay a period
          </Button>
        </Group>
        <Group gap="sm" align="flex-end">
          <Select
            label="Status"
            placeholder="All"
            clearable
            data={WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
            value={params.status ?? null}
            onChange={(v) => update({ status: (v as TStatus | null) ?? undefined })}
            w={150}
            data-testid="webhook-log-status"
          />
          <Select
            label="Event"
            placeholder="All"
            clearable
            data={WEBHOOK_EVENTS.map((e) => ({ value: e, label: EVENT_LABELS[e] }))}
            value={params.event ?? null}
            onChange={(v) => update({ event: (v as (typeof WEBHOOK_EVENTS)[number] | null) ?? undefined })}
            w={220}
            data-testid="webhook-log-event"
          />
          <DatePickerInput
            type="range"
            label="Created"
            placeholder="Any time"
            clearable
            maxDate={new Date()}
            value={range}
            onChange={(v) => {
              setRange(v);
              const [from, to] = v;
              if ((from && to) || (!from && !to)) {
                update({ created_after: from ? toApiDate(from) : undefined, created_before: to ? toApiDate(to) : undefined });
              }
            }}
            w={260}
            data-testid="webhook-log-period"
          />
        </Group>
      </Stack>
      {log.isError ? (
        <Text c="red" p="md">
          {errorMessage(log.error)}
        </Text>
      ) : (
        <ListTable
          records={log.data?.results}
          columns={columns}
          fetching={log.isFetching}
          emptyText={emptyText('deliveries', filtered)}
          rowActions={(d) =>
            d.status === 'pending' ? [] : [{ label: 'Replay', icon: <IconRepeat size={14} />, onClick: () => onReplay(d) }]
          }
          rowLabel={(d) => `Actions: delivery #${d.id}`}
          testId="webhook-log-table"
        />
      )}
      <ListFooter
        page={params.page ?? 1}
        limit={params.limit ?? DEFAULT_PAGE_SIZE}
        total={log.data?.count ?? 0}
        onPageChange={(page) => setParams((p) => ({ ...p, page }))}
        onLimitChange={(limit) => update({ limit })}
      />
      <ReplayPeriodDialog organizationId={organizationId} opened={periodOpen} onClose={() => setPeriodOpen(false)} />
    </Paper>
  );
}

function ReplayPeriodDialog({ organizationId, opened, onClose }: { organizationId: number; opened: boolean; onClose: () => void }) {
  const [range, setRange] = useState<DatesRangeValue<DateStringValue>>([null, null]);
  const [status, setStatus] = useState<string | null>(null);
  const mutation = useReplayPeriod(organizationId);
  const [from, to] = range;
  const close = () => {
    mutation.reset();
    onClose();
  };
  const submit = () => {
    if (!from) return;
    mutation.mutate(
      {
        created_after: toApiDate(from),
        created_before: toApiDate(to ?? from),
        status: (status as (typeof WEBHOOK_REPLAY_STATUSES)[number] | null) ?? undefined,
      },
      {
        onSuccess: (answer) => {
          notifications.show({ color: 'green', message: `${answer.detail} (${answer.queued})` });
          close();
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title="Replay a period" data-testid="webhook-replay-dialog">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Sends again every delivered or failed delivery made in these days, as new deliveries, signed with the current
          secret. At most {WEBHOOK_REPLAY_MAX.toLocaleString('en-US')} at a time.
        </Text>
        <DatePickerInput
          type="range"
          label="Created between"
          placeholder="Pick the days"
          allowSingleDateInRange
          maxDate={new Date()}
          value={range}
          onChange={setRange}
          data-testid="webhook-replay-range"
        />
        <Select
          label="Status"
          placeholder="Delivered and failed"
          clearable
          data={WEBHOOK_REPLAY_STATUSES.map((s) => ({ value: s, label: `${STATUS_LABELS[s]} only` }))}
          value={status}
          onChange={setStatus}
          data-testid="webhook-replay-status"
        />
        {mutation.isError && (
          <Text c="red" size="sm" data-testid="webhook-replay-error">
            {errorMessage(mutation.error)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={!from} loading={mutation.isPending} data-testid="webhook-replay-submit">
            Replay
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
