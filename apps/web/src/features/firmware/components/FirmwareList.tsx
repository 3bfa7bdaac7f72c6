// The firmware list (part 3 §2): search by version and Create; columns ID, Version, Path, Created; each row has
// Details (the 'Firmware Details' modal) and Download (the file's exact bytes), and for ADMIN Delete (withdraw a
// version, after a confirm). ADMIN and SUB_ADMIN only, as the API. Newest first.
import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { FIRMWARE_DEFAULT_ORDERING, FIRMWARE_MESSAGES, canDeleteFirmware, type TFirmware } from '@sc/shared/firmware';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { downloadFirmware, useDeleteFirmware, useFirmwareList } from '../firmware.api.ts';
import { FirmwareDialog } from './FirmwareDialog.tsx';

const ZFirmwareListParams = listParamsSchema({});
const LIST_DEFAULTS = { ordering: FIRMWARE_DEFAULT_ORDERING };

type Dialog = { mode: 'create' } | { mode: 'details'; id: number };

export function FirmwareList({ title }: { title: string }) {
  const user = useSessionUser();
  const { params, setParams, hasFilters } = useListParams(ZFirmwareListParams, LIST_DEFAULTS);
  const query = useFirmwareList({
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
    ...(params.search ? { search: params.search } : {}),
  });
  const remove = useDeleteFirmware();
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const download = async (firmware: TFirmware) => {
    try {
      await downloadFirmware(firmware);
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  };

  const deleteFirmware = async (firmware: TFirmware) => {
    const ok = await confirm({
      title: 'Delete Firmware',
      message: `${FIRMWARE_MESSAGES.deleteConfirm} ${firmware.version}`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    try {
      const answer = await remove.mutateAsync(firmware.id);
      notifications.show({ color: 'teal', message: answer.detail });
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 401 || error.status >= 500))) {
        notifications.show({ color: 'red', message: errorMessage(error) });
      }
    }
  };

  const rowActions = (firmware: TFirmware): RowAction[] => [
    { label: 'Details', icon: <IconEye size={16} />, onClick: () => setDialog({ mode: 'details', id: firmware.id }) },
    { label: 'Download', icon: <IconDownload size={16} />, onClick: () => void download(firmware) },
    ...(canDeleteFirmware(user.user_type)
      ? [{ label: 'Delete', icon: <IconTrash size={16} />, color: 'red', onClick: () => void deleteFirmware(firmware) }]
      : []),
  ];

  const columns: ListColumn<TFirmware>[] = [
    { accessor: 'id', title: 'ID', sortable: true, hideOnPhone: true },
    {
      accessor: 'version',
      title: 'Version',
      sortable: true,
      render: (firmware) => (
        <Text size="sm" fw={600} data-testid={`firmware-version-${firmware.id}`}>
          {firmware.version}
        </Text>
      ),
    },
    {
      accessor: 'path',
      title: 'Path',
      hideOnPhone: true,
      render: (firmware) => (
        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {firmware.path}
        </Text>
      ),
    },
    { accessor: 'created', title: 'Created', sortable: true, render: (firmware) => <ListDate value={firmware.created} /> },
  ];

  return (
    <>
      <ListPage
        title={title}
        testId="firmware-list"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create' })} data-testid="firmware-create">
            Create
          </Button>
        }
        filters={
          <SearchInput
            placeholder={FIRMWARE_MESSAGES.searchPlaceholder}
            value={params.search}
            onChange={(search) => setParams({ search })}
            w={{ base: '100%', sm: 260 }}
          />
        }
        footer={
          <ListFooter
            page={params.page}
            limit={params.limit}
            total={query.data?.count ?? 0}
            onPageChange={(page) => setParams({ page })}
            onLimitChange={(limit) => setParams({ limit })}
          />
        }
      >
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={hasFilters ? FIRMWARE_MESSAGES.emptyFiltered : FIRMWARE_MESSAGES.emptyNone}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(firmware) => `Actions for firmware ${firmware.version}`}
          testId="firmware-table"
        />
      </ListPage>
      <FirmwareDialog
        opened={dialog !== null}
        firmwareId={dialog?.mode === 'details' ? dialog.id : undefined}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
