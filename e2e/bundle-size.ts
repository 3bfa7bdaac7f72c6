// What a route of the built console costs over the wire, read from the build's manifest (apps/web/dist/.vite/
// manifest.json, written by `build.manifest` in apps/web/vite.config.ts): the bundle budget (bundle-budget.test.ts)
// and the web bench (web-bench.ts) use it. Sizes are brotli, as served: the `.br` file next to an asset when the
// build wrote one, else the asset compressed here at quality 11.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { SIGN_IN_CHUNK, SIGN_IN_PAGE } from '../apps/web/build-chunks.ts';

export const DIST_DIR = path.resolve(import.meta.dirname, '../apps/web/dist');

export { SIGN_IN_PAGE };

/** Modules the build puts into a named chunk of their own making (apps/web/build-chunks.ts): no manifest key. */
const GROUPED: Record<string, string> = { [SIGN_IN_PAGE]: SIGN_IN_CHUNK };

/** One chunk of Vite's manifest (https://vite.dev/guide/backend-integration). Keys of `imports` are manifest keys. */
export type ManifestChunk = {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
};
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(distDir = DIST_DIR): Manifest {
  const file = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the console first (npm run build)`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/**
 * The files the browser loads before a route renders: index.html, the entry chunk (the manifest's `isEntry`) and the
 * given lazy modules (manifest keys such as SIGN_IN_PAGE), each with its static imports, transitively, and their CSS.
 * Dynamic imports are not followed (they load later, or never), nor `assets` (files a chunk only references by URL,
 * such as the map's worker). Paths are relative to the dist directory, in the order first reached.
 */
export function routeFiles(manifest: Manifest, lazyModules: string[]): string[] {
  const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
  if (entries.length !== 1)
    throw new Error(`expected one entry chunk in the manifest, found ${entries.length}`);
  const files = new Set<string>(['index.html']);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  /** A module's manifest key, or the key of the named chunk the build grouped it into. */
  const keyOf = (module: string): string => {
    if (manifest[module] || !GROUPED[module]) return module;
    const grouped = Object.entries(manifest).find(
      ([, c]) => c.name === GROUPED[module] && c.file.endsWith('.js'),
    );
    return grouped ? grouped[0] : module;
  };
  visit(entries[0]![0]);
  for (const key of lazyModules) visit(keyOf(key));
  return [...files];
}

/** Every JavaScript and CSS file the build wrote (dist-relative), for the per-file budget. */
export function builtFiles(manifest: Manifest): string[] {
  const files = new Set<string>();
  for (const chunk of Object.values(manifest)) {
    for (const f of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) {
      if (/\.(js|css)$/.test(f)) files.add(f);
    }
  }
  return [...files];
}

const brotliCache = new Map<string, number>();

/** Bytes of a built file as served with `Content-Encoding: br`. */
export function brotliBytes(file: string, distDir = DIST_DIR): number {
  const full = path.join(distDir, file);
  const cached = brotliCache.get(full);
  if (cached !== undefined) return cached;
  let size: number;
  if (fs.existsSync(`${full}.br`)) size = fs.statSync(`${full}.br`).size;
  else {
    const raw = fs.readFileSync(full);
    size = zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [zlib.constants.BROTLI_PARAM_MODE]: /\.(js|css|html)$/.test(file)
          ? zlib.constants.BROTLI_MODE_TEXT
          : zlib.constants.BROTLI_MODE_GENERIC,
      },
    }).length;
  }
  brotliCache.set(full, size);
  return size;
}

export type SizedFile = { file: string; raw: number; brotli: number };

/** Each file's raw and brotli bytes, largest (brotli) first. */
export function sizeFiles(files: string[], distDir = DIST_DIR): SizedFile[] {
  return files
    .map((file) => ({
      file,
      raw: fs.statSync(path.join(distDir, file)).size,
      brotli: brotliBytes(file, distDir),
    }))
    .sort((a, b) => b.brotli - a.brotli);
}

export const kB = (bytes: number): string => (bytes / 1000).toFixed(1);

/** A plain table of files and sizes (with their total unless `withTotal` is false), for a failing budget's message. */
export function formatSizes(files: SizedFile[], withTotal = true): string {
  const width = Math.max(...files.map((f) => f.file.length), 4);
  const total = files.reduce((s, f) => ({ raw: s.raw + f.raw, brotli: s.brotli + f.brotli }), {
    raw: 0,
    brotli: 0,
  });
  const line = (name: string, raw: number, brotli: number) =>
    `  ${name.padEnd(width)}  ${kB(brotli).padStart(8)} kB br  ${kB(raw).padStart(8)} kB raw`;
  const rows = files.map((f) => line(f.file, f.raw, f.brotli));
  return (withTotal ? [...rows, line('total', total.raw, total.brotli)] : rows).join('\n');
}
