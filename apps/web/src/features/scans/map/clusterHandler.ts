// What a clustering worker does with each message (clusterProtocol.ts); the worker and the in-thread port both
// run it. `fetch` (the grid worker) reads the answer chunk by chunk, counting each into the grid as it comes;
// `load` (the points worker) indexes the points it is handed.
import { SCAN_CELLS_MAX_ZOOM, decodeScanCells } from '@sc/shared/scan-points';
import {
  COARSE_MAX_ZOOM,
  GridIndexBuilder,
  PointStreamDecoder,
  buildCellIndex,
  buildPointIndex,
  scanIdsInCells,
  type CellIndex,
  type ClusterIndex,
  type CompactPoints,
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

/** The first picture: the cells of `GET scan/lat-long/cells/`, indexed. */
async function fetchCells(url: string, headers: Record<string, string>): Promise<CellIndex | FetchFailure> {
  try {
    const response = await fetch(url, { headers });
    if (!response.ok) return await failureOf(response);
    return buildCellIndex(decodeScanCells(await response.arrayBuffer()), SCAN_CELLS_MAX_ZOOM);
  } catch {
    return UNREACHABLE;
  }
}

export function createClusterHandler(reply: Reply): (message: ClusterRequest) => void {
  let index: ClusterIndex | null = null;
  let cellIndex: CellIndex | null = null;
  let points: CompactPoints | null = null;

  return (message) => {
    switch (message.type) {
      case 'cells':
        void fetchCells(message.url, message.headers).then((result) => {
          if ('status' in result) {
            reply({ id: message.id, type: 'failed', failure: result });
            return;
          }
          cellIndex = result;
          reply({ id: message.id, type: 'cellsReady', size: result.size });
        });
        return;
      case 'cellKeys':
        reply({ id: message.id, type: 'cellKeys', keys: cellIndex ? cellIndex.cellKeys(message.group) : [] });
        return;
      case 'idsInCells':
        reply({ id: message.id, type: 'leaves', ids: points ? scanIdsInCells(points, message.keys, message.limit) : [] });
        return;
      case 'fetch':
        void fetchGrid(message.url, message.headers).then((result) => {
          if ('status' in result) {
            reply({ id: message.id, type: 'failed', failure: result });
            return;
          }
          // The grid index answers the zooms after the first picture's.
          index = result.index;
          const all = result.builder.points();
          reply({ id: message.id, type: 'fetched', size: index.size, points: all }, pointBuffers(all));
        });
        return;
      case 'load':
        points = message.points;
        index = buildPointIndex(message.points, COARSE_MAX_ZOOM + 1);
        reply({ id: message.id, type: 'loaded', size: index.size });
        return;
      case 'markers': {
        // The first picture's zooms stay on the cells once the points are there: the markers under the user's
        // pointer do not move or regroup (their counts are exact either way).
        const from = cellIndex && (Math.round(message.zoom) <= SCAN_CELLS_MAX_ZOOM || !index) ? cellIndex : index;
        reply({ id: message.id, type: 'markers', markers: from ? from.markers(message.bbox, message.zoom) : [] });
        return;
      }
      case 'leaves':
        reply({ id: message.id, type: 'leaves', ids: index ? index.leaves(message.group, message.limit) : [] });
        return;
    }
  };
}
