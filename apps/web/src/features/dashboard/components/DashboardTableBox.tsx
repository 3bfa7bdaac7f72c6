// A dashboard box holding a paged, sortable table of organizations over the period, with its CSV: the leaderboard
// and the follow-up figures per organization. Its page, size and ordering live in the URL (useDashboardTable).
import type { UseQueryResult } from '@tanstack/react-query';
import { z } from 'zod';
import type { TPaginated } from '@sc/shared/list';
import { CsvDownloadButton } from '../../../components/CsvDownloadButton.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListTable, type ListColumn } from '../../../components/list/ListTable.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { DashboardBox } from './DashboardBox.tsx';

type CsvQuery = Parameters<typeof CsvDownloadButton>[0]['query'];

const ZParams = listParamsSchema({ ordering: z.string().max(200).optional().catch(undefined) });

export type DashboardTableParams = { page: number; limit: number; ordering: string | undefined };

/** The box's page, size and ordering in the URL under `prefix` ('lb_': two boxes on one page keep their own pages). */
export function useDashboardTable(prefix: string, defaultOrdering: string) {
  const { params, setParams } = useListParams(ZParams, { ordering: defaultOrdering }, { prefix });
  const table: DashboardTableParams = { page: params.page, limit: params.limit, ordering: params.ordering };
  return { params: table, setParams };
}

type DashboardTableBoxProps<T> = {
  title: string;
  testId: string;
  /** `useDashboardTable`'s answer, and the query read with its params. */
  table: ReturnType<typeof useDashboardTable>;
  query: UseQueryResult<TPaginated<T>>;
  csv: { path: string; query: (ordering: string | undefined) => CsvQuery; filename: string; testId: string };
  columns: ListColumn<T>[];
  emptyText: string;
  onRowClick?: (row: T) => void;
  tableTestId: string;
};

export function DashboardTableBox<T>(props: DashboardTableBoxProps<T>) {
  const { table, query } = props;
  const { params, setParams } = table;
  const total = query.data?.count ?? 0;
  return (
    <DashboardBox
      title={props.title}
      testId={props.testId}
      actions={
        <CsvDownloadButton
          path={props.csv.path}
          query={props.csv.query(params.ordering)}
          total={total}
          filename={props.csv.filename}
          size="xs"
          testId={props.csv.testId}
        />
      }
    >
      <ListTable<T>
        records={query.data?.results}
        columns={props.columns}
        fetching={query.isFetching && !query.data}
        emptyText={props.emptyText}
        ordering={params.ordering}
        onOrderingChange={(ordering) => setParams({ ordering })}
        onRowClick={props.onRowClick}
        testId={props.tableTestId}
      />
      <ListFooter
        page={params.page}
        limit={params.limit}
        total={total}
        onPageChange={(page) => setParams({ page })}
        onLimitChange={(limit) => setParams({ limit })}
      />
    </DashboardBox>
  );
}
