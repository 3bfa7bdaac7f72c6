// The file store of architecture §1: local disk under DATA_DIR/files by default, S3-compatible object storage when
// S3_ENDPOINT and S3_BUCKET are set. Callers see one interface; who may read a file is decided by the files
// table (modules/files), never by the store.
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';

/**
 * The store cannot take a write: the disk is full or over quota, mounted read-only, or a folder cannot be made (its
 * root is gone or unmounted); an S3-compatible server says it is out of space. The request did nothing wrong and
 * nothing was kept: the error handler answers 507 (http/errors.ts).
 */
export class StorageFullError extends Error {
  constructor(cause: unknown) {
    super('The file store cannot take a write.', { cause });
    this.name = 'StorageFullError';
  }
}

/**
 * The store cannot be reached or refuses us: an S3-compatible server that is down, unreachable, overloaded (5xx,
 * SlowDown) or that refuses our credentials (401/403). The request did nothing wrong, and may succeed later or after
 * an operator fixes the store's settings: the error handler answers 503 with Retry-After (http/errors.ts), not 500.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StorageUnavailableError';
  }
}

export type StoredObject = {
  body: Readable;
  contentType: string;
  /** Bytes, when the store knows them. */
  size: number | null;
};

export type Storage = {
  readonly kind: 'local' | 's3';
  /** Writes (or replaces) the object at `key`. */
  put: (key: string, data: Buffer, contentType: string) => Promise<void>;
  /** The object at `key`, or null when there is none. */
  get: (key: string) => Promise<StoredObject | null>;
  /** Removes the object; a missing key is not an error. */
  delete: (key: string) => Promise<void>;
  /**
   * Whether the store can take reads and writes now (readiness, http/health.ts): the disk store's root is a writable
   * folder; the S3 bucket answers a HEAD with these credentials. Never throws.
   */
  isReachable: () => Promise<boolean>;
};

export type StorageConfig = Pick<
  Config,
  'dataDir' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_REGION'
>;

export function createStorage(config: StorageConfig): Storage {
  const s3 = {
    S3_ENDPOINT: config.S3_ENDPOINT,
    S3_BUCKET: config.S3_BUCKET,
    S3_ACCESS_KEY_ID: config.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: config.S3_SECRET_ACCESS_KEY,
  };
  const given = Object.entries(s3).filter(([, value]) => value);
  // Half an S3 configuration must not fall back to the local disk: with several instances, each would keep its own.
  if (given.length > 0 && given.length < 4) {
    const missing = Object.keys(s3).filter((name) => !s3[name as keyof typeof s3]);
    throw new Error(
      `S3 storage needs ${missing.join(', ')} too: set all of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or none.`,
    );
  }
  if (s3.S3_ENDPOINT && s3.S3_BUCKET && s3.S3_ACCESS_KEY_ID && s3.S3_SECRET_ACCESS_KEY) {
    if (!/^https?:\/\/[^/?#]+/i.test(s3.S3_ENDPOINT)) {
      throw new Error(`S3_ENDPOINT must be an http(s) URL such as https://s3.eu-west-1.amazonaws.com.`);
    }
    return createS3Storage({
      endpoint: s3.S3_ENDPOINT,
      bucket: s3.S3_BUCKET,
      accessKeyId: s3.S3_ACCESS_KEY_ID,
      secretAccessKey: s3.S3_SECRET_ACCESS_KEY,
      region: config.S3_REGION,
    });
  }
  return createLocalStorage(path.join(config.dataDir, 'files'));
}
