// The map of the scan list (part 2 §2.7 Map; route mapreport and the List/Map toggle): every scan the list's
// filters select, streamed as packed points (GET scan/lat-long/) into the clustering workers (useScanMap; the
// route's loader may have started it); a marker or cluster click hands its ids to the scan list modal.
import { Alert } from '@mantine/core';
import { ApiError, errorMessage } from '../../../api/client.ts';
import type { TScanFilterQuery } from '../scans.api.ts';
import { ScanClusterMap } from './ScanClusterMap.tsx';
import { useScanMap } from './scanMap.api.ts';

type ScanMapViewProps = { filters: TScanFilterQuery; onSelectIds: (ids: number[], total: number) => void };

export function ScanMapView({ filters, onSelectIds }: ScanMapViewProps) {
  const map = useScanMap(filters);
  return (
    <>
      {map.isError && !(map.error instanceof ApiError && map.error.status === 401) && (
        <Alert color="red" variant="light" m="md" data-testid="scan-map-error">
          {errorMessage(map.error)}
        </Alert>
      )}
      <ScanClusterMap source={map.data} loading={map.isFetching} onSelectIds={onSelectIds} />
    </>
  );
}
