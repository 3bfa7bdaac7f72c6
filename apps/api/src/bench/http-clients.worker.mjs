// The bench's HTTP clients (scans-bench.ts run()), in a worker thread: concurrent clients call one URL and time
// each whole answer (read to its last byte), so the server's event loop serves requests only, as it would with
// browsers on other machines. Plain JavaScript: a worker does not inherit the main thread's tsx loader.
// The clients are node:http on kept-alive connections (as a browser's), not fetch: they share the server's two cores,
// and fetch's web streams cost them about twice the CPU a request, time taken from the server being measured.
/* global performance, Buffer */
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, headers, requests, clients, warmUp } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: clients });

/** One GET read to its last byte: its bytes and newlines (CSV rows + header). */
function fetchAll() {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent }, (res) => {
      let bytes = 0;
      let lines = 0;
      const chunks = [];
      res.on('data', (chunk) => {
        bytes += chunk.byteLength;
        let at = chunk.indexOf(10);
        while (at !== -1) {
          lines++;
          at = chunk.indexOf(10, at + 1);
        }
        if (res.statusCode !== 200 && chunks.length < 4) chunks.push(chunk);
      });
      res.on('end', () => {
        if (res.statusCode !== 200) {
          reject(new Error(`${url}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`));
        } else resolve({ bytes, lines });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
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
