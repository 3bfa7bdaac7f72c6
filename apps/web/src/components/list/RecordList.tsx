// A list of records that open in a RecordDialog (part 3 §2 Languages, Release Notes): a debounced search box, a
// Create button, the sortable table with a Details button at the end of each row, the footer, and the record's
// dialog opened by Details (read-only) or Create (edit mode). The list state lives in the URL (useListParams).
import { useState, type ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { TPaginated } from '@sc/shared/list';
import { ListPage } from './ListPage.tsx';
import { ListParamsFooter } from './ListParts.tsx';
import { ListTable, type ListColumn } from './ListTable.tsx';
import { SearchInput } from './SearchInput.tsx';
import { listParamsSchema, useListParams } from './useListParams.ts';

const ZParams = listParamsSchema({});

/** What the list asks its query hook for: the page, the order and the search (absent when empty). */
export type RecordListQuery = { page: number; limit: number; ordering?: string; search?: string };

/** The dialog's state: closed, Create (no id) or Details of a record. */
export type RecordListDialog = { opened: boolean; recordId?: number; onClose: () => void };

type RecordListProps<T extends { id: number }, E extends object> = {
  title: string;
  /** The test id prefix: `<p>-list`, `<p>-table`, `<p>-create`, `<p>-details-<id>`. */
  testId: string;
  /** A module-level constant, e.g. `{ ordering: 'name' }`. */
  defaults: { ordering: string };
  /** The feature's list hook (a module-level function, so the same hook runs every render). */
  useRecords: (query: RecordListQuery & E) => UseQueryResult<TPaginated<T>>;
  /** Fixed parameters of every request, e.g. the page's app `{ type: 'ORCA' }` (a stable object). */
  fixedQuery?: E;
  searchPlaceholder: string;
  /** The spec's empty texts without and with a search. */
  empty: { none: string; filtered: string };
  /** The record's columns; the Details button is added after them. */
  columns: ListColumn<T>[];
  /** The Details button's accessible name, e.g. 'Details of Hindi'. */
  detailsLabel: (record: T) => string;
  /** The record's dialog: `recordId` undefined is Create. */
  dialog: (state: RecordListDialog) => ReactNode;
};

export function RecordList<T extends { id: number }, E extends object = object>({
  title,
  testId,
  defaults,
  useRecords,
  fixedQuery,
  searchPlaceholder,
  empty,
  columns,
  detailsLabel,
  dialog,
}: RecordListProps<T, E>) {
  const { params, setParams, hasFilters } = useListParams(ZParams, defaults);
  const query = useRecords({
    ...(fixedQuery as E),
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
    ...(params.search ? { search: params.search } : {}),
  });
  // undefined: closed; null: Create; a number: the Details of that record.
  const [open, setOpen] = useState<number | null | undefined>(undefined);

  const detailsColumn: ListColumn<T> = {
    accessor: 'details',
    title: '',
    textAlign: 'right',
    width: 100,
    render: (record) => (
      <Button
        size="compact-sm"
        variant="light"
        onClick={() => setOpen(record.id)}
        aria-label={detailsLabel(record)}
        data-testid={`${testId}-details-${record.id}`}
      >
        Details
      </Button>
    ),
  };

  return (
    <>
      <ListPage
        title={title}
        testId={`${testId}-list`}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen(null)} data-testid={`${testId}-create`}>
            Create
          </Button>
        }
        filters={
          <SearchInput
            placeholder={searchPlaceholder}
            value={params.search}
            onChange={(search) => setParams({ search })}
            w={{ base: '100%', sm: 260 }}
          />
        }
        footer={<ListParamsFooter params={params} setParams={setParams} total={query.data?.count ?? 0} />}
      >
        <ListTable
          records={query.data?.results}
          columns={[...columns, detailsColumn]}
          fetching={query.isFetching}
          emptyText={hasFilters ? empty.filtered : empty.none}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          testId={`${testId}-table`}
        />
      </ListPage>
      {dialog({ opened: open !== undefined, recordId: open ?? undefined, onClose: () => setOpen(undefined) })}
    </>
  );
}
