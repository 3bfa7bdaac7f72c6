// The technician's scans in the re-certification modal (part 2 §2.7, §2.11, §4): a map of the scans of the
// window (a marker or cluster opens their list), then the embedded scan list: their own SCAN-type scans with a replay
// from 30 days before the certificate expiry (replay links carry re-certify=true), or their training or practice
// scans with Unreviewed / Correct / Incorrect.
import { useMemo, useState } from 'react';
import { SegmentedControl, Stack, Title } from '@mantine/core';
import type { TScanFilterQuery } from '../../scans/scans.api.ts';
import { ScanList } from '../../scans/components/ScanList.tsx';
import { ClusterScanListModal, type ClusterSelection } from '../../scans/components/ScanListModal.tsx';
import { ScanClusterMap } from '../../scans/map/ScanClusterMap.tsx';
import { useScanMap } from '../../scans/map/scanMap.api.ts';
import type { TTechnicianWindow } from './technicianSummary.api.ts';

const VIEWS = [
  { value: 'scan', label: 'Scans' },
  { value: 'TRAINING', label: 'Training' },
  { value: 'PRACTICE', label: 'Practice' },
] as const;
type View = (typeof VIEWS)[number]['value'];

/** URL prefixes of the modal's lists (each view its own, so a page number never carries over); removed on close. */
export const TECHNICIAN_URL_PREFIX = 'tech';
const TECHNICIAN_MAP_PREFIX = 'techmap_';
const MAP_HEIGHT = 360;

export function TechnicianScans({ technicianId, window }: { technicianId: number; window: TTechnicianWindow }) {
  const [view, setView] = useState<View>('scan');
  const [cluster, setCluster] = useState<ClusterSelection | null>(null);
  // The map shows every scan the counts count; the list the ones with a replay to review (part 2 §2.11).
  const mapQuery = useMemo<TScanFilterQuery>(() => ({ technician: technicianId, scan_type: 'SCAN', ...window }), [technicianId, window]);
  const listQuery = useMemo<TScanFilterQuery>(
    () => (view === 'scan' ? { ...mapQuery, is_replay_available: true } : { scan_type: view }),
    [view, mapQuery],
  );
  const map = useScanMap(mapQuery);

  return (
    <Stack gap="md">
      <div data-testid="technician-map">
        <ScanClusterMap source={map.data} loading={map.isFetching} onSelectIds={(ids, total) => setCluster({ ids, total })} height={MAP_HEIGHT} />
      </div>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Scans
        </Title>
        <SegmentedControl
          data={[...VIEWS]}
          value={view}
          onChange={(v) => setView(v as View)}
          aria-label="Scan type"
          w={{ base: '100%', sm: 'auto' }}
          style={{ alignSelf: 'flex-start' }}
          data-testid="technician-scan-view"
        />
        <ScanList key={view} embedded prefix={`${TECHNICIAN_URL_PREFIX}${view.toLowerCase()}_`} technicianId={technicianId} recertify fixedQuery={listQuery} />
      </Stack>
      <ClusterScanListModal cluster={cluster} prefix={TECHNICIAN_MAP_PREFIX} onClose={() => setCluster(null)} recertify />
    </Stack>
  );
}
