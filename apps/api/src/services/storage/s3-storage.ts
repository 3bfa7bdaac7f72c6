// S3-compatible object store (AWS S3, MinIO, R2, …) over plain fetch, requests signed with SigV4 by aws4fetch.
// Path-style URLs (`{endpoint}/{bucket}/{key}`) work with every S3-compatible server.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { contentTypeOfKey } from './local-storage.ts';
import { assertSafeStorageKey } from './storage-key.ts';
import { StorageFullError, StorageUnavailableError, type Storage } from './storage.ts';

export type S3Options = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Milliseconds to wait for the server's answer (its headers; a download's body streams after). Default 30 s. */
  timeoutMs?: number;
};

/** A readiness probe waits no longer than this for the bucket's answer. */
const REACHABLE_TIMEOUT_MS = 2_000;
/** Long enough for the largest upload (20 MB) to reach a store on the same network; short of a client giving up. */
const DEFAULT_TIMEOUT_MS = 30_000;

export function createS3Storage(opts: S3Options): Storage {
  const client = new AwsClient({
    accessKeyId: opts.accessKeyId,
    secretAccessKey: opts.secretAccessKey,
    region: opts.region,
    service: 's3',
    retries: 2,
  });
  const base = `${opts.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(opts.bucket)}`;

  function urlOf(key: string): string {
    assertSafeStorageKey(key);
    return `${base}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  /**
   * One signed request. A server that cannot be reached, or answers nothing within the timeout, is unavailable, not
   * a bug of ours; the timer stops once the headers are in, so a long download is not cut.
   */
  async function send(url: string, init: RequestInit, what: string): Promise<Response> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      return await client.fetch(url, { ...init, signal: abort.signal });
    } catch (err) {
      const reason = abort.signal.aborted ? (abort.signal.reason as Error).message : describeFetchError(err);
      throw new StorageUnavailableError(`S3 ${what} failed: ${reason}`, err);
    } finally {
      clearTimeout(timer);
    }
  }

  async function failure(res: Response, what: string): Promise<Error> {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    const message = `S3 ${what} failed with HTTP ${res.status}: ${text}`;
    // Refused credentials (401, 403: a wrong or revoked key, a policy without this bucket), throttling (429, 503
    // SlowDown) and server errors are the store's state, not the request's fault.
    if (res.status === 401 || res.status === 403 || res.status === 429 || res.status >= 500) {
      return new StorageUnavailableError(message);
    }
    return new Error(message);
  }

  return {
    kind: 's3',
    async put(key, data, contentType) {
      const res = await send(
        urlOf(key),
        {
          method: 'PUT',
          body: data,
          // A signed payload hash: the server refuses a body changed on the way.
          headers: {
            'content-type': contentType,
            'x-amz-content-sha256': createHash('sha256').update(data).digest('hex'),
          },
        },
        'PUT',
      );
      // 507 Insufficient Storage: MinIO's answer when its drives are full.
      if (res.status === 507) throw new StorageFullError(await failure(res, 'PUT'));
      if (!res.ok) throw await failure(res, 'PUT');
      await res.body?.cancel();
    },
    async get(key) {
      const res = await send(urlOf(key), { method: 'GET' }, 'GET');
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok || !res.body) throw await failure(res, 'GET');
      const length = Number(res.headers.get('content-length'));
      return {
        body: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
        contentType: res.headers.get('content-type') ?? contentTypeOfKey(key),
        size: Number.isFinite(length) && length >= 0 ? length : null,
      };
    },
    async delete(key) {
      const res = await send(urlOf(key), { method: 'DELETE' }, 'DELETE');
      // S3 answers 204 for a deleted or missing key; some compatible servers answer 404 for a missing one.
      if (!res.ok && res.status !== 404) throw await failure(res, 'DELETE');
      await res.body?.cancel();
    },
    async isReachable() {
      try {
        // HEAD bucket: 200 when it exists and the credentials may use it (403 refused, 404 no such bucket).
        const res = await client.fetch(base, { method: 'HEAD', signal: AbortSignal.timeout(REACHABLE_TIMEOUT_MS) });
        await res.body?.cancel();
        return res.ok;
      } catch {
        return false;
      }
    },
  };
}

/** undici says 'fetch failed' and puts the reason (ECONNREFUSED, a reset) in `cause`. */
function describeFetchError(err: unknown): string {
  const cause =
    err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  const detail = cause?.code ?? cause?.message;
  const message = err instanceof Error ? err.message : String(err);
  return detail ? `${message} (${detail})` : message;
}
