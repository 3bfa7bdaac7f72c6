// `npm run bench:web [base-url]`: the console on a slow link (issue 24), in Chromium with the DevTools protocol's
// network emulation. For each run: /login in a fresh profile (until the sign-in form can be used), /login again in
// the same profile after a browser restart (warm HTTP cache), and, each in a fresh profile, from the 'Log in' click to
// the landing screen's data (the dashboard's scan tile showing a number) as ADMIN and as ORG_ADMIN. Prints time,
// bytes over the wire and requests, medians of the runs, against the targets in apps/web/performance-budget.json.
// Without a base URL it builds the console if needed and starts the API serving it on a free loopback port with a
// throwaway demo database (as the end-to-end journeys do). BENCH_WEB_NETWORK=slow4g (default) | 3g | none;
// BENCH_WEB_RUNS (default 3); BENCH_WEB_TYPE_DELAY_MS, the pause between typed keys (default 100, a person typing);
// BENCH_WEB_SHOTS=<dir>: a screenshot of each milestone of the last run (to see what was timed).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import budget from '../apps/web/performance-budget.json' with { type: 'json' };
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
import { startServer, type Server } from './global-setup.ts';

const root = path.resolve(import.meta.dirname, '..');
const PASSWORD = process.env.DEMO_PASSWORD ?? 'Demo@2026';
const RUNS = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 3));
const TYPE_DELAY_MS = Number(process.env.BENCH_WEB_TYPE_DELAY_MS ?? 100);
const SHOTS = process.env.BENCH_WEB_SHOTS;
const WAIT_MS = 180_000;
/** The network counts as quiet (the visit's downloads done) after this long without a request in flight. */
const QUIET_MS = 1_500;

/** CDP Network.emulateNetworkConditions: latency in ms (round trip), throughputs in bytes/s. */
type Network = { label: string; latency: number; downloadThroughput: number; uploadThroughput: number };
const NETWORKS: Record<string, Network | null> = {
  // Chromium DevTools' "Slow 4G" preset.
  slow4g: {
    label: 'Slow 4G: 1.6 Mbps down, 750 kbps up, 150 ms RTT',
    latency: 150,
    downloadThroughput: 1.6e6 / 8,
    uploadThroughput: 750e3 / 8,
  },
  '3g': {
    label: '3G: 750 kbps down, 250 kbps up, 300 ms RTT',
    latency: 300,
    downloadThroughput: 750e3 / 8,
    uploadThroughput: 250e3 / 8,
  },
  none: null,
};
const networkName = process.env.BENCH_WEB_NETWORK ?? 'slow4g';
if (!(networkName in NETWORKS))
  throw new Error(`BENCH_WEB_NETWORK must be one of ${Object.keys(NETWORKS).join(', ')}`);
const network = NETWORKS[networkName] ?? null;

const ACCOUNTS: { role: 'ADMIN' | 'ORG_ADMIN'; email: string }[] = [
  { role: 'ADMIN', email: process.env.BENCH_WEB_ADMIN ?? 'admin@demo.test' },
  { role: 'ORG_ADMIN', email: process.env.BENCH_WEB_ORG_ADMIN ?? 'orgadmin@demo.test' },
];

/** What the page records, in its own clock (performance.now(): ms since its navigation started). */
type BenchMarks = { usable?: number; click?: number; data?: number };
type BenchWindow = Window & { __bench: BenchMarks };

/**
 * Runs in every document before its scripts: notes the frame in which the sign-in form's first field is visible and
 * enabled, the 'Log in' click, and the frame in which the landing's scan tile shows a number (not its skeleton).
 */
