// The device list (part 2 §2.4; fleet health from issue 7): filter All Devices / Un-linked / Linked, silent devices,
// search by serial number, the six time tabs, Create and Download CSV by role, and a table with the organization
// link, scan count, last sync and firmware. Row actions Details / Link Organization / Unassign / Transfer follow
// part 2 §6 (`deviceRowActions`). Embedded in an organization's Devices tab it lists that organization's devices.
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Checkbox, Group, Select, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsExchange, IconEye, IconLink, IconLinkOff, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { z } from 'zod';
import {
  DEVICE_MESSAGES,
  SILENT_AFTER_DAYS,
  canDevice,
  deviceRowActions,
  type TDevice,
  type TDeviceRowAction,
} from '@sc/shared/devices';
import type { TUserType } from '@sc/shared/roles';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, emptyText, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { periodToQuery } from '../../../components/list/periods.ts';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useChangeDeviceLink, useDevices, type TDeviceQuery } from '../devices.api.ts';
import { DeviceCsvButton } from './DeviceCsvButton.tsx';
import { DeviceFormDialog, type DeviceFormView } from './DeviceFormDialog.tsx';
import { DeviceLinkDialog, type DeviceLinkMode } from './DeviceLinkDialog.tsx';

export const DEVICE_FILTERS = [
  { value: 'all', label: 'All Devices' },
  { value: 'unlinked', label: 'Un-linked' },
  { value: 'linked', label: 'Linked' },
] as const;

export const ZDeviceListParams = listParamsSchema({
  link: z.enum(['all', 'unlinked', 'linked']).catch('all'),
  silent: z.enum(['true']).optional().catch(undefined),
});
export type TDeviceListState = z.infer<typeof ZDeviceListParams>;

const LIST_DEFAULTS: Partial<TDeviceListState> = { ordering: '-created' };

/** URL state → `GET device/` parameters. The period filters the device's creation date. */
export function toDeviceQuery(state: TDeviceListState, organizationId?: number): TDeviceQuery {
  return {
    page: state.page,
    limit: state.limit,
    ordering: state.ordering,
    ...(state.search ? { search: state.search } : {}),
    ...(organizationId === undefined ? {} : { organization_id: organizationId }),
    ...(organizationId === undefined && state.link === 'linked' ? { linked: true } : {}),
    ...(organizationId === undefined && state.link === 'unlinked' ? { unlinked: true } : {}),
    ...(state.silent ? { silent: true } : {}),
    ...periodToQuery(state, 'date_time'),
  };
}

const ACTION_LABELS: Record<Exclude<TDeviceRowAction, 'details'>, string> = {
  link: 'Link Organization',
  unassign: 'Unassign',
  transfer: 'Transfer',
};

type DeviceListProps = {
  /** Inside an organization page: no title, no link filter, no organization column. */
  embedded?: boolean;
  organizationId?: number;
  title?: string;
};

