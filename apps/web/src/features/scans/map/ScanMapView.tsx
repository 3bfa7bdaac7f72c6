// The map of the scan list (part 2 §2.7 Map; route mapreport and the List/Map toggle): every scan the list's
// filters select, fetched as packed points (GET scan/lat-long/) and clustered in a worker; a marker or cluster click
// hands its ids to the scan list modal.
import { Alert } from '@mantine/core';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useScanPoints, type TScanFilterQuery } from '../scans.api.ts';
import { ScanClusterMap } from './ScanClusterMap.tsx';

type ScanMapViewProps = { filters: TScanFilterQuery; onSelectIds: (ids: number[]) => void };

export function ScanMapView({ filters, onSelectIds }: ScanMapViewProps) {
  const points = useScanPoints(filters);
  return (
    <>
      {points.isError && !(points.error instanceof ApiError && points.error.status === 401) && (
        <Alert color="red" variant="light" m="md" data-testid="scan-map-error">
          {errorMessage(points.error)}
        </Alert>
      )}
      <ScanClusterMap points={points.data} loading={points.isFetching} onSelectIds={onSelectIds} />
    </>
  );
}
