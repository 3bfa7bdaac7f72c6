// S3-compatible object store (AWS S3, MinIO, R2, …) over plain fetch, requests signed with SigV4 by aws4fetch.
// Path-style URLs (`{endpoint}/{bucket}/{key}`) work with every S3-compatible server.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { contentTypeOfKey } from './local-storage.ts';
import { assertSafeStorageKey } from './storage-key.ts';
import { StorageFullError, type Storage } from './storage.ts';

export type S3Options = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
};

/** A readiness probe waits no longer than this for the bucket's answer. */
const REACHABLE_TIMEOUT_MS = 2_000;

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

  async function failure(res: Response, what: string): Promise<Error> {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    return new Error(`S3 ${what} failed with HTTP ${res.status}: ${text}`);
  }

  return {
    kind: 's3',
    async put(key, data, contentType) {
      const res = await client.fetch(urlOf(key), {
        method: 'PUT',
        body: data,
        // A signed payload hash: the server refuses a body changed on the way.
        headers: {
          'content-type': contentType,
          'x-amz-content-sha256': createHash('sha256').update(data).digest('hex'),
        },
      });
      // 507 Insufficient Storage: MinIO's answer when its drives are full.
      if (res.status === 507) throw new StorageFullError(await failure(res, 'PUT'));
      if (!res.ok) throw await failure(res, 'PUT');
      await res.body?.cancel();
    },
    async get(key) {
      const res = await client.fetch(urlOf(key), { method: 'GET' });
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
      const res = await client.fetch(urlOf(key), { method: 'DELETE' });
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
