// One filter set's scans on the map (part 2 §2.7 Map; issue 8 "Speed"; issue 24 "first paint on Slow 4G"). Two
// clustering workers. The grid worker first fetches the first picture, the scans counted into cells by the server
// (`GET scan/lat-long/cells/`, tens of kB), and indexes them: the map draws the low zooms from it at once. When the
// map first asks for markers, the grid worker fetches the packed points of `GET scan/lat-long/` (megabytes: they
// would otherwise share the link with the page's code) and counts them into its own cells as they arrive; its grid
// index then answers the zooms after the first picture's (which stay on the cells: nothing moves under the user's
// pointer) and the points go on (transferred) to the points worker, which builds the one-feature-a-scan index of the
// deeper zooms. A click on a first-picture group lists its cells' scans: from the server while the points are
// coming, then from the points worker. Nothing a scan stays on the main thread.
import { SCAN_CELLS_MAX_ZOOM } from '@sc/shared/scan-points';
import { SCAN_IDS_BODY_MAX } from '@sc/shared/scans';
import { ApiError } from '../../../api/client.ts';
import { COARSE_MAX_ZOOM, type Bbox, type MapMarker } from './clusterIndex.ts';
import { ClusterClient, createClusterWorker, type ClusterPort } from './clusterProtocol.ts';

/** The ids a cluster click lists at most: what `POST scan/ids/` accepts (the scan list modal pages through them). */
export const CLUSTER_IDS_MAX = SCAN_IDS_BODY_MAX;

export type MapRequest = { url: string; headers: Record<string, string> };
/**
 * The map's requests for one filter set: the first picture's cells, the points, and the ids of some cells' scans
 * (`POST scan/lat-long/cells/ids/`, for a first-picture group clicked before the points have arrived).
 */
export type ScanMapRequests = { cells: MapRequest; points: MapRequest; cellIds?: (keys: number[]) => Promise<number[]> };

const isCoarse = (zoom: number) => Math.round(zoom) <= COARSE_MAX_ZOOM;
const isFirstPicture = (zoom: number) => Math.round(zoom) <= SCAN_CELLS_MAX_ZOOM;

export class ScanMapSource {
  private readonly grid: ClusterClient;
  private readonly points: ClusterClient;
  private request: MapRequest | null = null;
  private cellIds: ScanMapRequests['cellIds'];
  private pointsLoad: Promise<void> | null = null;
  /** The grid index answers the low zooms (the points have arrived). */
  private gridReady = false;
  /** The points could not be fetched: the first picture answers every zoom. */
  private pointsFailed = false;
  private fine = false;
  /** Scans on the map (known once `load` has answered). */
  size = 0;
  /** Settles when the deeper zooms are ready (until then their markers wait for it). */
  fineReady: Promise<void> = Promise.resolve();

  constructor(createPort: () => ClusterPort = createClusterWorker) {
    this.grid = new ClusterClient(createPort());
    this.points = new ClusterClient(createPort());
  }

  /** Fetches the first picture; answers once the low zooms can be drawn (the points follow: `loadPoints`). */
  async load(requests: ScanMapRequests): Promise<void> {
    const answer = await this.grid.cells(requests.cells.url, requests.cells.headers);
    if (!('size' in answer)) throw new ApiError(answer.status, answer.body);
    this.size = answer.size;
    this.request = requests.points;
    this.cellIds = requests.cellIds;
  }

  /** Fetches the points (once; the first markers asked start it). Settles when the grid index answers. */
  loadPoints(): Promise<void> {
    this.pointsLoad ??= this.fetchPoints();
    return this.pointsLoad;
  }

  private async fetchPoints(): Promise<void> {
    if (!this.request) return;
    const answer = await this.grid.fetch(this.request.url, this.request.headers);
    if (!('points' in answer)) {
      // The first picture stays (its counts are right); its groups list no scans.
      this.pointsFailed = true;
      return;
    }
    this.size = answer.size;
    this.fineReady = this.points.load(answer.points).then(() => {
      this.fine = true;
    });
    this.gridReady = true;
    performance.mark('scan-map:points-ready');
  }

  /** Whether markers at this zoom are answered now (false while the points are still coming or being indexed). */
  readyAt(zoom: number): boolean {
    if (isFirstPicture(zoom) || this.pointsFailed) return true;
    return isCoarse(zoom) ? this.gridReady : this.fine;
  }

  async markers(bbox: Bbox, zoom: number): Promise<MapMarker[]> {
    const points = this.loadPoints();
    if (!isFirstPicture(zoom)) await points;
    if (this.pointsFailed) return this.grid.markers(bbox, zoom);
    return (isCoarse(zoom) ? this.grid : this.points).markers(bbox, zoom);
  }

  /** The scan ids of a marker's group, drawn at `zoom` (at most CLUSTER_IDS_MAX). */
  async leaves(zoom: number, group: number): Promise<number[]> {
    if (group < 0) {
      // A group of the first picture: its cells' scans, asked of the server while the points are still coming
      // (on a slow link they take a while), else found among the points.
      const keys = await this.grid.cellKeys(group);
      if (!this.gridReady && !this.pointsFailed && this.cellIds) return this.cellIds(keys);
      await this.loadPoints();
      return this.pointsFailed ? [] : this.points.idsInCells(keys, CLUSTER_IDS_MAX);
    }
    return (isCoarse(zoom) ? this.grid : this.points).leaves(group, CLUSTER_IDS_MAX);
  }

  terminate(): void {
    this.grid.terminate();
    this.points.terminate();
  }
}

/** A new source with its first picture loaded; its workers are let go if the load fails or is aborted. */
export async function loadScanMap(
  requests: ScanMapRequests,
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
    await Promise.race([source.load(requests), aborted]);
    performance.mark('scan-map:grid-ready');
    return source;
  } catch (error) {
    source.terminate();
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
