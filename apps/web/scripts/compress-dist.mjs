// Writes <file>.br (brotli, quality 11) and <file>.gz (gzip, level 9) next to each text file of the built console,
// after `vite build` (issue 24). The API serves them as they are to clients that accept them (@fastify/static
// `preCompressed`), so the best compression is paid once per build and never per request. Only where it pays: text
// types, and only when the compressed file is smaller. Node's zlib does the encoding.
// Usage: node scripts/compress-dist.mjs [dist folder, default ./dist]
import console from 'node:console';
import fs from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Extensions worth compressing; images, fonts (woff2 is compressed already) and the like are left alone. */
const TEXT_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.xml',
  '.map',
]);

async function* textFiles(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    // .vite/manifest.json is read by the build's tooling, not served (dotfiles are not).
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(full);
    else if (TEXT_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) yield full;
  }
}

/** Compresses every text file under `dir`; answers what was written. */
export async function compressDist(dir) {
  const files = [];
  for await (const file of textFiles(dir)) {
    const body = await fs.readFile(file);
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    const written = { file: path.relative(dir, file), bytes: body.length, br: null, gz: null };
    for (const [ext, out] of [
      ['br', br],
      ['gz', gz],
    ]) {
      const target = `${file}.${ext}`;
      if (out.length < body.length) {
        await fs.writeFile(target, out);
        written[ext] = out.length;
      } else {
        // A stale sibling from an earlier build must not be served for a file that changed.
        await fs.rm(target, { force: true });
      }
    }
    files.push(written);
  }
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  const files = await compressDist(dir);
  const sum = (key) => files.reduce((n, f) => n + (f[key] ?? f.bytes), 0);
  const kb = (n) => `${(n / 1024).toFixed(0)} kB`;
  console.log(
    `compress-dist: ${files.length} text files, ${kb(sum('bytes'))} → brotli ${kb(sum('br'))}, gzip ${kb(sum('gz'))}`,
  );
}
