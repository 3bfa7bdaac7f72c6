// Scans and positive scans over the chosen period (issue 9): per day for periods up to two months, else per month,
// in the browser's time zone (the API counts them in the Timezone header's zone).
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Center, Loader, Text } from '@mantine/core';
import dayjs from 'dayjs';
import type { TDashboardChart } from '@sc/shared/dashboard';
import { DashboardBox } from './DashboardBox.tsx';

type ScansChartProps = { chart: TDashboardChart | undefined };

export function ScansChart({ chart }: ScansChartProps) {
  const format = chart?.interval === 'month' ? 'MMM YYYY' : 'DD MMM';
  const data = (chart?.points ?? []).map((p) => ({
    label: dayjs(p.date).format(format),
    Scans: p.scans,
    'Positive Scans': p.positives,
  }));
  return (
    <DashboardBox
      title={chart?.interval === 'month' ? 'Scans per month' : 'Scans per day'}
      testId="dashboard-chart"
    >
      {!chart ? (
        <Center h={260}>
          <Loader size="sm" />
        </Center>
      ) : data.length === 0 ? (
        <Center h={120}>
          <Text c="dimmed">No scans in this period.</Text>
        </Center>
      ) : (
        <BarChart
          h={260}
          px="md"
          pb="md"
          data={data}
          dataKey="label"
          withLegend
          legendProps={{ verticalAlign: 'top', height: 36 }}
          series={[
            { name: 'Scans', color: 'teal.7' },
            { name: 'Positive Scans', color: 'red.7' },
          ]}
          tickLine="y"
          gridAxis="x"
          aria-label="Scans and positive scans over the period"
        />
      )}
    </DashboardBox>
  );
}
