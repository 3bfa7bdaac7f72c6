// `node --import tsx apps/api/src/bench/map-paint.ts [base-url]`: first paint of the scan map in Chromium (issue 8
// "Speed": under 1.5 s for a million scans). Signs in as the demo ADMIN through the API, opens /mapreport and
// times, from the navigation, the packed points' answer (GET scan/lat-long/) and the first cluster marker drawn.
// Runs RUNS times after one warm-up (the browser cache is off, so every run fetches the points again).
// Start the server on the database to measure first, e.g. `DATABASE_URL=… PORT=3107 npm start`.
import { chromium } from 'playwright-core';

const base = (process.argv[2] ?? 'http://127.0.0.1:3107').replace(/\/+$/, '');
const RUNS = Number(process.env.RUNS ?? 3);
const password = process.env.DEMO_PASSWORD ?? 'Demo@2026';

async function post<T>(path: string, body: unknown): Promise<T> {
  const r = await fetch(`${base}/api/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

const { id_token } = await post<{ id_token: string }>('auth/password/', { email: 'admin@demo.test', password });
const { token } = await post<{ token: string }>('user/login/', { id_token });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1400, height: 900 } });
  // Runs in the page (the API's TypeScript has no DOM types).
  type PageGlobal = { localStorage: { setItem: (key: string, value: string) => void } };
  await context.addInitScript((t) => (globalThis as unknown as PageGlobal).localStorage.setItem('dashboard_token', t), token);
  const results: { points: number; bytes: number; pointsMs: number; firstPaintMs: number }[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const started = performance.now();
    const pointsAnswer = page.waitForResponse((r) => r.url().includes('/scan/lat-long/'), { timeout: 120_000 });
    await page.goto('/mapreport');
    const response = await pointsAnswer;
    const bytes = (await response.body()).byteLength;
    const pointsMs = performance.now() - started;
    await page.locator('.leaflet-marker-icon').first().waitFor({ timeout: 120_000 });
    const firstPaintMs = performance.now() - started;
    if (run > 0) results.push({ points: bytes / 12, bytes, pointsMs: Math.round(pointsMs), firstPaintMs: Math.round(firstPaintMs) });
    await page.close();
  }
  console.table(results);
  const sorted = results.map((r) => r.firstPaintMs).sort((a, b) => a - b);
  console.log(`first paint median ${sorted[Math.floor(sorted.length / 2)]} ms over ${results.length} runs`);
} finally {
  await browser.close();
}
