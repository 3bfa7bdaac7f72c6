// `npm test`: lint, type check, unit/API/component tests, build, end-to-end tests in Chromium.
// Ends with the plain line `N passed, N failed` that CI reads.
import { spawn, spawnSync } from 'node:child_process';
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
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((p) => p && fs.existsSync(p));
}

function run(title, cmd, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

function count(title, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(title);
  }
}

function step(title, cmd, args) {
  count(title, run(title, cmd, args));
}

/** Runs a step in the background with its output kept, printed in one piece when it ends. */
function background(title, cmd, args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', (e) => chunks.push(Buffer.from(String(e))));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`\n▶ ${title} (${seconds} s)\n${Buffer.concat(chunks).toString()}`);
      resolve(code === 0);
    });
  });
}

function vitest(title, args, env = {}) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-vitest-')), 'result.json');
  const ok = run(title, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${out}`], env);
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    // A file that fails to load has no failed tests of its own: count it once.
    const brokenFiles = r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed'));
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
      for (const a of f.assertionResults.filter((x) => x.status === 'failed')) failures.push(`${file} › ${a.fullName}`);
      if (brokenFiles.includes(f)) failures.push(`${file} (did not load)`);
    }
  } else {
    failed += 1;
    failures.push(`${title} (no result)`);
  }
}

// Lint, type check and build do not depend on each other: run side by side, each mostly on one core.
// SKIP_STATIC_CHECKS=1 (.ci/run's second, PostgreSQL pass): they do not depend on the database either, and the first
// pass already ran and counted them and left the build in apps/web/dist.
const staticChecks = !process.env.SKIP_STATIC_CHECKS;
let buildOk = true;
if (staticChecks) {
  console.log('\n▶ lint, type check and build (side by side)');
  const [lintOk, typecheckOk, built] = await Promise.all([
    background('lint', 'npx', ['eslint', '--max-warnings', '0', '.']),
    background('type check', 'node', ['scripts/typecheck.mjs']),
    background('build', 'npm', ['run', 'build', '-w', 'apps/web']),
  ]);
  count('lint', lintOk);
  count('type check', typecheckOk);
  buildOk = built;
} else {
  console.log('\n▶ lint, type check and build: not run again (SKIP_STATIC_CHECKS)');
}
// SKIP_DB_INDEPENDENT=1 (.ci/run's second, PostgreSQL pass): the shared and web projects never touch the database
// (web component tests run in jsdom against a mocked API; neither reads TEST_DATABASE_URL), and the first pass ran and
// counted them. Only the API project runs again.
const dbIndependent = !process.env.SKIP_DB_INDEPENDENT;
if (!dbIndependent) console.log('\n▶ shared and web (component) tests: not run again (SKIP_DB_INDEPENDENT)');
vitest(
  dbIndependent ? 'unit, API and component tests' : 'API tests',
  dbIndependent ? ['--project', 'shared', '--project', 'api', '--project', 'web'] : ['--project', 'api'],
);
if (staticChecks) count('build', buildOk);
const chromium = findChromium();
if (chromium) {
  vitest('end-to-end tests (Chromium)', ['--config', 'e2e/vitest.config.ts'], { CHROMIUM_PATH: chromium });
} else if (process.env.CI) {
  failed += 1;
  failures.push('end-to-end tests: no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)');
} else {
  // A machine with only Node still runs everything else; say loudly what did not run.
  skipped += 1;
  console.log('\n⚠ Chromium not found: the end-to-end tests were skipped. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.');
}

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
