// By Device (part 2 §2.1): Device, Scans, Positivity; sortable by scans and positivity (default -positivity);
// a row opens the breast scan list of that device, with the box's type and period (issue 23.13: the same count).
import { Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import {
  DASHBOARD_MESSAGES,
  DEVICE_STATS_DEFAULT_ORDERING,
  formatPositivity,
  type TDeviceStats,
} from '@sc/shared/dashboard';
import type { PeriodParams } from '../../../components/list/periods.ts';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListTable } from '../../../components/list/ListTable.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useDeviceStats, type TStatsPeriod } from '../dashboard.api.ts';
import { DashboardBox } from './DashboardBox.tsx';
import { statsListPath } from './StatTiles.tsx';

const ZParams = listParamsSchema({ ordering: z.string().max(200).optional().catch(undefined) });
const DEFAULTS = { ordering: DEVICE_STATS_DEFAULT_ORDERING };

export function DeviceStatsBox({ period, listPeriod }: { period: TStatsPeriod; listPeriod: PeriodParams }) {
  const navigate = useNavigate();
  const { params, setParams } = useListParams(ZParams, DEFAULTS, { prefix: 'dev_' });
  const query = useDeviceStats({
    ...period,
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
  });
  return (
    <DashboardBox title="By Device" testId="dashboard-devices">
      <ListTable<TDeviceStats>
        records={query.data?.results}
        idAccessor="device_serial_number"
        columns={[
          {
            accessor: 'device_serial_number',
            title: 'Device',
            render: (d) => (
              <div>
                <Text size="sm" fw={500}>
                  {d.device_serial_number}
                </Text>
                {d.device_data?.organization_name && (
                  <Text size="xs" c="dimmed">
                    {d.device_data.organization_name}
                  </Text>
                )}
              </div>
            ),
          },
          { accessor: 'scans_count', title: 'Scans', sortable: true, textAlign: 'right' },
          {
            accessor: 'positivity_percentage',
            title: 'Positivity',
            sortable: true,
            textAlign: 'right',
            render: (d) => formatPositivity(d.positivity_percentage),
          },
        ]}
        fetching={query.isFetching && !query.data}
        emptyText={DASHBOARD_MESSAGES.noDevices}
        ordering={params.ordering}
        onOrderingChange={(ordering) => setParams({ ordering })}
        onRowClick={(d) => void navigate(statsListPath(listPeriod, { device: d.device_serial_number }))}
        testId="device-stats-table"
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
