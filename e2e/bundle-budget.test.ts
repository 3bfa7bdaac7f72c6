// The bundle budget (issue 24): what the sign-in route and each built file weigh over the wire (brotli), against the
// numbers in apps/web/performance-budget.json, so a change that drags a vendor chunk into /login fails `npm test`.
// Reads the build (run after it: e2e/vitest.budget.config.ts); the first two tests check the manifest walk itself.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import budget from '../apps/web/performance-budget.json' with { type: 'json' };
import {
  DIST_DIR,
  SIGN_IN_PAGE,
  builtFiles,
  formatSizes,
  readManifest,
  routeFiles,
  sizeFiles,
  type Manifest,
} from './bundle-size.ts';

const KB = 1000;

/** A small build: an entry with React, a lazy login page and a lazy dashboard that alone uses the charts. */
const manifest = (loginImports: string[]): Manifest => ({
  'index.html': {
    file: 'assets/index-1.js',
    isEntry: true,
    imports: ['_vendor-react-1.js'],
    dynamicImports: ['src/LoginPage.tsx', 'src/DashboardPage.tsx'],
    css: ['assets/index-1.css'],
  },
  '_vendor-react-1.js': { file: 'assets/vendor-react-1.js' },
  '_vendor-charts-1.js': {
    file: 'assets/vendor-charts-1.js',
    imports: ['_vendor-react-1.js'],
    css: ['assets/charts-1.css'],
  },
  '_form-1.js': { file: 'assets/form-1.js', imports: loginImports },
  'src/LoginPage.tsx': {
    file: 'assets/LoginPage-1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_form-1.js'],
  },
  'src/DashboardPage.tsx': {
    file: 'assets/DashboardPage-1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_vendor-charts-1.js'],
  },
});

describe('the sign-in route in the manifest', () => {
  it('holds index.html, the entry with its CSS and static imports, and the login page, not the other lazy pages', () => {
    expect(routeFiles(manifest([]), ['src/LoginPage.tsx'])).toEqual([
      'index.html',
      'assets/index-1.js',
      'assets/index-1.css',
      'assets/vendor-react-1.js',
      'assets/LoginPage-1.js',
      'assets/form-1.js',
    ]);
  });

  it('holds a vendor chunk (and its CSS) that the login page reaches through a static import of an import', () => {
    const files = routeFiles(manifest(['_vendor-charts-1.js']), ['src/LoginPage.tsx']);
    expect(files).toContain('assets/vendor-charts-1.js');
    expect(files).toContain('assets/charts-1.css');
    expect(files).not.toContain('assets/DashboardPage-1.js');
  });
});

describe('the build', () => {
  const built = readManifest();

  it('loads nothing from index.html that the sign-in route leaves out (the walk of the manifest is complete)', () => {
    const html = fs.readFileSync(path.join(DIST_DIR, 'index.html'), 'utf8');
    // Scripts, module preloads and style sheets: what the page fetches before it renders (a `prefetch` waits for idle).
    const tags = html.match(/<script\b[^>]*>|<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*>/g) ?? [];
    const linked = tags.flatMap((tag) => /\b(?:src|href)="\/(assets\/[^"]+)"/.exec(tag)?.[1] ?? []);
    expect(linked.length).toBeGreaterThan(0);
    const route = routeFiles(built, [SIGN_IN_PAGE]);
    expect(linked.filter((file) => !route.includes(file))).toEqual([]);
  });

  it(`loads the sign-in route (/login) in at most ${budget.bundle.signInRouteKB} kB brotli`, () => {
    const files = sizeFiles(routeFiles(built, [SIGN_IN_PAGE]));
    const total = files.reduce((sum, f) => sum + f.brotli, 0);
    expect(
      total,
      `/login loads ${(total / KB).toFixed(1)} kB brotli, over its budget of ${budget.bundle.signInRouteKB} kB ` +
        `(apps/web/performance-budget.json, bundle.signInRouteKB). Its files:\n${formatSizes(files)}\n`,
    ).toBeLessThanOrEqual(budget.bundle.signInRouteKB * KB);
  });

  it(`has no JavaScript or CSS file over ${budget.bundle.fileKB} kB brotli`, () => {
    const files = sizeFiles(builtFiles(built));
    const over = files.filter((f) => f.brotli > budget.bundle.fileKB * KB);
    expect(
      over.map((f) => f.file),
      `Files over the budget of ${budget.bundle.fileKB} kB brotli each (apps/web/performance-budget.json, ` +
        `bundle.fileKB):\n${formatSizes(over, false)}\n`,
    ).toEqual([]);
  });
});
