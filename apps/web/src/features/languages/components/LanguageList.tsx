// The Languages page (part 3 §2): search by name or iso_code (debounced 500 ms), Create, and a sortable table of
// Name and ISO code (plus whether tutorials exist in it, left out on a phone) with a Details button per row that
// opens 'Language details' read-only. ADMIN only, as the API's writes.
import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { LANGUAGE_MESSAGES, type TLanguage } from '@sc/shared/languages';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, type ListColumn } from '../../../components/list/ListTable.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useLanguages } from '../languages.api.ts';
import { LanguageDialog } from './LanguageDialog.tsx';

const ZParams = listParamsSchema({});
const DEFAULTS = { ordering: 'name' };

type Dialog = { mode: 'create' } | { mode: 'details'; id: number };

export function LanguageList({ title }: { title: string }) {
  const { params, setParams, hasFilters } = useListParams(ZParams, DEFAULTS);
  const query = useLanguages({
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
    ...(params.search ? { search: params.search } : {}),
  });
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const columns: ListColumn<TLanguage>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (l) => (
        <Text size="sm" fw={600}>
          {l.name}
        </Text>
      ),
    },
    {
      accessor: 'iso_code',
      title: 'ISO code',
      sortable: true,
      render: (l) => (
        <Text size="sm" ff="monospace">
          {l.iso_code}
        </Text>
      ),
    },
    {
      accessor: 'is_tutorial_available',
      title: 'Tutorial',
      hideOnPhone: true,
      render: (l) =>
        l.is_tutorial_available ? (
          <Text size="sm" fw={600} c="teal.9">
            Available
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      accessor: 'details',
      title: '',
      textAlign: 'right',
      width: 100,
      render: (l) => (
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => setDialog({ mode: 'details', id: l.id })}
          aria-label={`Details of ${l.name}`}
          data-testid={`language-details-${l.id}`}
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
        testId="language-list"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create' })} data-testid="language-create">
            Create
          </Button>
        }
        filters={
          <SearchInput
            placeholder={LANGUAGE_MESSAGES.searchPlaceholder}
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
          emptyText={hasFilters ? LANGUAGE_MESSAGES.emptyFiltered : LANGUAGE_MESSAGES.emptyNone}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          testId="language-table"
        />
      </ListPage>
      <LanguageDialog
        opened={dialog !== null}
        languageId={dialog?.mode === 'details' ? dialog.id : undefined}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
