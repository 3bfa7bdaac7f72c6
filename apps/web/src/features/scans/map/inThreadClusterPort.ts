// The clustering protocol answered in the same thread: for tests (jsdom has no Worker) and browsers without module
// workers. Same handler as clusterWorker.ts, answers delivered asynchronously like a worker's.
import { createClusterHandler } from './clusterHandler.ts';
import type { ClusterPort, ClusterResponse } from './clusterProtocol.ts';

export function createInThreadClusterPort(): ClusterPort {
  let closed = false;
  const handle = createClusterHandler((answer: ClusterResponse) =>
    queueMicrotask(() => {
      if (!closed) port.onmessage?.({ data: answer } as MessageEvent<ClusterResponse>);
    }),
  );
  const port: ClusterPort = {
    onmessage: null,
    terminate: () => {
      closed = true;
    },
    postMessage: (message) => {
      if (!closed) handle(message);
    },
  };
  return port;
}
