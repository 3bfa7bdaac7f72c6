// The three tiles of part 2 §2.1: Scans, Positive Scans, Positivity Rate (a percent with one decimal, 0 when empty).
// Issue 23.13: the tiles count SCAN-type scans only (architecture §7), while the Breast Scans list shows every type;
// each tile says what it counts (type and period) and, for a role that may open the list, links to the list with the
// same filters, so the number followed is the number found.
import { Anchor, Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatPositivity, type TDashboardStats } from '@sc/shared/dashboard';
import type { TUserType } from '@sc/shared/roles';
import { canOpenMenuKey } from '../../../app/routeAccess.ts';
import { PERIOD_LABELS, formatRange, type PeriodParams } from '../../../components/list/periods.ts';

type StatTilesProps = { stats: TDashboardStats | undefined; period: PeriodParams; role: TUserType };

/** The scan type the statistics count (architecture §7): training and practice scans are not screening. */
export const STATS_SCAN_TYPE = 'SCAN';

/** 'All Time', 'Last 30 Days' or the custom range's dates. */
export function periodLabel(period: PeriodParams): string {
  return period.period === 'custom_range' && period.from ? formatRange(period) : PERIOD_LABELS[period.period];
}

/**
 * The Breast Scans list with a statistic's filters: SCAN type and the same period, plus positives for the second
 * tile or a device for a By Device row.
 */
export function statsListPath(period: PeriodParams, extra: { positive?: boolean; device?: string } = {}): string {
  const query = new URLSearchParams({ scan_type: STATS_SCAN_TYPE });
  if (extra.positive) query.set('positive', 'yes');
  if (extra.device !== undefined) query.set('device', extra.device);
  if (period.period !== 'today') query.set('period', period.period);
  if (period.period === 'custom_range') {
    if (period.from) query.set('from', period.from);
    if (period.to) query.set('to', period.to);
  }
  return `/scan?${query.toString()}`;
}

export function StatTiles({ stats, period, role }: StatTilesProps) {
  const opensList = canOpenMenuKey(role, 'scan');
  const caption = `Type ${STATS_SCAN_TYPE} only · ${periodLabel(period)}`;
  const tiles = [
    {
      key: 'scans',
      label: 'Scans',
      value: stats && stats.scans_in_data_range_count.toLocaleString('en-US'),
      to: opensList ? statsListPath(period) : undefined,
    },
    {
      key: 'positive',
      label: 'Positive Scans',
      value: stats && stats.positive_scans_in_data_range_count.toLocaleString('en-US'),
      to: opensList ? statsListPath(period, { positive: true }) : undefined,
    },
    {
      key: 'positivity',
      label: 'Positivity Rate',
      value: stats && formatPositivity(stats.positivity_rate_in_data_range_count),
      to: undefined,
    },
  ];
  return (
    // Three across at every width: on a phone the figures shrink rather than taking a screen each.
    <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'md' }}>
      {tiles.map((tile) => (
        <Paper key={tile.key} withBorder radius="lg" p={{ base: 'xs', sm: 'md' }} data-testid={`tile-${tile.key}`}>
          <Text fz={{ base: 'xs', sm: 'sm' }} c="dimmed" fw={500}>
            {tile.label}
          </Text>
          {tile.value === undefined ? (
            <Skeleton height={34} mt={6} width="50%" />
          ) : tile.to ? (
            <Anchor
              component={Link}
              to={tile.to}
              fz={{ base: 20, sm: 30 }}
              fw={700}
              lh={1.3}
              c="inherit"
              display="block"
              aria-label={`${tile.label}: ${tile.value}, ${caption}. Open in Breast Scans`}
              title="Open these scans in Breast Scans"
              data-testid={`tile-${tile.key}-value`}
            >
              {tile.value}
            </Anchor>
          ) : (
            <Text fz={{ base: 20, sm: 30 }} fw={700} lh={1.3} data-testid={`tile-${tile.key}-value`}>
              {tile.value}
            </Text>
          )}
          <Text fz="xs" c="dimmed" data-testid={`tile-${tile.key}-caption`}>
            {caption}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
