// The scan map's clustering off the main thread: `load` builds the index from compact points (transferred, not
// copied), `markers` answers the clusters of a view, `leaves` the scan ids of a cluster. Messages carry a request id.
import { buildClusterIndex, type ClusterIndex } from './clusterIndex.ts';
import type { ClusterRequest, ClusterResponse } from './clusterProtocol.ts';

let index: ClusterIndex | null = null;

const reply = (message: ClusterResponse) => (self as unknown as Worker).postMessage(message);

self.onmessage = (event: MessageEvent<ClusterRequest>) => {
  const message = event.data;
  switch (message.type) {
    case 'load':
      index = buildClusterIndex(message.points);
      reply({ id: message.id, type: 'loaded', size: index.size });
      return;
    case 'markers':
      reply({ id: message.id, type: 'markers', markers: index ? index.markers(message.bbox, message.zoom) : [] });
      return;
    case 'leaves':
      reply({ id: message.id, type: 'leaves', ids: index ? index.leavesOf(message.clusterId) : [] });
      return;
  }
};
