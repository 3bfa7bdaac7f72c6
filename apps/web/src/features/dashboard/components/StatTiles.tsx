// The three tiles of part 2 §2.1: Scans, Positive Scans, Positivity Rate (a percent with one decimal, 0 when empty).
import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { formatPositivity, type TDashboardStats } from '@sc/shared/dashboard';

type StatTilesProps = { stats: TDashboardStats | undefined };

export function StatTiles({ stats }: StatTilesProps) {
  const tiles = [
    { key: 'scans', label: 'Scans', value: stats && stats.scans_in_data_range_count.toLocaleString('en-US') },
    {
      key: 'positive',
      label: 'Positive Scans',
      value: stats && stats.positive_scans_in_data_range_count.toLocaleString('en-US'),
    },
    {
      key: 'positivity',
      label: 'Positivity Rate',
      value: stats && formatPositivity(stats.positivity_rate_in_data_range_count),
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
          ) : (
            <Text fz={{ base: 20, sm: 30 }} fw={700} lh={1.3} data-testid={`tile-${tile.key}-value`}>
              {tile.value}
            </Text>
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
