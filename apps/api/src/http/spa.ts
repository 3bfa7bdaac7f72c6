// Serves the built console (apps/web/dist). Issue 24: a clinic on mobile data pays for every byte and round trip, so
// - content-hashed files (assets/<name>-<hash>.<ext>) are `immutable` for a year: a repeat visit takes them from the
//   browser's cache without a request, and a deploy changes their names;
// - everything else (index.html, favicon, robots.txt) is revalidated on each use (`no-cache`), answered 304 from its
//   ETag or Last-Modified when unchanged, so a deploy is seen at once;
// - the build writes .br and .gz next to each text file (apps/web/scripts/compress-dist.mjs) and they are sent as
//   such to clients that accept them, compressed once at build time at the best quality instead of on each request.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.ts';

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** Vite's content-hashed output: assets/<name>-<hash>.<ext>, or its pre-compressed sibling (.br/.gz). */
const HASHED_ASSET = /[/\\]assets[/\\][^/\\]+-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+(?:\.br|\.gz)?$/;

export function isHashedAsset(filePath: string): boolean {
  return HASHED_ASSET.test(filePath);
}

/** Serves the built console; GET/HEAD of extension-less paths outside /api/ and /assets/ get index.html. */
/** The console's catch-all route: client routes get index.html, anything else under it 404 (as no route at all). */
export const SPA_FALLBACK_ROUTE = '/*';

export function registerSpa(app: FastifyInstance, config: Config): void {
  const dist = config.WEB_DIST ?? path.resolve(import.meta.dirname, '../../../web/dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) return;
  void app.register(fastifyStatic, {
    root: dist,
    prefix: '/',
    wildcard: false,
    index: false,
    preCompressed: true,
    // ETag and Last-Modified are on (the send defaults): a revalidation of an unchanged file answers 304.
    setHeaders: (res: FastifyReply, filePath: string) => {
      void res.header(
        'cache-control',
        isHashedAsset(filePath) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL,
      );
    },
  });
  const sendIndex = (reply: FastifyReply) => reply.sendFile('index.html');
  app.get(SPA_FALLBACK_ROUTE, { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || url.startsWith('/assets/') || path.extname(url) !== '') {
      return reply.status(404).send({ detail: 'Not found.' });
    }
    return sendIndex(reply);
  });
  app.get('/', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
}
