// The follow-up figures per organization in scope (issue 26), in the leaderboard's style: screen-positives,
// completion, lost, overdue and median days to diagnosis over the dashboard's period; Download CSV streams
// follow-up-organizations.csv with every row.
import { z } from 'zod';
import {
  FOLLOW_UP_FIGURES_CSV_FILENAME,
  FOLLOW_UP_MESSAGES,
  type TFollowUpFiguresOrgRow,
} from '@sc/shared/follow-up';
import { CsvDownloadButton } from '../../../components/CsvDownloadButton.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListTable } from '../../../components/list/ListTable.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import type { TStatsPeriod } from '../dashboard.api.ts';
import { useFollowUpFiguresByOrganization } from '../followUpFigures.api.ts';
import { DashboardBox } from './DashboardBox.tsx';

const ZParams = listParamsSchema({ ordering: z.string().max(200).optional().catch(undefined) });
const DEFAULTS = { ordering: '-screen_positives' };
const pct = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)}%`);

export function FollowUpFiguresBox({ period }: { period: TStatsPeriod }) {
  const { params, setParams } = useListParams(ZParams, DEFAULTS, { prefix: 'fu_' });
  const query = useFollowUpFiguresByOrganization({ ...period, page: params.page, limit: params.limit, ordering: params.ordering });
  const total = query.data?.count ?? 0;

  return (
    <DashboardBox
      title="Follow-up by organization"
      testId="dashboard-follow-up-organizations"
      actions={
        <CsvDownloadButton
          path="follow-up/figures/organizations/"
          query={{ ...period, ordering: params.ordering }}
          total={total}
          filename={FOLLOW_UP_FIGURES_CSV_FILENAME}
          size="xs"
          testId="follow-up-figures-csv"
        />
      }
    >
      <ListTable<TFollowUpFiguresOrgRow>
        records={query.data?.results}
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
        fetching={query.isFetching && !query.data}
        emptyText={FOLLOW_UP_MESSAGES.emptyNone}
        ordering={params.ordering}
        onOrderingChange={(ordering) => setParams({ ordering })}
        testId="follow-up-figures-table"
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
