// One filter set's scans on the map (part 2 §2.7 Map; issue 8 "Speed"). Two clustering workers: the grid worker
// fetches the packed points of `GET scan/lat-long/` and counts them into cells as they arrive, so the low zooms (the
// first picture) are ready right after the last byte; it then hands the points (transferred) to the points worker,
// which builds the one-feature-a-scan index of the deeper zooms. Nothing a scan stays on the main thread.
import { SCAN_IDS_BODY_MAX } from '@sc/shared/scans';
import { ApiError } from '../../../api/client.ts';
import { COARSE_MAX_ZOOM, type Bbox, type MapMarker } from './clusterIndex.ts';
import { ClusterClient, createClusterWorker, type ClusterPort } from './clusterProtocol.ts';

/** The ids a cluster click lists at most: what `POST scan/ids/` accepts (the scan list modal pages through them). */
export const CLUSTER_IDS_MAX = SCAN_IDS_BODY_MAX;

const isCoarse = (zoom: number) => Math.round(zoom) <= COARSE_MAX_ZOOM;

export class ScanMapSource {
  private readonly grid: ClusterClient;
  private readonly points: ClusterClient;
  private fine = false;
  /** Scans on the map (known once `load` has answered). */
  size = 0;
  /** Settles when the deeper zooms are ready (until then their markers wait for it). */
  fineReady: Promise<void> = Promise.resolve();

  constructor(createPort: () => ClusterPort = createClusterWorker) {
    this.grid = new ClusterClient(createPort());
    this.points = new ClusterClient(createPort());
  }

  /** Fetches the points; answers once the low zooms can be drawn (the deeper ones follow: `fineReady`). */
  async load(request: { url: string; headers: Record<string, string> }): Promise<void> {
    const answer = await this.grid.fetch(request.url, request.headers);
    if (!('points' in answer)) throw new ApiError(answer.status, answer.body);
    this.size = answer.size;
    this.fineReady = this.points.load(answer.points).then(() => {
      this.fine = true;
    });
  }

  /** Whether markers at this zoom are answered now (false while the deeper zooms are still being indexed). */
  readyAt(zoom: number): boolean {
    return isCoarse(zoom) || this.fine;
  }

  markers(bbox: Bbox, zoom: number): Promise<MapMarker[]> {
    return (isCoarse(zoom) ? this.grid : this.points).markers(bbox, zoom);
  }

  /** The scan ids of a marker's group, drawn at `zoom` (at most CLUSTER_IDS_MAX). */
  leaves(zoom: number, group: number): Promise<number[]> {
    return (isCoarse(zoom) ? this.grid : this.points).leaves(group, CLUSTER_IDS_MAX);
  }

  terminate(): void {
    this.grid.terminate();
    this.points.terminate();
  }
}

/** A new source with its points loaded; its workers are let go if the load fails or is aborted. */
export async function loadScanMap(
  request: { url: string; headers: Record<string, string> },
  createPort?: () => ClusterPort,
  signal?: AbortSignal,
): Promise<ScanMapSource> {
  // User Timing marks for the paint bench (apps/api/src/bench/map-paint.ts).
  performance.mark('scan-map:request');
  const source = new ScanMapSource(createPort);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    signal?.throwIfAborted();
    await Promise.race([source.load(request), aborted]);
    performance.mark('scan-map:grid-ready');
    return source;
  } catch (error) {
    source.terminate();
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
