// The bench's HTTP clients (scans-bench.ts run()), in a worker thread: concurrent clients call one URL and time
// each whole answer (read to its last byte), so the server's event loop serves requests only, as it would with
// browsers on other machines. Plain JavaScript: a worker does not inherit the main thread's tsx loader.
/* global fetch, performance */
import { parentPort, workerData } from 'node:worker_threads';

const { url, headers, requests, clients, warmUp } = workerData;

async function fetchAll() {
  const res = await fetch(url, { headers });
  if (res.status !== 200 || !res.body) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.byteLength;
    for (let i = 0; i < chunk.byteLength; i++) if (chunk[i] === 10) lines++;
  }
  return { bytes, lines };
}

for (let i = 0; i < warmUp; i++) await fetchAll();
const samples = [];
let last = { bytes: 0, lines: 0 };
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (next < requests) {
      next++;
      const t0 = performance.now();
      last = await fetchAll();
      samples.push(performance.now() - t0);
    }
  }),
);
parentPort.postMessage({ samples, elapsed: performance.now() - started, last });