function watchMilestones() {
  const marks: BenchMarks = {};
  (window as unknown as BenchWindow).__bench = marks;
  const atNextFrame = (key: keyof BenchMarks) => {
    requestAnimationFrame(() => (marks[key] ??= performance.now()));
  };
  let pending = false;
  const check = () => {
    pending = false;
    if (marks.usable === undefined) {
      const field = document.querySelector<HTMLInputElement>(
        '[data-testid="login-mobile"], [data-testid="login-email"]',
      );
      if (field && !field.disabled && field.checkVisibility()) atNextFrame('usable');
    }
    if (marks.click !== undefined && marks.data === undefined) {
      const tile = document.querySelector('[data-testid="tile-scans-value"]');
      if (tile && /\d/.test(tile.textContent ?? '') && tile.checkVisibility()) atNextFrame('data');
    }
  };
  new MutationObserver(() => {
    if (!pending) {
      pending = true;
      queueMicrotask(check);
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  document.addEventListener(
    'click',
    (e) => {
      if ((e.target as Element | null)?.closest('[data-testid="login-email-submit"]'))
        marks.click ??= performance.now();
    },
    true,
  );
}

/** Bytes received; requests sent to the network (`notModified`: of them, answered 304); answered by the cache. */
type Traffic = { bytes: number; requests: number; notModified: number; cached: number };

/** Counts a page's requests through the DevTools protocol, with the network emulated from the first one. */
async function watchTraffic(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const started = new Set<string>();
  const fromCache = new Set<string>();
  const inFlight = new Set<string>();
  const notModified = new Set<string>();
  let bytes = 0;
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!/^https?:/.test(e.request.url)) return;
    started.add(e.requestId);
    inFlight.add(e.requestId);
    lastActivity = Date.now();
  });
  cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
  // The status line as received: `responseReceived` reports a revalidated file as the cached 200 it stands for.
  cdp.on('Network.responseReceivedExtraInfo', (e) => {
    if (e.statusCode === 304) notModified.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (!started.has(e.requestId)) return;
    // Bytes received for the response, headers included (0 for a response read from the cache).
    bytes += e.encodedDataLength;
    inFlight.delete(e.requestId);
    lastActivity = Date.now();
  });
  cdp.on('Network.loadingFailed', (e) => {
    inFlight.delete(e.requestId);
    lastActivity = Date.now();
  });
  await cdp.send('Network.enable');
  if (network) {
    const { latency, downloadThroughput, uploadThroughput } = network;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency,
      downloadThroughput,
      uploadThroughput,
    });
  }
  return {
    /** Bytes and requests so far. */
    snapshot: (): Traffic => ({
      bytes,
      requests: started.size - fromCache.size,
      notModified: notModified.size,
      cached: fromCache.size,
    }),
    /** Waits until no request has been in flight for QUIET_MS. */
    quiet: async () => {
      const deadline = Date.now() + WAIT_MS;
      while (inFlight.size > 0 || Date.now() - lastActivity < QUIET_MS) {
        if (Date.now() > deadline)
          throw new Error(`the network did not go quiet (${inFlight.size} requests in flight)`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

const minus = (a: Traffic, b: Traffic): Traffic => ({
  bytes: a.bytes - b.bytes,
  requests: a.requests - b.requests,
  notModified: a.notModified - b.notModified,
  cached: a.cached - b.cached,
});

type Sample = { ms: number; atMilestone: Traffic; whole: Traffic };

async function openProfile(dir: string, baseURL: string): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    baseURL,
    viewport: { width: 1400, height: 900 },
    args: CHROMIUM_ARGS,
  });
  context.setDefaultTimeout(WAIT_MS);
  // tsx compiles with esbuild's keepNames, which wraps the function's inner arrows in a `__name` helper that the page
  // does not have: define it there first.
  await context.addInitScript({ content: `var __name = (f) => f;\n(${watchMilestones.toString()})();` });
  return context;
}

const marksOf = (page: Page) => page.evaluate(() => (window as unknown as BenchWindow).__bench);

/** Opens /login in the profile's first tab: navigation start → the form's first field usable. */
async function visitLogin(
  context: BrowserContext,
  shot?: string,
): Promise<{ page: Page; traffic: Awaited<ReturnType<typeof watchTraffic>>; sample: Sample }> {
  const page = context.pages()[0] ?? (await context.newPage());
  const traffic = await watchTraffic(context, page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as unknown as BenchWindow).__bench.usable !== undefined, null, {
    timeout: WAIT_MS,
  });
  const atMilestone = traffic.snapshot();
  const { usable } = await marksOf(page);
  if (shot) await page.screenshot({ path: shot });
  await traffic.quiet();
  return { page, traffic, sample: { ms: usable!, atMilestone, whole: traffic.snapshot() } };
}

/** From /login (already open and quiet): types an account's e-mail and password, clicks 'Log in' → the tile's number. */
async function signIn(
  page: Page,
  traffic: Awaited<ReturnType<typeof watchTraffic>>,
  email: string,
  shot?: string,
): Promise<Sample> {
  await page.getByTestId('login-to-email').click();
  await page.getByTestId('login-email').pressSequentially(email, { delay: TYPE_DELAY_MS });
  await page.getByTestId('login-password').pressSequentially(PASSWORD, { delay: TYPE_DELAY_MS });
  const before = traffic.snapshot();
  await page.getByTestId('login-email-submit').click();
  await page.waitForFunction(
    () =>
      (window as unknown as BenchWindow).__bench.data !== undefined ||
      document.querySelector('[data-testid="login-code-view"], [data-testid="login-error"]') !== null,
    null,
    { timeout: WAIT_MS },
  );
  const atMilestone = minus(traffic.snapshot(), before);
  const { click, data } = await marksOf(page);
  if (data === undefined) {
    const error = await page
      .getByTestId('login-error')
      .textContent()
      .catch(() => null);
    throw new Error(
      error
        ? `sign-in of ${email} failed: ${error}`
        : `${email} was asked for a second factor (REQUIRE_SECOND_FACTOR)`,
    );
  }
  if (shot) await page.screenshot({ path: shot });
  await traffic.quiet();
  return { ms: data - click!, atMilestone, whole: minus(traffic.snapshot(), before) };
}

