// Dashboard (part 2 §2.1, architecture §7b Home): the period switcher, three tiles, the chart, the leaderboard (ADMIN,
// SUB_ADMIN, DISTRIBUTOR_ADMIN), By Device and By Technician. Only the dashboard roles reach this page (the route
// guard sends a TECHNICIAN to user-delete and other roles to their landing page). The period lives in the URL.
import { Suspense, lazy } from 'react';
import { Center, Loader, Paper, SimpleGrid, Stack } from '@mantine/core';
import { canDashboard } from '@sc/shared/dashboard';
import { canFollowUp } from '@sc/shared/follow-up';
import { menuLabel } from '../../../app/routeAccess.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { useListParams } from '../../../components/list/useListParams.ts';
import { DeviceStatsBox } from '../components/DeviceStatsBox.tsx';
import { LeaderboardBox } from '../components/LeaderboardBox.tsx';
import { StatTiles } from '../components/StatTiles.tsx';
import { TechnicianStatsBox } from '../components/TechnicianStatsBox.tsx';
import { useDashboardChart, useDashboardStats } from '../dashboard.api.ts';
import { DASHBOARD_PARAM_DEFAULTS, ZDashboardParams, dashboardPeriod } from '../dashboardPeriod.ts';

// The chart library is the largest part of the page: it loads after the title, tiles and tables.
const ScansChart = lazy(() => import('../components/ScansChart.tsx').then((m) => ({ default: m.ScansChart })));
// The follow-up figures (issue 26) load on their own, for the roles that follow up patients.
const FollowUpSection = lazy(() =>
  import('../components/FollowUpSection.tsx').then((m) => ({ default: m.FollowUpSection })),
);

export function DashboardPage() {
  const user = useSessionUser();
  const { params, setParams } = useListParams(ZDashboardParams, DASHBOARD_PARAM_DEFAULTS);
  const period = dashboardPeriod(params);
  const stats = useDashboardStats(period);
  const chart = useDashboardChart(period);
  const seesLeaderboard = canDashboard(user.user_type, 'dashboard.leaderboard');

  return (
    <Stack gap="md">
      <PageHeader
        title={menuLabel('dashboard')}
        actions={
          <PeriodTabs
            value={params.period}
            range={{ from: params.from, to: params.to }}
            onChange={(next, range) => setParams({ period: next, ...range })}
          />
        }
      />
      <StatTiles stats={stats.data} period={params} role={user.user_type} />
      <Suspense
        fallback={
          <Paper withBorder radius="lg" h={320}>
            <Center h="100%">
              <Loader size="sm" />
            </Center>
          </Paper>
        }
      >
        <ScansChart chart={chart.data} />
      </Suspense>
      {canFollowUp(user.user_type) && (
        <Suspense fallback={null}>
          <FollowUpSection period={period} listPeriod={params} />
        </Suspense>
      )}
      {seesLeaderboard && <LeaderboardBox period={period} />}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <DeviceStatsBox period={period} listPeriod={params} />
        <TechnicianStatsBox period={period} showOrganization={seesLeaderboard} />
      </SimpleGrid>
    </Stack>
  );
}
