// What compressing the answers costs and saves (issue 24), on the configured database (a million scans for the
// figures in docs/decisions.md). `BENCH_ONLY=compression npm run bench`.
// - A page of 50 scans (JSON): its size, then the CPU one compression of it takes at each gzip level and brotli
//   quality (node:zlib, 200 times each), and the Node CPU per request through the whole app with and without
//   Accept-Encoding (app.inject, the levels the server uses: http/compression.ts).
// - The CSV of every scan over a local port: identity, gzip and brotli as the server sends them, bytes on the wire,
//   wall time, process CPU and the server's peak RSS growth while it streams (flat memory: the rows are not gathered);
//   and each level's CPU on the CSV's first 32 MB, scaled to the whole file.
import http from 'node:http';
import zlib from 'node:zlib';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { benchSelected, benchToken } from './http-bench.ts';

type Level = { name: string; compress: (body: Buffer) => Buffer };

const LEVELS: Level[] = [
  ...[1, 4, 6, 9].map((level) => ({
    name: `gzip ${level}`,
    compress: (body: Buffer) => zlib.gzipSync(body, { level }),
  })),
  ...[1, 4, 5, 6, 11].map((quality) => ({
    name: `brotli ${quality}`,
    compress: (body: Buffer) =>
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
  })),
];

/** CPU ms of one run of `fn`, averaged over `n` runs (after one to warm up). */
function cpuMs(fn: () => unknown, n: number): number {
  fn();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / n;
}

/** The highest RSS sampled in [from, to), less the RSS before, in MB. */
const peakGrowth = (samples: Array<{ at: number; rss: number }>, before: number, from: number, to: number) =>
  Math.round(
    (Math.max(before, ...samples.filter((x) => x.at >= from && x.at < to).map((x) => x.rss)) - before) / 1e6,
  );

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export type CompressionLine = Record<string, string | number>;

