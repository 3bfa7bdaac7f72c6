// By Technician (part 2 §2.1): Technician (with the organization's country), Organization (ADMIN, SUB_ADMIN,
// DISTRIBUTOR_ADMIN), Scans, Positivity; sortable by scans_count and dynamic_positivity_percentage (default
// -scans_count); a row opens the organization. A technician who scanned for two organizations has a row for each.
import { Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import {
  DASHBOARD_MESSAGES,
  TECHNICIAN_DEFAULT_ORDERING,
  formatPositivity,
  type TTechnicianStats,
} from '@sc/shared/dashboard';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListTable, type ListColumn } from '../../../components/list/ListTable.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useTechnicianStats, type TStatsPeriod } from '../dashboard.api.ts';
import { DashboardBox } from './DashboardBox.tsx';

const ZParams = listParamsSchema({ ordering: z.string().max(200).optional().catch(undefined) });
const DEFAULTS = { ordering: TECHNICIAN_DEFAULT_ORDERING };

type Row = TTechnicianStats & { key: string };

const nameOf = (t: TTechnicianStats) =>
  [t.first_name, t.last_name].filter(Boolean).join(' ') || t.username || `#${t.id}`;

export function TechnicianStatsBox({
  period,
  showOrganization,
}: {
  period: TStatsPeriod;
  showOrganization: boolean;
}) {
  const navigate = useNavigate();
  const { params, setParams } = useListParams(ZParams, DEFAULTS, { prefix: 'tech_' });
  const query = useTechnicianStats({
    ...period,
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
  });
  const records = query.data?.results.map((r) => ({ ...r, key: `${r.id}-${r.organization?.id ?? 0}` }));
  const columns: ListColumn<Row>[] = [
    {
      accessor: 'id',
      title: 'Technician',
      render: (t) => (
        <div>
          <Text size="sm" fw={500}>
            {nameOf(t)}
          </Text>
          {t.organization?.country && (
            <Text size="xs" c="dimmed" data-testid={`technician-country-${t.key}`}>
              {t.organization.country}
            </Text>
          )}
        </div>
      ),
    },
    ...(showOrganization
      ? [
          {
            accessor: 'organization',
            title: 'Organization',
            hideOnPhone: true,
            render: (t: Row) => t.organization?.name ?? '',
          } satisfies ListColumn<Row>,
        ]
      : []),
    { accessor: 'scans_count', title: 'Scans', sortable: true, textAlign: 'right' },
    {
      accessor: 'dynamic_positivity_percentage',
      title: 'Positivity',
      sortable: true,
      textAlign: 'right',
      render: (t) => formatPositivity(t.dynamic_positivity_percentage),
    },
  ];
  return (
    <DashboardBox title="By Technician" testId="dashboard-technicians">
      <ListTable<Row>
        records={records}
        idAccessor="key"
        columns={columns}
        fetching={query.isFetching && !query.data}
        emptyText={DASHBOARD_MESSAGES.noTechnicians}
        ordering={params.ordering}
        onOrderingChange={(ordering) => setParams({ ordering })}
        onRowClick={(t) => {
          if (t.organization) void navigate(`/organization/${t.organization.id}`);
        }}
        testId="technician-stats-table"
      />
      <ListFooter
        page={params.page}
        limit={params.limit}
        total={query.data?.count ?? 0}
        onPageChange={(page) => setParams({ page })}
        onLimitChange={(limit) => setParams({ limit })}
      />
    </DashboardBox>
  );
}
