// The Release Notes list of one app (part 3 §2): name search, Create, and a sortable table of Version Name and
// Version code (plus the tutorial version and the date, left out on a phone) with a Details button per row that
// opens the version read-only. The app is the page's (`app-version?ibe|orca|cervaical`).
import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { APP_VERSION_MESSAGES, type TAppType, type TAppVersion } from '@sc/shared/app-versions';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, type ListColumn } from '../../../components/list/ListTable.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useAppVersions } from '../appVersions.api.ts';
import { AppVersionDialog } from './AppVersionDialog.tsx';

const ZParams = listParamsSchema({});
const DEFAULTS = { ordering: '-created' };

type Dialog = { mode: 'create' } | { mode: 'details'; id: number };

export function AppVersionList({ title, type }: { title: string; type: TAppType }) {
  const { params, setParams, hasFilters } = useListParams(ZParams, DEFAULTS);
  const query = useAppVersions({
    type,
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
    ...(params.search ? { search: params.search } : {}),
  });
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const columns: ListColumn<TAppVersion>[] = [
    {
      accessor: 'name',
      title: 'Version Name',
      sortable: true,
      render: (v) => (
        <Text size="sm" fw={600}>
          {v.name}
        </Text>
      ),
    },
    { accessor: 'code', title: 'Version code', sortable: true },
    {
      accessor: 'tutorial_version',
      title: 'Tutorial version',
      sortable: true,
      hideOnPhone: true,
      render: (v) => v.tutorial_version ?? '—',
    },
    {
      accessor: 'created',
      title: 'Created',
      sortable: true,
      hideOnPhone: true,
      render: (v) => <ListDate value={v.created} />,
    },
    {
      accessor: 'details',
      title: '',
      textAlign: 'right',
      width: 100,
      render: (v) => (
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => setDialog({ mode: 'details', id: v.id })}
          aria-label={`Details of version ${v.name}`}
          data-testid={`app-version-details-${v.id}`}
        >
          Details
        </Button>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={title}
        testId="app-version-list"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create' })} data-testid="app-version-create">
            Create
          </Button>
        }
        filters={
          <SearchInput
            placeholder={APP_VERSION_MESSAGES.searchPlaceholder}
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
          emptyText={hasFilters ? APP_VERSION_MESSAGES.emptyFiltered : APP_VERSION_MESSAGES.emptyNone}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          testId="app-version-table"
        />
      </ListPage>
      <AppVersionDialog
        opened={dialog !== null}
        type={type}
        versionId={dialog?.mode === 'details' ? dialog.id : undefined}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
