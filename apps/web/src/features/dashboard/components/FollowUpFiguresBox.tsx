// The follow-up figures per organization in scope (issue 26), in the leaderboard's style: screen-positives,
// completion, lost, overdue and median days to diagnosis over the dashboard's period; Download CSV streams
// follow-up-organizations.csv with every row.
import {
  FOLLOW_UP_FIGURES_CSV_FILENAME,
  FOLLOW_UP_MESSAGES,
  type TFollowUpFiguresOrgRow,
} from '@sc/shared/follow-up';
import type { TStatsPeriod } from '../dashboard.api.ts';
import { useFollowUpFiguresByOrganization } from '../followUpFigures.api.ts';
import { DashboardTableBox, useDashboardTable } from './DashboardTableBox.tsx';

const pct = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)}%`);

export function FollowUpFiguresBox({ period }: { period: TStatsPeriod }) {
  const table = useDashboardTable('fu_', '-screen_positives');
  const query = useFollowUpFiguresByOrganization({ ...period, ...table.params });
  return (
    <DashboardTableBox<TFollowUpFiguresOrgRow>
      title="Follow-up by organization"
      testId="dashboard-follow-up-organizations"
      table={table}
      query={query}
      csv={{
        path: 'follow-up/figures/organizations/',
        query: (ordering) => ({ ...period, ordering }),
        filename: FOLLOW_UP_FIGURES_CSV_FILENAME,
        testId: 'follow-up-figures-csv',
      }}
      columns={[
        { accessor: 'name', title: 'Organization', sortable: true },
        { accessor: 'screen_positives', title: 'Positives', sortable: true, textAlign: 'right' },
        {
          accessor: 'completion_pct',
          title: 'Completed',
          sortable: true,
          textAlign: 'right',
          render: (o) => `${pct(o.completion_pct)} (${o.completed})`,
        },
        { accessor: 'lost_pct', title: 'Lost', sortable: true, textAlign: 'right', hideOnPhone: true, render: (o) => pct(o.lost_pct) },
        { accessor: 'overdue', title: 'Overdue', sortable: true, textAlign: 'right' },
        {
          accessor: 'median_days_to_diagnosis',
          title: 'Median days',
          sortable: true,
          textAlign: 'right',
          hideOnPhone: true,
          render: (o) => o.median_days_to_diagnosis ?? '—',
        },
      ]}
      emptyText={FOLLOW_UP_MESSAGES.emptyNone}
      tableTestId="follow-up-figures-table"
    />
  );
}
