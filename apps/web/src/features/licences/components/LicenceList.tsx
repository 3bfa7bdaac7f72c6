// The licence list (part 3 §2): search 'Search by license no', Add License, and the columns ID, Organization,
// License Key, Pin, Application, Available License Count, Total License Count with the row actions Renew (the Edit
// License form), Log (License Details) and Delete (after a confirm). ADMIN and SUB_ADMIN only, as the API.
import { useState } from 'react';
import { Badge, Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconList, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { LICENCE_MESSAGES, type TLicence } from '@sc/shared/licences';
import { LICENCE_APPLICATION_LABELS, labelOf } from '@sc/shared/labels';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import {
  ListTable,
  emptyText,
  type ListColumn,
  type RowAction,
} from '../../../components/list/ListTable.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useDeleteLicence, useLicences } from '../licences.api.ts';
import { LicenceDetailsDialog } from './LicenceDetailsDialog.tsx';
import { LicenceFormDialog } from './LicenceFormDialog.tsx';

const ZLicenceListParams = listParamsSchema({});
const LIST_DEFAULTS = { ordering: '-created' };

type Form = { mode: 'add' } | { mode: 'renew'; id: number };

export function LicenceList({ title }: { title: string }) {
  const { params, setParams, hasFilters } = useListParams(ZLicenceListParams, LIST_DEFAULTS);
  const query = useLicences({
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
    ...(params.search ? { search: params.search } : {}),
  });
  const remove = useDeleteLicence();
  const [form, setForm] = useState<Form | null>(null);
  const [logId, setLogId] = useState<number | undefined>(undefined);

  const deleteLicence = async (licence: TLicence) => {
    const ok = await confirm({
      title: 'Delete License',
      message: `${LICENCE_MESSAGES.deleteConfirm} ${licence.license_code} (${licence.organization.name})`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    try {
      const answer = await remove.mutateAsync(licence.id);
      notifications.show({ color: 'teal', message: answer.detail });
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 401 || error.status >= 500))) {
        notifications.show({ color: 'red', message: errorMessage(error) });
      }
    }
  };

  const rowActions = (licence: TLicence): RowAction[] => [
    {
      label: 'Renew',
      icon: <IconRefresh size={16} />,
      onClick: () => setForm({ mode: 'renew', id: licence.id }),
    },
    { label: 'Log', icon: <IconList size={16} />, onClick: () => setLogId(licence.id) },
    {
      label: 'Delete',
      icon: <IconTrash size={16} />,
      color: 'red',
      onClick: () => void deleteLicence(licence),
    },
  ];

  const columns: ListColumn<TLicence>[] = [
    { accessor: 'id', title: 'ID', sortable: true, hideOnPhone: true },
    {
      accessor: 'organization.name',
      title: 'Organization',
      render: (licence) => (
        <Text size="sm" fw={600}>
          {licence.organization.name}
        </Text>
      ),
    },
    {
      accessor: 'license_code',
      title: 'License Key',
      sortable: true,
      render: (licence) => (
        <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {licence.license_code}
        </Text>
      ),
    },
    {
      accessor: 'pin',
      title: 'Pin',
      hideOnPhone: true,
      render: (licence) => (
        <Text size="sm" ff="monospace">
          {licence.pin}
        </Text>
      ),
    },
    {
      accessor: 'application',
      title: 'Application',
      sortable: true,
      hideOnPhone: true,
      render: (licence) => (
        <Badge variant="light" tt="none" color={licence.application === 'ORCA' ? 'grape' : 'pink'}>
          {labelOf(LICENCE_APPLICATION_LABELS, licence.application)}
        </Badge>
      ),
    },
    {
      accessor: 'count',
      title: 'Available License Count',
      sortable: true,
      textAlign: 'right',
      render: (licence) => (
        <Text
          size="sm"
          fw={600}
          c={licence.count === 0 ? 'red.8' : undefined}
          data-testid={`licence-available-${licence.id}`}
        >
          {licence.count}
        </Text>
      ),
    },
    {
      accessor: 'total_license_count',
      title: 'Total License Count',
      sortable: true,
      textAlign: 'right',
      hideOnPhone: true,
      render: (licence) => (
        <span data-testid={`licence-total-${licence.id}`}>{licence.total_license_count}</span>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={title}
        testId="licence-list"
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setForm({ mode: 'add' })}
            data-testid="licence-add"
          >
            Add License
          </Button>
        }
        filters={
          <SearchInput
            placeholder={LICENCE_MESSAGES.searchPlaceholder}
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
          emptyText={emptyText('licenses', hasFilters)}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(licence) => `Actions for license ${licence.license_code}`}
          testId="licence-table"
        />
      </ListPage>
      <LicenceFormDialog
        opened={form !== null}
        licenceId={form?.mode === 'renew' ? form.id : undefined}
        onClose={() => setForm(null)}
      />
      <LicenceDetailsDialog licenceId={logId} onClose={() => setLogId(undefined)} />
    </>
  );
}
