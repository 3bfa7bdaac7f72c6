// The report log (part 3 "Report log page", §3, §7; architecture §7b: ADMIN): every CSV and report download with its
// path, query, browser, method, user and time. Search 'Search by name, mobile no, serial no' (the user's name or
// mobile, a serial number in the download's query), the three period tabs on the download time, sortable columns,
// pages. The empty texts are the spec's own ('No organizations yet!' / 'found!').
import { Alert, Code, Stack, Text } from '@mantine/core';
import { ROLE_LABELS, USER_TYPES, type TUserType } from '@sc/shared/roles';
import type { TReportLogRow } from '@sc/shared/scans';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, emptyText, type ListColumn } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { periodToQuery } from '../../../components/list/periods.ts';
import { ZBaseListParams, useListParams, type TBaseListParams } from '../../../components/list/useListParams.ts';
import { useReportLog, type TReportLogQuery } from './ReportLogQuery.ts';

const LIST_DEFAULTS: Partial<TBaseListParams> = { ordering: '-created' };

/** URL state → `GET scan/report-log/` parameters (the period reads the download time). */
export function toReportLogQuery(state: TBaseListParams): TReportLogQuery {
  return {
    page: state.page,
    limit: state.limit,
    ordering: state.ordering,
    ...(state.search ? { search: state.search } : {}),
    ...periodToQuery(state, 'date_time'),
  };
}

/** The download's query as `key=value` lines, in the order it was sent. */
export function queryParamLines(qp: Record<string, unknown>): string[] {
  return Object.entries(qp)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
}

const isUserType = (v: string | null): v is TUserType => v !== null && (USER_TYPES as readonly string[]).includes(v);

const columns: ListColumn<TReportLogRow>[] = [
  {
    accessor: 'api',
    title: 'API',
    sortable: true,
    render: (r) => (
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} miw={110}>
        {r.api}
      </Text>
    ),
  },
  {
    accessor: 'api_qp',
    title: 'API query params',
    hideOnPhone: true,
    priority: 3,
    render: (r) => {
      const lines = queryParamLines(r.api_qp);
      if (!lines.length) return <Text size="sm" c="dimmed">—</Text>;
      return (
        <Stack gap={2} miw={160}>
          {lines.map((line) => (
            <Code key={line} style={{ wordBreak: 'break-all', whiteSpace: 'normal' }}>
              {line}
            </Code>
          ))}
        </Stack>
      );
    },
  },
  {
    accessor: 'user_agent',
    title: 'User agent',
    hideOnPhone: true,
    // Where the table is too wide for its card, the browser's long name gives way first, the user's type last.
    priority: 1,
    render: (r) =>
      r.user_agent ? (
        <Text size="xs" lineClamp={2} title={r.user_agent} maw={260}>
          {r.user_agent}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">—</Text>
      ),
  },
  { accessor: 'requested_method', title: 'Requested method', hideOnPhone: true, priority: 2 },
  {
    accessor: 'user',
    title: 'User ID',
    render: (r) =>
      r.user === null ? (
        <Text size="sm" c="dimmed">—</Text>
      ) : (
        <div>
          <Text size="sm">{r.user}</Text>
          {r.user_data && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {`${r.user_data.first_name} ${r.user_data.last_name}`.trim() || r.user_data.username}
            </Text>
          )}
        </div>
      ),
  },
  {
    accessor: 'user_type',
    title: 'User Type',
    sortable: true,
    hideOnPhone: true,
    priority: 4,
    render: (r) => (isUserType(r.user_type) ? ROLE_LABELS[r.user_type] : (r.user_type ?? '—')),
  },
  { accessor: 'created', title: 'Download Date', sortable: true, render: (r) => <ListDate value={r.created} /> },
];

export function ReportLogList({ title }: { title: string }) {
  const { params, setParams, hasFilters } = useListParams(ZBaseListParams, LIST_DEFAULTS);
  const query = useReportLog(toReportLogQuery(params));
  const failed = query.isError && !(query.error instanceof ApiError && query.error.status === 401);

  return (
    <ListPage
      title={title}
      testId="report-log-list"
      filters={
        <SearchInput
          placeholder="Search by name, mobile no, serial no"
          value={params.search}
          onChange={(search) => setParams({ search })}
          w={{ base: '100%', sm: 300 }}
        />
      }
      period={
        <PeriodTabs value={params.period} range={{ from: params.from, to: params.to }} onChange={(period, range) => setParams({ period, ...range })} />
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
      {failed && (
        <Alert color="red" variant="light" m="md" data-testid="report-log-error">
          {errorMessage(query.error)}
        </Alert>
      )}
      <ListTable
        records={query.data?.results}
        columns={columns}
        fetching={query.isFetching}
        emptyText={emptyText('organizations', hasFilters)}
        ordering={params.ordering}
        onOrderingChange={(ordering) => setParams({ ordering })}
        testId="report-log-table"
      />
    </ListPage>
  );
}