type Scenario = 'first' | 'repeat' | 'ADMIN' | 'ORG_ADMIN';

/** One pass of every scenario, each in its own temporary profile. */
async function runOnce(baseURL: string, shots = false): Promise<Record<Scenario, Sample>> {
  const shot = (name: string) => (shots && SHOTS ? path.join(SHOTS, `web-bench-${name}.png`) : undefined);
  if (shots && SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sc-web-bench-'));
  const result = {} as Record<Scenario, Sample>;
  const profile = tmp();
  try {
    let context = await openProfile(profile, baseURL);
    result.first = (await visitLogin(context, shot('login-first'))).sample;
    await context.close();
    // A browser restart on the same profile: only its disk cache is warm (nothing in memory, no open connection).
    context = await openProfile(profile, baseURL);
    result.repeat = (await visitLogin(context, shot('login-repeat'))).sample;
    await context.close();
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
  for (const { role, email } of ACCOUNTS) {
    const dir = tmp();
    try {
      const context = await openProfile(dir, baseURL);
      const { page, traffic } = await visitLogin(context);
      result[role] = await signIn(page, traffic, email, shot(`landing-${role}`));
      await context.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return result;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function report(samples: Record<Scenario, Sample>[]): string {
  const rows: { scenario: Scenario; what: string; target?: { ms: number; kB?: number } }[] = [
    {
      scenario: 'first',
      what: '/login, first visit (fresh profile) → form usable',
      target: budget.bench.loginFirstVisit,
    },
    {
      scenario: 'repeat',
      what: '/login, repeat visit (warm cache) → form usable',
      target: budget.bench.loginRepeatVisit,
    },
    { scenario: 'ADMIN', what: "ADMIN: 'Log in' → dashboard data", target: budget.bench.signInToData },
    {
      scenario: 'ORG_ADMIN',
      what: "ORG_ADMIN: 'Log in' → dashboard data",
      target: budget.bench.signInToData,
    },
  ];
  const lines = [
    '| what | time | bytes to it | bytes, whole visit | requests (of them 304) | from cache | target (Slow 4G) |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { scenario, what, target } of rows) {
    const of = samples.map((s) => s[scenario]);
    const ms = median(of.map((s) => s.ms));
    const whole = median(of.map((s) => s.whole.bytes));
    const atIt = median(of.map((s) => s.atMilestone.bytes));
    let verdict = '';
    if (target) {
      const met = ms <= target.ms && (target.kB === undefined || whole <= target.kB * 1000);
      const goal = `≤ ${seconds(target.ms)}${target.kB === undefined ? '' : `, ≤ ${target.kB} kB`}`;
      verdict = networkName === 'slow4g' ? `${goal} ${met ? 'met' : 'MISSED'}` : goal;
    }
    lines.push(
      `| ${what} | ${seconds(ms)} | ${kilobytes(atIt)} | ${kilobytes(whole)} | ` +
        `${median(of.map((s) => s.whole.requests))} (${median(of.map((s) => s.whole.notModified))}) | ` +
        `${median(of.map((s) => s.whole.cached))} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}

const external = process.argv[2]?.replace(/\/+$/, '');
let server: Server | undefined;
if (!external) {
  execFileSync(process.execPath, [path.join(root, 'scripts/ensure-build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  console.log('Starting the API with a throwaway demo database…');
  server = await startServer();
}
const baseURL = external ?? server!.baseUrl;
try {
  // One pass without measuring: the server's first requests (compilation, caches) are not what a visitor meets.
  console.log(`Warming up against ${baseURL}…`);
  await runOnce(baseURL);
  const samples: Record<Scenario, Sample>[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const s = await runOnce(baseURL, run === RUNS);
    samples.push(s);
    console.log(
      `run ${run}: first ${seconds(s.first.ms)} ${kilobytes(s.first.whole.bytes)}, repeat ${seconds(s.repeat.ms)} ` +
        `${kilobytes(s.repeat.whole.bytes)}, ADMIN ${seconds(s.ADMIN.ms)}, ORG_ADMIN ${seconds(s.ORG_ADMIN.ms)}`,
    );
  }
  console.log(
    `\nWeb bench — ${network?.label ?? 'no network emulation'}; median of ${RUNS} run(s); ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; typing ${TYPE_DELAY_MS} ms a key\n`,
  );
  console.log(report(samples));
} finally {
  await server?.stop();
}
