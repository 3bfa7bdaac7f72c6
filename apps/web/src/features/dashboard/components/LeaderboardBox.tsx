// The leaderboard (ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN): every organization in scope with its scans, positivity,
// last sync and location over the period; Download CSV streams leaderboard.csv with every row (part 1 §9).
import { useNavigate } from 'react-router';
import { z } from 'zod';
import {
  DASHBOARD_MESSAGES,
  LEADERBOARD_CSV_FILENAME,
  LEADERBOARD_DEFAULT_ORDERING,
  formatPositivity,
  type TLeaderboardRow,
} from '@sc/shared/dashboard';
import { CsvDownloadButton } from '../../../components/CsvDownloadButton.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListTable } from '../../../components/list/ListTable.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useLeaderboard, withCustomRange, type TStatsPeriod } from '../dashboard.api.ts';
import { DashboardBox } from './DashboardBox.tsx';

const ZParams = listParamsSchema({ ordering: z.string().max(200).optional().catch(undefined) });
const DEFAULTS = { ordering: LEADERBOARD_DEFAULT_ORDERING };

export function LeaderboardBox({ period }: { period: TStatsPeriod }) {
  const navigate = useNavigate();
  const { params, setParams } = useListParams(ZParams, DEFAULTS, { prefix: 'lb_' });
  const query = useLeaderboard(
    { ...period, page: params.page, limit: params.limit, ordering: params.ordering },
    true,
  );
  const total = query.data?.count ?? 0;

  return (
    <DashboardBox
      title="Leaderboard"
      testId="dashboard-leaderboard"
      actions={
        <CsvDownloadButton
          path="organization/leaderboard/"
          query={withCustomRange({ ...period, ordering: params.ordering })}
          total={total}
          filename={LEADERBOARD_CSV_FILENAME}
          size="xs"
          testId="leaderboard-csv"
        />
      }
    >
      <ListTable<TLeaderboardRow>
        records={query.data?.results}
        columns={[
          { accessor: 'name', title: 'Organization', sortable: true },
          { accessor: 'scans_count', title: 'Scans', sortable: true, textAlign: 'right' },
          {
            accessor: 'dynamic_positivity_percentage',
            title: 'Positivity',
            sortable: true,
            textAlign: 'right',
            render: (o) => formatPositivity(o.dynamic_positivity_percentage),
          },
          {
            accessor: 'last_sync_date',
            title: 'Last sync',
            sortable: true,
            hideOnPhone: true,
            render: (o) => <ListDate value={o.last_sync_date} />,
          },
          { accessor: 'location', title: 'Location', hideOnPhone: true },
        ]}
        fetching={query.isFetching && !query.data}
        emptyText={DASHBOARD_MESSAGES.noOrganizations}
        ordering={params.ordering}
        onOrderingChange={(ordering) => setParams({ ordering })}
        onRowClick={(o) => void navigate(`/organization/${o.id}`)}
        testId="leaderboard-table"
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
