// What a clustering worker does with each message (clusterProtocol.ts); the worker and the in-thread port both
// run it. `fetch` (the grid worker) reads the answer chunk by chunk, counting each into the grid as it comes;
// `load` (the points worker) indexes the points it is handed.
import {
  COARSE_MAX_ZOOM,
  GridIndexBuilder,
  PointStreamDecoder,
  buildPointIndex,
  type ClusterIndex,
} from './clusterIndex.ts';
import { pointBuffers, type ClusterRequest, type ClusterResponse, type FetchFailure } from './clusterProtocol.ts';

type Reply = (message: ClusterResponse, transfer?: Transferable[]) => void;

async function failureOf(response: Response): Promise<FetchFailure> {
  const body = (await response.json().catch(() => ({ detail: response.statusText }))) as FetchFailure['body'];
  return { status: response.status, body };
}

const UNREACHABLE: FetchFailure = {
  status: 0,
  body: { detail: 'Unable to reach the server. Check your connection and try again.' },
};

async function fetchGrid(url: string, headers: Record<string, string>): Promise<{ index: ClusterIndex; builder: GridIndexBuilder } | FetchFailure> {
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch {
    return UNREACHABLE;
  }
  if (!response.ok || !response.body) return failureOf(response);
  const builder = new GridIndexBuilder();
  const decoder = new PointStreamDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const whole = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
      builder.add(decoder.push(whole ? (value.buffer as ArrayBuffer) : value.slice().buffer));
    }
  } catch {
    return UNREACHABLE;
  }
  return { index: builder.build(), builder };
}

export function createClusterHandler(reply: Reply): (message: ClusterRequest) => void {
  let index: ClusterIndex | null = null;

  return (message) => {
    switch (message.type) {
      case 'fetch':
        void fetchGrid(message.url, message.headers).then((result) => {
          if ('status' in result) {
            reply({ id: message.id, type: 'failed', failure: result });
            return;
          }
          index = result.index;
          const points = result.builder.points();
          reply({ id: message.id, type: 'fetched', size: index.size, points }, pointBuffers(points));
        });
        return;
      case 'load':
        index = buildPointIndex(message.points, COARSE_MAX_ZOOM + 1);
        reply({ id: message.id, type: 'loaded', size: index.size });
        return;
      case 'markers':
        reply({ id: message.id, type: 'markers', markers: index ? index.markers(message.bbox, message.zoom) : [] });
        return;
      case 'leaves':
        reply({ id: message.id, type: 'leaves', ids: index ? index.leaves(message.group, message.limit) : [] });
        return;
    }
  };
}
