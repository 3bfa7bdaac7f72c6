// `npm test`: lint, type check, unit/API/component tests, build, bundle budget, end-to-end tests in Chromium (overlapping: below).
// Ends with the plain line `N passed, N failed` that CI reads.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
await import('./ensure-install.mjs');

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

/** Debian's Chromium, or CHROMIUM_PATH; Playwright cannot download browsers here. */
function findChromium() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((p) => p && fs.existsSync(p));
}

function count(title, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(title);
  }
}

/**
 * Runs a command. `buffered`: its output is kept and printed in one piece when it ends (for steps that run beside
 * another one printing live), with its duration. `nice`: at a lower CPU priority (nice 5: about a third of a test
 * process's share of a busy core, so it yields to the tests but still moves on a machine loaded by other work).
 */
function runAsync(title, cmd, args, { env = {}, buffered = false, nice = false } = {}) {
  const started = Date.now();
  if (!buffered) console.log(`\n▶ ${title}`);
  const [file, argv] =
    nice && fs.existsSync('/usr/bin/nice') ? ['/usr/bin/nice', ['-n', '5', cmd, ...args]] : [cmd, args];
  return new Promise((resolve) => {
    const child = spawn(file, argv, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const chunks = [];
    child.stdout?.on('data', (d) => chunks.push(d));
    child.stderr?.on('data', (d) => chunks.push(d));
    child.on('error', (e) => chunks.push(Buffer.from(String(e))));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      if (buffered) process.stdout.write(`\n▶ ${title} (${seconds} s)\n${Buffer.concat(chunks).toString()}`);
      else console.log(`\n■ ${title}: ${seconds} s`);
      resolve(code === 0);
    });
  });
}

/** A Vitest run whose JSON report adds its tests to the totals. */
async function vitest(title, args, options = {}) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-vitest-')), 'result.json');
  const ok = await runAsync(
    title,
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${out}`],
    options,
  );
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    // A file that fails to load has no failed tests of its own: count it once.
    const brokenFiles = r.testResults.filter(
      (f) => f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed'),
    );
    failed += brokenFiles.length;
    // Exit code set without a failed test: an unhandled error during the run. Count it.
    if (!ok && r.numFailedTests === 0 && brokenFiles.length === 0) failed += 1;
    if (r.numTotalTests === 0) {
      failed += 1;
      failures.push(`${title}: no tests ran`);
    }
    if (!ok || r.numFailedTests > 0 || brokenFiles.length > 0) failures.push(title);
    // Name each failed test and broken file, so the last lines of a CI log say what broke.
    for (const f of r.testResults) {
      const file = path.relative(root, f.name);
      for (const a of f.assertionResults.filter((x) => x.status === 'failed'))
        failures.push(`${file} › ${a.fullName}`);
      if (brokenFiles.includes(f)) failures.push(`${file} (did not load)`);
    }
  } else {
    failed += 1;
    failures.push(`${title} (no result)`);
  }
}

// The steps overlap where that is safe, so a core is not left idle while work is left:
//  1. lint, type check and build start together; lint and type check at a lower priority (`nice`), beside
//  2. the shared unit tests and the web component tests, which take the cores first (jsdom renders wait up to 5 s for
//     an element, so these run beside nothing but the niced checks);
//  3. then the API tests and the end-to-end tests (Chromium, after the build) side by side: a journey waits on its
//     browser and its server in turn and leaves CPU idle that the API tests use; both have generous timeouts (60 s a
//     test, 120 s a journey). The end-to-end output is printed in one piece when it ends.
// TEST_SEQUENTIAL=1 runs the steps one after another, as before (for a machine already loaded by other work, where
// overlapping steps only lengthen each test's wall time).
// SKIP_STATIC_CHECKS=1 (.ci/run's second, PostgreSQL pass): lint, type check and build do not depend on the database;
// the first pass already ran and counted them and left the build in apps/web/dist.
// SKIP_DB_INDEPENDENT=1 (.ci/run's second, PostgreSQL pass): the shared and web projects never touch the database
// (web component tests run in jsdom against a mocked API; neither reads TEST_DATABASE_URL), and the first pass ran and
// counted them. Only the API project runs again.
const sequential = Boolean(process.env.TEST_SEQUENTIAL);
const staticChecks = !process.env.SKIP_STATIC_CHECKS;
const dbIndependent = !process.env.SKIP_DB_INDEPENDENT;
const chromium = findChromium();

const checks = [];
let build = Promise.resolve(true);
if (staticChecks) {
  build = runAsync('build', 'npm', ['run', 'build', '-w', 'apps/web'], { buffered: true });
  const lint = runAsync('lint', 'npx', ['eslint', '--max-warnings', '0', '.'], {
    buffered: true,
    nice: !sequential,
  });
  const typecheck = runAsync('type check', 'node', ['scripts/typecheck.mjs'], {
    buffered: true,
    nice: !sequential,
  });
  checks.push(
    build.then((ok) => count('build', ok)),
    lint.then((ok) => count('lint', ok)),
    typecheck.then((ok) => count('type check', ok)),
  );
  if (sequential) await Promise.all(checks);
} else {
  console.log('\n▶ lint, type check and build: not run again (SKIP_STATIC_CHECKS)');
}

if (dbIndependent)
  await vitest('unit and component tests (shared, web)', ['--project', 'shared', '--project', 'web']);
else console.log('\n▶ shared and web (component) tests: not run again (SKIP_DB_INDEPENDENT)');

const endToEnd = () => {
  if (chromium) {
    return vitest('end-to-end tests (Chromium)', ['--config', 'e2e/vitest.config.ts'], {
      env: { CHROMIUM_PATH: chromium },
      buffered: !sequential,
    });
  }
  if (process.env.CI) {
    failed += 1;
    failures.push('end-to-end tests: no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)');
  } else {
    // A machine with only Node still runs everything else; say loudly what did not run.
    skipped += 1;
    console.log(
      '\n⚠ Chromium not found: the end-to-end tests were skipped. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.',
    );
  }
  return Promise.resolve();
};
// The journeys need the build (a few seconds; long done by now unless the shared and web tests were skipped).
await build;
// The bundle budget reads the build (a few seconds of CPU, no server), beside the steps below: the sign-in route and
// every built file against apps/web/performance-budget.json. Not run again in the PostgreSQL pass (the build does not
// depend on the database).
const bundleBudget = staticChecks
  ? vitest('bundle budget', ['--config', 'e2e/vitest.budget.config.ts'], { buffered: !sequential })
  : Promise.resolve();
if (sequential) await bundleBudget;
const e2e = sequential ? undefined : endToEnd();
await vitest('API tests', ['--project', 'api']);
await (e2e ?? endToEnd());
await bundleBudget;
await Promise.all(checks);

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