export async function benchCompression(
  database: Database,
  config: Config,
): Promise<{ page: Record<string, CompressionLine>; csv: Record<string, CompressionLine> }> {
  const page: Record<string, CompressionLine> = {};
  const csv: Record<string, CompressionLine> = {};
  const pageSelected = benchSelected('compression: a page of 50 scans');
  const csvSelected = benchSelected('compression: CSV of every scan');
  if (!pageSelected && !csvSelected) return { page, csv };
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  try {
    const headers = {
      authorization: `Token ${await benchToken(database, config, 'ADMIN')}`,
      timezone: 'Asia/Kolkata',
    };

    if (pageSelected) await benchPage();
    if (csvSelected) await benchCsv();
    return { page, csv };

    async function benchPage() {
      // A page of 50 scans, as the scan list asks for it at its largest page size.
      const pageUrl = '/api/v1/scan/?limit=50&using_read_db=true';
      const plain = await app.inject({ method: 'GET', url: pageUrl, headers });
      if (plain.statusCode !== 200)
        throw new Error(`${pageUrl}: ${plain.statusCode} ${plain.body.slice(0, 200)}`);
      const body = plain.rawPayload;
      page['identity'] = { bytes: body.length, 'cpu ms': 0, ratio: 1 };
      for (const level of LEVELS) {
        const out = level.compress(body);
        page[level.name] = {
          bytes: out.length,
          'cpu ms': round(
            cpuMs(() => level.compress(body), 200),
            3,
          ),
          ratio: round(body.length / out.length, 1),
        };
      }
      // The whole request, as the server runs it (its levels), one at a time.
      const N = 300;
      for (const accept of ['identity', 'gzip', 'br']) {
        const call = async () => {
          const res = await app.inject({
            method: 'GET',
            url: pageUrl,
            headers: { ...headers, 'accept-encoding': accept },
          });
          if (res.statusCode !== 200) throw new Error(`${pageUrl}: ${res.statusCode}`);
          return res.rawPayload.length;
        };
        for (let i = 0; i < 50; i++) await call();
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        let bytes = 0;
        for (let i = 0; i < N; i++) bytes = await call();
        const used = process.cpuUsage(cpu);
        page[`whole request, Accept-Encoding: ${accept}`] = {
          bytes,
          'cpu ms': round((used.user + used.system) / 1000 / N),
          ratio: round(body.length / bytes, 1),
          'wall ms': round((performance.now() - t0) / N),
        };
      }
    }

    async function benchCsv() {
      if (!address || typeof address === 'string') return;
      // The CSV of every scan, streamed over a real socket, as each encoding.
      const SAMPLE_BYTES = 32 * 1024 * 1024;
      let sample = Buffer.alloc(0);
      let identityBytes = 0;
      for (const accept of ['identity', 'gzip', 'br']) {
        // RSS sampled while the file streams; the peaks of the first and second half of the time are compared after:
        // flat memory keeps them alike whatever the file's length.
        const rssBefore = process.memoryUsage().rss;
        const rss: Array<{ at: number; rss: number }> = [];
        const sampler = setInterval(
          () => rss.push({ at: performance.now(), rss: process.memoryUsage().rss }),
          50,
        );
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        const chunks: Buffer[] = [];
        let kept = 0;
        const { bytes, encoding } = await new Promise<{ bytes: number; encoding: string }>(
          (resolve, reject) => {
            http
              .get(
                {
                  host: '127.0.0.1',
                  port: address.port,
                  path: '/api/v1/scan/?format=csv',
                  headers: { ...headers, 'accept-encoding': accept },
                },
                (res) => {
                  if (res.statusCode !== 200) return reject(new Error(`CSV: ${res.statusCode}`));
                  let n = 0;
                  res.on('data', (chunk: Buffer) => {
                    n += chunk.length;
                    if (accept === 'identity' && kept < SAMPLE_BYTES) {
                      chunks.push(chunk);
                      kept += chunk.length;
                    }
                  });
                  res.on('end', () =>
                    resolve({ bytes: n, encoding: String(res.headers['content-encoding'] ?? 'identity') }),
                  );
                  res.on('error', reject);
                },
              )
              .on('error', reject);
          },
        );
        const seconds = (performance.now() - t0) / 1000;
        const used = process.cpuUsage(cpu);
        clearInterval(sampler);
        if (accept === 'identity') {
          sample = Buffer.concat(chunks).subarray(0, SAMPLE_BYTES);
          identityBytes = bytes;
        }
        csv[`every scan, Accept-Encoding: ${accept}`] = {
          'sent as': encoding,
          'on the wire': mb(bytes),
          ratio: round(identityBytes / bytes, 1),
          'wall s': round(seconds, 1),
          'process cpu s': round((used.user + used.system) / 1e6, 1),
          'RSS growth, 1st half': `+${peakGrowth(rss, rssBefore, t0, t0 + (seconds * 1000) / 2)} MB`,
          'RSS growth, 2nd half': `+${peakGrowth(rss, rssBefore, t0 + (seconds * 1000) / 2, Infinity)} MB`,
        };
      }
      // Each level on the CSV's first 32 MB, scaled to the whole file: the CPU one download would cost at that level.
      for (const level of LEVELS) {
        if (level.name === 'brotli 11') continue; // minutes for the whole file: only for build-time assets
        const t0 = process.cpuUsage();
        const out = level.compress(sample);
        const used = process.cpuUsage(t0);
        const scale = identityBytes / sample.length;
        csv[`${level.name} (first ${mb(sample.length)}, scaled)`] = {
          'on the wire': mb(out.length * scale),
          ratio: round(sample.length / out.length, 1),
          'cpu s for the whole file': round(((used.user + used.system) / 1e6) * scale, 1),
          'MB/s': round(sample.length / 1e6 / ((used.user + used.system) / 1e6), 0),
        };
      }
    }
  } finally {
    await app.close();
  }
}
