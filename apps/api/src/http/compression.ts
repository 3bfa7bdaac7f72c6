// Compressed answers (issue 24): JSON, CSV, HTML and other text are compressed when the client accepts it, at a level
// that costs the server little CPU (measured at a million scans: bench/compression-bench.ts, figures in
// docs/decisions.md). Bodies that are already compressed are never compressed again: PDF, JPEG, PNG, MP4 are left
// alone by their type, and so is `application/octet-stream` (firmware images, packed map points, stored files of an
// unknown type), which the MIME database would otherwise call compressible. A route that knows its octet-stream
// compresses well says so with `config: { compressBinary: true }`. Built assets come compressed from the build
// (http/spa.ts), and an answer that already carries a Content-Encoding is sent as it is.
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyContextConfig {
    /** This route's `application/octet-stream` answers compress well: let them be compressed too. */
    compressBinary?: boolean;
  }
}

/** Brotli quality for answers: 4 is where brotli beats gzip's default on size at gzip-like CPU (bench figures). */
export const ANSWER_BROTLI_QUALITY = 4;
/** gzip level for clients without brotli (curl, older HTTP libraries). */
export const ANSWER_GZIP_LEVEL = 4;
/** Below this many bytes an answer goes as it is: compressing would save less than a packet. */
export const ANSWER_COMPRESS_THRESHOLD = 1024;
/**
 * Answers held whole in memory up to this size are compressed in one call rather than through a zlib stream: a
 * page of 50 scans (88 kB) then costs ~0.8 ms of CPU instead of ~2.4 ms, and the event loop is held about that long.
 * Larger ones, and every stream (CSV), go through a zlib stream on the thread pool.
 */
export const ANSWER_SYNC_THRESHOLD = 128 * 1024;

/** Content types that are binary or already compressed, whatever the MIME database says. */
const BINARY_TYPE = /^application\/octet-stream\b/i;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Before @fastify/compress's own onSend (a route-level hook, so it runs after this app-level one).
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (BINARY_TYPE.test(type) && request.routeOptions.config.compressBinary !== true) {
      // The plugin's documented opt-out, read from the request as it decides.
      request.headers['x-no-compression'] = 'binary';
    }
    return payload;
  });
  await app.register(compress, {
    global: true,
    // Request bodies are never inflated: refuseUnreadableRequests (app.ts) refuses compressed bodies with a 415.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: ANSWER_COMPRESS_THRESHOLD,
    syncThreshold: ANSWER_SYNC_THRESHOLD,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: ANSWER_BROTLI_QUALITY } },
    zlibOptions: { level: ANSWER_GZIP_LEVEL },
  });
}
