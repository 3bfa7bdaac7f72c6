// The leaderboard (ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN): every organization in scope with its scans, positivity,
// last sync and location over the period; Download CSV streams leaderboard.csv with every row (part 1 §9).
import { useNavigate } from 'react-router';
import {
  DASHBOARD_MESSAGES,
  LEADERBOARD_CSV_FILENAME,
  LEADERBOARD_DEFAULT_ORDERING,
  formatPositivity,
  type TLeaderboardRow,
} from '@sc/shared/dashboard';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { useLeaderboard, withCustomRange, type TStatsPeriod } from '../dashboard.api.ts';
import { DashboardTableBox, useDashboardTable } from './DashboardTableBox.tsx';

export function LeaderboardBox({ period }: { period: TStatsPeriod }) {
  const navigate = useNavigate();
  const table = useDashboardTable('lb_', LEADERBOARD_DEFAULT_ORDERING);
  const query = useLeaderboard({ ...period, ...table.params }, true);
  return (
    <DashboardTableBox<TLeaderboardRow>
      title="Leaderboard"
      testId="dashboard-leaderboard"
      table={table}
      query={query}
      csv={{
        path: 'organization/leaderboard/',
        query: (ordering) => withCustomRange({ ...period, ordering }),
        filename: LEADERBOARD_CSV_FILENAME,
        testId: 'leaderboard-csv',
      }}
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
      emptyText={DASHBOARD_MESSAGES.noOrganizations}
      onRowClick={(o) => void navigate(`/organization/${o.id}`)}
      tableTestId="leaderboard-table"
    />
  );
}
