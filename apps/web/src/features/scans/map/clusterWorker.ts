// The scan map's clustering off the main thread (clusterProtocol.ts, clusterHandler.ts). It imports only the
// clustering and the packed point format, so the worker's script stays small.
import { createClusterHandler } from './clusterHandler.ts';
import type { ClusterRequest } from './clusterProtocol.ts';

const handle = createClusterHandler((message, transfer = []) => (self as unknown as Worker).postMessage(message, transfer));

self.onmessage = (event: MessageEvent<ClusterRequest>) => handle(event.data);
