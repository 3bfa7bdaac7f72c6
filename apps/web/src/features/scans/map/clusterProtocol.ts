// Messages between the scan map and its two clustering workers, and a small promise-based client for them. The
// grid worker fetches `GET scan/lat-long/` itself (`fetch`) and counts the points into its cells as the bytes
// arrive (its event loop is free, so the download runs at full speed), builds the grid index of the low zooms and
// answers with the points (transferred, not copied), which the points worker takes (`load`) to index the deeper
// zooms. `markers` and `leaves` read either index. Before the points, the grid worker fetches the first picture
// (`cells`: `GET scan/lat-long/cells/`, issue 24) and answers `markers` from it until its grid index is built;
// `cellKeys` names the cells of a first-picture group, whose scans the points worker finds (`idsInCells`).
import { createInThreadClusterPort } from './inThreadClusterPort.ts';
import type { Bbox, CompactPoints, MapMarker } from './clusterIndex.ts';

/** A refused or failed request: the HTTP status (0: no answer) and the error body, as ApiError takes them. */
export type FetchFailure = { status: number; body: { detail?: string } & Record<string, unknown> };

export type ClusterRequest =
  | { id: number; type: 'cells'; url: string; headers: Record<string, string> }
  | { id: number; type: 'cellKeys'; group: number }
  | { id: number; type: 'idsInCells'; keys: number[]; limit: number }
  | { id: number; type: 'fetch'; url: string; headers: Record<string, string> }
  | { id: number; type: 'load'; points: CompactPoints }
  | { id: number; type: 'markers'; bbox: Bbox; zoom: number }
  | { id: number; type: 'leaves'; group: number; limit: number };

export type ClusterResponse =
  /** `cells` done: the first picture can be drawn. */
  | { id: number; type: 'cellsReady'; size: number }
  | { id: number; type: 'cellKeys'; keys: number[] }
  /** `fetch` done: the grid index is ready; the points go on to the points worker. */
  | { id: number; type: 'fetched'; size: number; points: CompactPoints }
  | { id: number; type: 'failed'; failure: FetchFailure }
  /** `load` done. */
  | { id: number; type: 'loaded'; size: number }
  | { id: number; type: 'markers'; markers: MapMarker[] }
  | { id: number; type: 'leaves'; ids: number[] };

type Pending = (response: ClusterResponse) => void;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Something that speaks the protocol: the Web Worker in the browser, an in-thread stand-in in tests. */
export type ClusterPort = {
  postMessage: (message: ClusterRequest, transfer?: Transferable[]) => void;
  onmessage: ((event: MessageEvent<ClusterResponse>) => void) | null;
  terminate: () => void;
};

export const pointBuffers = (points: CompactPoints): ArrayBuffer[] =>
  [points.ids.buffer, points.lat.buffer, points.lng.buffer] as ArrayBuffer[];

export class ClusterClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly port: ClusterPort) {
    port.onmessage = (event) => {
      const resolve = this.pending.get(event.data.id);
      this.pending.delete(event.data.id);
      resolve?.(event.data);
    };
  }

  private ask(request: DistributiveOmit<ClusterRequest, 'id'>, transfer: Transferable[] = []): Promise<ClusterResponse> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.port.postMessage({ ...request, id } as ClusterRequest, transfer);
    });
  }

  /** Grid worker: fetches the first picture's cells and indexes them; answers their scans, or the failure. */
  async cells(url: string, headers: Record<string, string>): Promise<{ size: number } | FetchFailure> {
    const answer = await this.ask({ type: 'cells', url, headers });
    if (answer.type === 'cellsReady') return { size: answer.size };
    return answer.type === 'failed' ? answer.failure : { status: 0, body: {} };
  }

  /** Grid worker: the cell keys of a first-picture group. */
  async cellKeys(group: number): Promise<number[]> {
    const answer = await this.ask({ type: 'cellKeys', group });
    return answer.type === 'cellKeys' ? answer.keys : [];
  }

  /** Points worker (once loaded): the ids of its points in these cells, at most `limit`. */
  async idsInCells(keys: number[], limit: number): Promise<number[]> {
    const answer = await this.ask({ type: 'idsInCells', keys, limit });
    return answer.type === 'leaves' ? answer.ids : [];
  }

  /** Grid worker: fetches the points and builds the grid index; answers the points, or the failure. */
  async fetch(url: string, headers: Record<string, string>): Promise<{ size: number; points: CompactPoints } | FetchFailure> {
    const answer = await this.ask({ type: 'fetch', url, headers });
    if (answer.type === 'fetched') return { size: answer.size, points: answer.points };
    return answer.type === 'failed' ? answer.failure : { status: 0, body: {} };
  }

  /** Points worker: builds the point index (the buffers are transferred: do not use them afterwards). */
  async load(points: CompactPoints): Promise<number> {
    const answer = await this.ask({ type: 'load', points }, pointBuffers(points));
    return answer.type === 'loaded' ? answer.size : 0;
  }

  async markers(bbox: Bbox, zoom: number): Promise<MapMarker[]> {
    const answer = await this.ask({ type: 'markers', bbox, zoom });
    return answer.type === 'markers' ? answer.markers : [];
  }

  async leaves(group: number, limit: number): Promise<number[]> {
    const answer = await this.ask({ type: 'leaves', group, limit });
    return answer.type === 'leaves' ? answer.ids : [];
  }

  terminate(): void {
    this.pending.clear();
    this.port.terminate();
  }
}

/** The browser's worker; where there is none (jsdom, an old browser), the same protocol in this thread. */
export const createClusterWorker = (): ClusterPort =>
  typeof Worker === 'undefined'
    ? createInThreadClusterPort()
    : (new Worker(new URL('./clusterWorker.ts', import.meta.url), { type: 'module' }) as unknown as ClusterPort);
