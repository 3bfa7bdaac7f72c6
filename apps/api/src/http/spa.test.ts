// The built console as a clinic on mobile data gets it (issue 24): content-hashed assets pre-compressed at build
// time (apps/web/scripts/compress-dist.mjs), sent as .br/.gz with Vary and cached for a year as immutable;
// index.html and other unhashed files revalidated (no-cache) and answered 304 when unchanged; the SPA fallback and
// the API's JSON 404 as before. A small dist is built in a temporary folder and compressed by the build's own script.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/app.ts';
import { IMMUTABLE_CACHE_CONTROL, isHashedAsset } from './spa.ts';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-dist-'));
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

const SCRIPT = 'assets/index-B-vXNnTn.js';
const STYLE = 'assets/index-DXLp8yGU.css';
const INDEX = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Screening Console</title>
<script type="module" crossorigin src="/${SCRIPT}"></script><link rel="stylesheet" href="/${STYLE}"></head>
<body><div id="root"></div>${'<!-- padding so the page is worth compressing -->\n'.repeat(30)}</body></html>`;
const files: Record<string, string> = {
  'index.html': INDEX,
  [SCRIPT]: Array.from({ length: 2000 }, (_, i) => `export const value${i} = "${i.toString(36)}";`).join(
    '\n',
  ),
  [STYLE]: Array.from(
    { length: 500 },
    (_, i) => `.c${i} { color: #${(i * 4099).toString(16).padStart(6, '0')}; }`,
  ).join('\n'),
  'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(50)}</svg>`,
  // Too small to gain from compression: no .br/.gz is written.
  'robots.txt': 'x',
};
for (const [name, body] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(dist, name)), { recursive: true });
  fs.writeFileSync(path.join(dist, name), body);
}
const BUILD_SCRIPT = path.resolve(import.meta.dirname, '../../../web/scripts/compress-dist.mjs');
execFileSync(process.execPath, [BUILD_SCRIPT, dist], { stdio: 'pipe' });

const t = await setupTestApp({ WEB_DIST: dist });
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('the build step (compress-dist.mjs)', () => {
  it('writes a .br and a .gz next to each text file where it pays, and none where it does not', () => {
    for (const name of ['index.html', SCRIPT, STYLE, 'favicon.svg']) {
      const original = fs.readFileSync(path.join(dist, name));
      const br = fs.readFileSync(path.join(dist, `${name}.br`));
      const gz = fs.readFileSync(path.join(dist, `${name}.gz`));
      expect(br.length, name).toBeLessThan(original.length);
      expect(zlib.brotliDecompressSync(br).equals(original), name).toBe(true);
      expect(zlib.gunzipSync(gz).equals(original), name).toBe(true);
    }
    expect(fs.existsSync(path.join(dist, 'robots.txt.br'))).toBe(false);
    expect(fs.existsSync(path.join(dist, 'robots.txt.gz'))).toBe(false);
  });
});

describe('content-hashed assets', () => {
  it('are sent pre-compressed as the client accepts, once (they read back to the file), with Vary', async () => {
    const original = fs.readFileSync(path.join(dist, SCRIPT));
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await get(`/${SCRIPT}`, { 'accept-encoding': accept });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type'], accept).toMatch(/^text\/javascript|^application\/javascript/);
      expect(res.headers.vary, accept).toMatch(/accept-encoding/i);
      // The file written at build time, byte for byte: not compressed again on the way out.
      expect(
        res.rawPayload.equals(
          fs.readFileSync(path.join(dist, `${SCRIPT}.${encoding === 'br' ? 'br' : 'gz'}`)),
        ),
        accept,
      ).toBe(true);
      const decoded =
        encoding === 'br' ? zlib.brotliDecompressSync(res.rawPayload) : zlib.gunzipSync(res.rawPayload);
      expect(decoded.equals(original), accept).toBe(true);
    }
    const plain = await get(`/${SCRIPT}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
  });

  it('are immutable for a year, compressed or not', async () => {
    for (const url of [`/${SCRIPT}`, `/${STYLE}`]) {
      for (const accept of ['br', 'gzip', 'identity']) {
        const res = await get(url, { 'accept-encoding': accept });
        expect(res.headers['cache-control'], `${url} ${accept}`).toBe(IMMUTABLE_CACHE_CONTROL);
      }
    }
  });

  it('a missing asset is the JSON 404, not the page', async () => {
    const res = await get('/assets/index-Zz9Zz9Zz.js', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });
});

describe('index.html and other unhashed files', () => {
  it('are revalidated on each use (no-cache) and answered 304 when unchanged', async () => {
    for (const url of ['/', '/patients/12', '/login?next=%2Fscans']) {
      for (const accept of ['br', 'gzip', 'identity']) {
        const first = await get(url, { 'accept-encoding': accept });
        expect(first.statusCode, `${url} ${accept}`).toBe(200);
        expect(first.headers['content-type'], `${url} ${accept}`).toMatch(/^text\/html/);
        expect(first.headers['cache-control'], `${url} ${accept}`).toBe('no-cache');
        const etag = first.headers.etag;
        expect(etag, `${url} ${accept}`).toBeTruthy();
        expect(first.headers['last-modified'], `${url} ${accept}`).toBeTruthy();

        const again = await get(url, { 'accept-encoding': accept, 'if-none-match': String(etag) });
        expect(again.statusCode, `${url} ${accept}`).toBe(304);
        expect(again.rawPayload.length, `${url} ${accept}`).toBe(0);
      }
    }
  });

  it('answer HEAD of a console path with the page’s headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/scans/4', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.rawPayload.length).toBe(0);
  });

  it('send the page pre-compressed, reading back to index.html', async () => {
    const br = await get('/scans', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    // The build's file (quality 11), not a compression made on the way out.
    expect(br.rawPayload.equals(fs.readFileSync(path.join(dist, 'index.html.br')))).toBe(true);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(INDEX);
    const plain = await get('/scans');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(INDEX);
  });

  it('revalidate the favicon too; a changed ETag is answered in full', async () => {
    const res = await get('/favicon.svg', { 'accept-encoding': 'br' });
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-encoding']).toBe('br');
    const stale = await get('/', { 'if-none-match': '"an-older-build"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(INDEX);
  });

  it('leave the API alone: an unknown API path is the JSON 404', async () => {
    const res = await get('/api/v1/no-such-thing/', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('isHashedAsset', () => {
  it('is true for Vite’s hashed output and its compressed siblings only', () => {
    expect(isHashedAsset('/srv/dist/assets/index-B-vXNnTn.js')).toBe(true);
    expect(isHashedAsset('/srv/dist/assets/vendor-mantine-DjIM7TWs.css.br')).toBe(true);
    expect(isHashedAsset('/srv/dist/assets/CountryDialCodePicker-EGlsJot-.js.gz')).toBe(true);
    expect(isHashedAsset('/srv/dist/index.html')).toBe(false);
    expect(isHashedAsset('/srv/dist/favicon.svg')).toBe(false);
    expect(isHashedAsset('/srv/dist/assets/logo.svg')).toBe(false);
  });
});
