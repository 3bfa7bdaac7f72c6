// The clustering protocol answered in the same thread: for tests (jsdom has no Worker) and browsers without module
// workers. Same messages as clusterWorker.ts, delivered asynchronously like a worker's.
import { buildClusterIndex, type ClusterIndex } from './clusterIndex.ts';
import type { ClusterPort, ClusterRequest, ClusterResponse } from './clusterProtocol.ts';

export function createInThreadClusterPort(): ClusterPort {
  let index: ClusterIndex | null = null;
  const port: ClusterPort = {
    onmessage: null,
    terminate: () => {
      index = null;
    },
    postMessage: (message: ClusterRequest) => {
      let answer: ClusterResponse;
      switch (message.type) {
        case 'load':
          index = buildClusterIndex(message.points);
          answer = { id: message.id, type: 'loaded', size: index.size };
          break;
        case 'markers':
          answer = { id: message.id, type: 'markers', markers: index ? index.markers(message.bbox, message.zoom) : [] };
          break;
        case 'leaves':
          answer = { id: message.id, type: 'leaves', ids: index ? index.leavesOf(message.clusterId) : [] };
          break;
      }
      queueMicrotask(() => port.onmessage?.({ data: answer } as MessageEvent<ClusterResponse>));
    },
  };
  return port;
}