export function DeviceList({ embedded = false, organizationId, title = 'Devices' }: DeviceListProps) {
  const user = useSessionUser();
  const role: TUserType = user.user_type;
  const { params, setParams, hasFilters } = useListParams(ZDeviceListParams, LIST_DEFAULTS);
  const apiQuery = toDeviceQuery(params, organizationId);
  const query = useDevices(apiQuery);
  const change = useChangeDeviceLink();
  const [form, setForm] = useState<DeviceFormView | null>(null);
  const [linking, setLinking] = useState<{ device: TDevice; mode: DeviceLinkMode } | null>(null);

  // A new device is unlinked: it would not appear in an organization's tab, so Create is in the global view.
  const mayCreate = !embedded && canDevice(role, 'device.create');
  const mayDownload = canDevice(role, 'device.csv');

  const unassign = async (device: TDevice) => {
    const linkId = device.organization_device_id;
    if (linkId === null) return;
    const ok = await confirm({ message: DEVICE_MESSAGES.unassignConfirm(device.serial_number), confirmLabel: 'Unassign', danger: true });
    if (!ok) return;
    try {
      const saved = await change.mutateAsync({ linkId, patch: { organization: null } });
      notifications.show({ color: 'teal', message: saved.detail || DEVICE_MESSAGES.unassigned });
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status >= 500))) {
        notifications.show({ color: 'red', message: errorMessage(error) });
      }
    }
  };

  const rowActions = (device: TDevice): RowAction[] =>
    deviceRowActions(role, device, { embedded }).map((action) => {
      switch (action) {
        case 'details':
          return { label: 'Details', icon: <IconEye size={16} />, onClick: () => setForm({ mode: 'details', deviceId: device.id }) };
        case 'link':
          return { label: ACTION_LABELS.link, icon: <IconLink size={16} />, onClick: () => setLinking({ device, mode: 'link' }) };
        case 'unassign':
          return { label: ACTION_LABELS.unassign, icon: <IconLinkOff size={16} />, color: 'red', onClick: () => void unassign(device) };
        case 'transfer':
          return { label: ACTION_LABELS.transfer, icon: <IconArrowsExchange size={16} />, onClick: () => setLinking({ device, mode: 'transfer' }) };
      }
    });

  const columns: ListColumn<TDevice>[] = [
    {
      accessor: 'serial_number',
      title: 'Serial number',
      sortable: true,
      render: (device) => (
        // The badge goes under the serial when the column is narrow (a phone), rather than being clipped.
        <Group gap={4} wrap="wrap">
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {device.serial_number}
          </Text>
          {device.is_silent && (
            <Tooltip label={`No upload for more than ${SILENT_AFTER_DAYS} days`}>
              <Badge size="xs" color="gray" variant="light" data-testid={`device-silent-${device.id}`}>
                Silent
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
    { accessor: 'created', title: 'Created', sortable: true, render: (device) => <ListDate value={device.created} />, hideOnPhone: true },
    ...(embedded
      ? []
      : [
          {
            accessor: 'organization_name',
            title: 'Organization',
            sortable: true,
            render: (device: TDevice) =>
              device.organization === null ? (
                <Text size="sm" c="dimmed">
                  Not linked
                </Text>
              ) : (
                <Anchor component={Link} to={`/organization/${device.organization}`} size="sm">
                  {device.organization_name}
                </Anchor>
              ),
          } satisfies ListColumn<TDevice>,
        ]),
    { accessor: 'scan_count', title: 'Scan count', sortable: true, textAlign: 'right' },
    {
      accessor: 'last_sync_date',
      title: 'Last sync',
      sortable: true,
      render: (device) => (device.last_sync_date ? <ListDate value={device.last_sync_date} /> : <Text size="sm" c="dimmed">Never</Text>),
    },
    {
      accessor: 'software_version',
      title: 'Firmware',
      sortable: true,
      hideOnPhone: true,
      render: (device) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{device.software_version ?? '—'}</Text>
          {device.is_firmware_outdated && (
            <Tooltip label={`Latest firmware: ${device.latest_firmware}`}>
              <Badge size="xs" color="orange" variant="light" data-testid={`device-outdated-${device.id}`}>
                Out of date
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
  ];

  const count = query.data?.count ?? 0;
  const actions = (
    <>
      {mayDownload && <DeviceCsvButton query={apiQuery} total={count} />}
      {mayCreate && (
        <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ mode: 'create' })} data-testid="device-create">
          Create
        </Button>
      )}
    </>
  );

  return (
    <>
      <ListPage
        title={title}
        embedded={embedded}
        actions={mayCreate || mayDownload ? actions : null}
        testId="device-list"
        filters={
          <>
            <SearchInput
              placeholder="Search by serial number"
              value={params.search}
              onChange={(search) => setParams({ search })}
              w={{ base: '100%', sm: 260 }}
            />
            {!embedded && (
              <Select
                aria-label="Device link filter"
                data={DEVICE_FILTERS.map((f) => ({ value: f.value, label: f.label }))}
                value={params.link}
                onChange={(value) => value && setParams({ link: value as TDeviceListState['link'] })}
                allowDeselect={false}
                w={160}
                data-testid="device-filter"
                comboboxProps={{ withinPortal: true }}
              />
            )}
            <Checkbox
              label={`Silent over ${SILENT_AFTER_DAYS} days`}
              checked={params.silent === 'true'}
              onChange={(event) => setParams({ silent: event.currentTarget.checked ? 'true' : undefined })}
              data-testid="device-silent-filter"
            />
          </>
        }
        period={
          <PeriodTabs
            kind="device"
            value={params.period}
            range={{ from: params.from, to: params.to }}
            onChange={(period, range) => setParams({ period, ...range })}
          />
        }
        footer={
          <ListFooter
            page={params.page}
            limit={params.limit}
            total={count}
            onPageChange={(page) => setParams({ page })}
            onLimitChange={(limit) => setParams({ limit })}
          />
        }
      >
        {query.isError && !(query.error instanceof ApiError && query.error.status === 401) && (
          <Alert color="red" variant="light" m="md" data-testid="device-list-error">
            {errorMessage(query.error)}
          </Alert>
        )}
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={emptyText(DEVICE_MESSAGES.emptyNoun, hasFilters)}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(device) => `Actions for ${device.serial_number}`}
          testId="device-table"
        />
      </ListPage>

      <DeviceFormDialog
        opened={form !== null}
        role={role}
        view={form ?? { mode: 'create' }}
        onViewChange={setForm}
        onClose={() => setForm(null)}
      />
      <DeviceLinkDialog
        opened={linking !== null}
        device={linking?.device ?? null}
        mode={linking?.mode ?? 'link'}
        onClose={() => setLinking(null)}
      />
    </>
  );
}
