// Messages between the scan map and its clustering worker, and a small promise-based client for them.
import { createInThreadClusterPort } from './inThreadClusterPort.ts';
import type { CompactPoints, MapMarker } from './clusterIndex.ts';

export type ClusterRequest =
  | { id: number; type: 'load'; points: CompactPoints }
  | { id: number; type: 'markers'; bbox: [number, number, number, number]; zoom: number }
  | { id: number; type: 'leaves'; clusterId: number };

export type ClusterResponse =
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

  async load(points: CompactPoints): Promise<number> {
    const answer = await this.ask({ type: 'load', points }, [points.ids.buffer, points.lat.buffer, points.lng.buffer]);
    return answer.type === 'loaded' ? answer.size : 0;
  }

  async markers(bbox: [number, number, number, number], zoom: number): Promise<MapMarker[]> {
    const answer = await this.ask({ type: 'markers', bbox, zoom });
    return answer.type === 'markers' ? answer.markers : [];
  }

  async leaves(clusterId: number): Promise<number[]> {
    const answer = await this.ask({ type: 'leaves', clusterId });
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
