// HTTP benchmark of the console's scan endpoints (issue 8 "Speed"): the app listens on a local port and real HTTP
// clients call it from a worker thread (not the server's event loop), so streaming (CSV, map points) is measured as
// a browser receives it. Printed per case: req/s, p50, p95 and max in ms; the CSV also rows/s and the server's peak
// RSS growth while it streams.
// Aims at a million scans on PostgreSQL: list p95 under 25 ms, all map points well under 1.5 s, CSV ≥ 100,000 rows/s.
import { Worker } from 'node:worker_threads';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { benchSelected, benchToken } from './http-bench.ts';

const CLIENTS = 10;
/** Requests per list line (`BENCH_REQUESTS=3000` for steadier percentiles). */
const LIST_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);

export type ScanBenchResult = {
  requests: number;
  'req/s': number;
  p50: number;
  p95: number;
  max: number;
  note: string;
};

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export async function benchScans(
  database: Database,
  config: Config,
): Promise<Record<string, ScanBenchResult>> {
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${address.port}/api/v1`;
  try {
    const token = await benchToken(database, config, 'ADMIN');
    const headers = { authorization: `Token ${token}`, timezone: 'Asia/Kolkata' };
    const [busiest] = await database.query<{ id: number }>(
      'SELECT organization_id AS id FROM scans WHERE organization_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
    );
    const orgId = busiest?.id ?? 1;
    const now = new Date();
    const last30 = `date_time_after=${isoDay(new Date(now.getTime() - 30 * 86_400_000))}&date_time_before=${isoDay(now)}`;

    /** Reads the whole body as it streams; returns bytes and newlines (CSV rows + header). */
    const fetchAll = async (url: string): Promise<{ bytes: number; lines: number }> => {
      const res = await fetch(`${base}${url}`, { headers });
      if (res.status !== 200 || !res.body)
        throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 200)}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        for (let i = 0; i < chunk.byteLength; i++) if (chunk[i] === 10) lines++;
      }
      return { bytes, lines };
    };

    /** `requests` calls of `url` by `clients` concurrent clients in a worker thread (http-clients.worker.mjs). */
    const orgAdminHeaders = { ...headers, authorization: `Token ${await benchToken(database, config, 'ORG_ADMIN')}` };
    const run = async (url: string, requests: number, clients = CLIENTS, warmUp = 3, as = headers) => {
      const { samples, elapsed, last } = await new Promise<{
        samples: number[];
        elapsed: number;
        last: { bytes: number; lines: number };
      }>((resolve, reject) => {
        const worker = new Worker(new URL('./http-clients.worker.mjs', import.meta.url), {
          workerData: { url: `${base}${url}`, headers: as, requests, clients, warmUp },
        });
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => code !== 0 && reject(new Error(`bench clients exited with ${code}`)));
      });
      samples.sort((a, b) => a - b);
      const at = (q: number) =>
        Math.round((samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0) * 10) / 10;
      return {
        requests: samples.length,
        'req/s': Math.round((samples.length / elapsed) * 10_000) / 10,
        p50: at(0.5),
        p95: at(0.95),
        max: at(1),
        last,
      };
    };

    const results: Record<string, ScanBenchResult> = {};
    const list = async (name: string, url: string, as = headers) => {
      if (!benchSelected(name)) return;
      // 100 calls first: a server in service has compiled its hot paths; the first line would otherwise pay for that.
      const r = await run(url, LIST_REQUESTS, CLIENTS, 100, as);
      results[name] = {
        requests: r.requests,
        'req/s': r['req/s'],
        p50: r.p50,
        p95: r.p95,
        max: r.max,
        note: `${r.last.bytes} bytes`,
      };
    };
    await list(
      'scan list: one organization, last 30 days, page of 10 + count',
      `/scan/?organization=${orgId}&${last30}&using_read_db=true`,
    );
    await list('scan list: all, newest first, page of 10 + count', '/scan/?using_read_db=true');
    await list(
      "scan list: patient search 'sha' (3 letters), page of 10 + count",
      '/scan/?search=sha&using_read_db=true',
    );
    await list(
      "scan list: patient search 'sha', last 30 days",
      `/scan/?search=sha&${last30}&using_read_db=true`,
    );

    // The patient list: the first page with its count, a 3-letter name search, and an ORG_ADMIN's last 30 days.
    await list('patients: page of 10, newest first (ADMIN)', '/patient/?using_read_db=true');
    await list("patients: search 'sha' (ADMIN)", '/patient/?search=sha&using_read_db=true');
    await list(
      'patients: last 30 days (ORG_ADMIN)',
      `/patient/?${last30.replaceAll('date_time', 'created')}`,
      orgAdminHeaders,
    );

    // The scan map's usual view (issue 24): every organization's last 30 days (about 214,000 points at a million).
    if (benchSelected('map points: all organizations, last 30 days')) {
      const recent = await run(`/scan/lat-long/?${last30}`, 50, CLIENTS, 2);
      results['map points: all organizations, last 30 days, 10 clients'] = {
        requests: recent.requests,
        'req/s': recent['req/s'],
        p50: recent.p50,
        p95: recent.p95,
        max: recent.max,
        note: `${(recent.last.bytes / 12).toLocaleString('en')} points, ${(recent.last.bytes / 1e6).toFixed(1)} MB`,
      };
    }

    if (!benchSelected('map points: every scan')) return results;
    const points = await run('/scan/lat-long/', 20, CLIENTS, 1);
    results['map points: every scan (12-byte records)'] = {
      requests: points.requests,
      'req/s': points['req/s'],
      p50: points.p50,
      p95: points.p95,
      max: points.max,
      note: `${(points.last.bytes / 12).toLocaleString('en')} points, ${(points.last.bytes / 1e6).toFixed(1)} MB`,
    };
    const onePoints = await run('/scan/lat-long/', 3, 1, 0);
    results['map points: every scan, one client'] = {
      requests: onePoints.requests,
      'req/s': onePoints['req/s'],
      p50: onePoints.p50,
      p95: onePoints.p95,
      max: onePoints.max,
      note: `${(onePoints.last.bytes / 12).toLocaleString('en')} points`,
    };

    if (!benchSelected('CSV: every scan')) return results;
    // The CSV of every scan, one client; RSS sampled while it streams.
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 50);
    const t0 = performance.now();
    const csv = await fetchAll('/scan/?format=csv');
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const rows = csv.lines - 1;
    results['CSV: every scan, one client'] = {
      requests: 1,
      'req/s': Math.round((1 / seconds) * 100) / 100,
      p50: Math.round(seconds * 1000),
      p95: Math.round(seconds * 1000),
      max: Math.round(seconds * 1000),
      note: `${rows.toLocaleString('en')} rows, ${Math.round(rows / seconds).toLocaleString('en')} rows/s, ${(csv.bytes / 1e6).toFixed(0)} MB, RSS +${Math.round((rssPeak - rssBefore) / 1e6)} MB`,
    };
    const csvOrg = await run(`/scan/?format=csv&organization=${orgId}&${last30}`, 20, CLIENTS, 1);
    results['CSV: one organization, last 30 days'] = {
      requests: csvOrg.requests,
      'req/s': csvOrg['req/s'],
      p50: csvOrg.p50,
      p95: csvOrg.p95,
      max: csvOrg.max,
      note: `${(csvOrg.last.lines - 1).toLocaleString('en')} rows`,
    };
    return results;
  } finally {
    await app.close();
  }
}
