// `node --import tsx apps/api/src/bench/map-paint.ts [base-url]`: first paint of the scan map in Chromium (issue 8
// "Speed": under 1.5 s for a million scans). Signs in as the demo ADMIN through the API, opens /mapreport and
// times, from the navigation, the first cluster marker drawn (the frame after it enters the page). The points
// (GET scan/lat-long/) are fetched by the map's worker, whose requests the page's timing does not list: the figure is
// the paint, with the number of scans the map says it holds. Runs RUNS times after one warm-up (the browser
// cache is off, so every run fetches the points again). `outerMs` is the same paint seen from this process (from
// `page.goto` to the marker found), as the first version of this script measured it.
// Start the server on the database to measure first, e.g. `DATABASE_URL=… PORT=3107 npm start`.
// `NETWORK=slow4g` emulates the issue 24 link (1.6 Mbps down, 750 kbps up, 150 ms round trip) for the page and its
// workers; `MAP_QUERY` appends to /mapreport (e.g. `?period=...`). `gridReadyMs` is the first picture (the server's
// cells, issue 24) ready, `pointsReadyMs` the points arrived and their grid index drawn in its place.
import { chromium } from 'playwright-core';

const base = (process.argv[2] ?? 'http://127.0.0.1:3107').replace(/\/+$/, '');
const RUNS = Number(process.env.RUNS ?? 3);
const password = process.env.DEMO_PASSWORD ?? 'Demo@2026';
const email = process.env.DEMO_EMAIL ?? 'admin@demo.test';
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };

async function post<T>(path: string, body: unknown): Promise<T> {
  const r = await fetch(`${base}/api/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

/** `TOKEN`: a session token to use instead of signing in (e.g. one the API bench's benchToken made). */
async function signIn(): Promise<string> {
  const { id_token } = await post<{ id_token: string }>('auth/password/', { email, password });
  return (await post<{ token: string }>('user/login/', { id_token })).token;
}
const token = process.env.TOKEN ?? (await signIn());

// What the page records (the API's TypeScript has no DOM types, so the in-page code speaks through this).
type PageTimes = { paint?: number; marks?: Record<string, number> };
type PageGlobal = {
  localStorage: { setItem: (key: string, value: string) => void };
  __mapPaint: PageTimes;
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1400, height: 900 } });
  await context.addInitScript((t) => {
    const g = globalThis as unknown as PageGlobal & {
      document: { querySelector: (s: string) => unknown };
      MutationObserver: new (cb: () => void) => { observe: (n: unknown, o: object) => void; disconnect: () => void };
      requestAnimationFrame: (cb: () => void) => void;
      performance: { now: () => number; getEntriesByType: (t: string) => Array<{ name: string; startTime: number }> };
    };
    g.localStorage.setItem('dashboard_token', t);
    g.__mapPaint = {};
    const observer = new g.MutationObserver(() => {
      if (!g.document.querySelector('.leaflet-marker-icon')) return;
      observer.disconnect();
      // The marker is in the DOM; it is on screen at the next frame.
      g.requestAnimationFrame(() => {
        g.__mapPaint.paint = g.performance.now();
        // The map's own marks: its points requested (worker started), its first picture ready.
        g.__mapPaint.marks = Object.fromEntries(
          g.performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
        );
      });
    });
    // The document has no element yet when this runs: watch the document itself.
    observer.observe(g.document, { childList: true, subtree: true });
  }, token);
  const results: {
    points: number;
    requestMs: number;
    gridReadyMs: number;
    firstPaintMs: number;
    outerMs: number;
    pointsReadyMs: number;
  }[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // `CACHE=warm`: the console's code from the HTTP cache the warm-up run filled (a signed-in user opening the map;
    // the map's data is `no-store`, fetched every time). Otherwise nothing from the cache.
    if (process.env.CACHE !== 'warm') await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (process.env.NETWORK === 'slow4g') await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    const started = performance.now();
    await page.goto(`/mapreport${process.env.MAP_QUERY ?? ''}`);
    await page.locator('.leaflet-marker-icon').first().waitFor({ timeout: 120_000 });
    const outerMs = Math.round(performance.now() - started);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobal).__mapPaint.paint !== undefined);
    const times = await page.evaluate(() => (globalThis as unknown as PageGlobal).__mapPaint);
    const total = await page.getByTestId('scan-map-total').textContent({ timeout: 120_000 });
    // The first picture (issue 24) is drawn from the server's cells; the points follow and take over.
    await page.waitForFunction(() => performance.getEntriesByName('scan-map:points-ready').length > 0, null, {
      timeout: 120_000,
    });
    const pointsReadyMs = await page.evaluate(() => Math.round(performance.getEntriesByName('scan-map:points-ready')[0]!.startTime));
    if (run > 0) {
      results.push({
        points: Number((total ?? '').replace(/\D/g, '')),
        requestMs: times.marks?.['scan-map:request'] ?? Number.NaN,
        gridReadyMs: times.marks?.['scan-map:grid-ready'] ?? Number.NaN,
        firstPaintMs: Math.round(times.paint ?? Number.NaN),
        outerMs,
        pointsReadyMs,
      });
    }
    await page.close();
  }
  console.table(results);
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `first paint median ${median(results.map((r) => r.firstPaintMs))} ms from navigation ` +
      `(${median(results.map((r) => r.outerMs))} ms seen from the test process) over ${results.length} runs`,
  );
} finally {
  await browser.close();
}
