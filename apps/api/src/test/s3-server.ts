// A real S3-compatible server for tests and the stack test: s3rver (npm, the S3-compatible server published there;
// MinIO and garage are in neither npm nor Debian 12) on 127.0.0.1, behind a small front that checks every request's
// AWS Signature V4 and payload hash against one known key pair. s3rver 3.7.1 checks only that a V4 access key id
// exists and never verifies the signature, so without the front a wrong secret would be accepted: it is not.
//
//   const s3 = await startS3Server();            // { endpoint, bucket, region, accessKeyId, secretAccessKey, … }
//   loadConfig({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: s3.bucket, S3_ACCESS_KEY_ID: s3.accessKeyId,
//                S3_SECRET_ACCESS_KEY: s3.secretAccessKey, S3_REGION: s3.region });   // or s3.env
//   await s3.listKeys();  await s3.readObject(key);   // what the server holds, read past our own client
//   await s3.stop();                                   // closes both servers, removes the temporary directory
//
// No Vitest import: the stack test (scripts) uses it too. Ports are ephemeral (0) unless `port` is given.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

export type TestS3Server = {
  /** http://127.0.0.1:<port>: the signature-checking front, the only address clients should use. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* variables of config.ts that point the API at this server. */
  env: Record<
    'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY',
    string
  >;
  /** Where s3rver keeps the objects (removed by stop()). */
  directory: string;
  /** Keys in the bucket (optionally under a prefix), read through s3rver's own store, not through our client. */
  listKeys: (prefix?: string) => Promise<string[]>;
  /** The stored bytes of a key, or null; read through s3rver's store. */
  readObject: (key: string) => Promise<Buffer | null>;
  /** Requests the front refused (bad signature, unknown key, unsigned, payload hash mismatch), by S3 error code. */
  refused: string[];
  /** From now on only `secret` signs valid requests: a rotated or revoked key, for a client still on the old one. */
  setSecretAccessKey: (secret: string) => void;
  stop: () => Promise<void>;
};

export type S3ServerOptions = {
  bucket?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Port of the front (default 0: any free port). */
  port?: number;
};

// s3rver ships no types: the few members used here.
type S3rverStore = {
  listObjects: (
    bucket: string,
    options: { prefix?: string; maxKeys: number },
  ) => Promise<{ objects: Array<{ key: string }> }>;
  getObject: (bucket: string, key: string) => Promise<{ content: NodeJS.ReadableStream } | null>;
};
type S3rverInstance = { run: () => Promise<AddressInfo>; close: () => Promise<void>; store: S3rverStore };
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const SKEW_MS = 15 * 60 * 1000;

export async function startS3Server(options: S3ServerOptions = {}): Promise<TestS3Server> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const bucket = options.bucket ?? 'screening-test';
  const region = options.region ?? 'us-east-1';
  const accessKeyId = options.accessKeyId ?? 'SCTESTACCESSKEY';
  const secretAccessKey = options.secretAccessKey ?? 'sc-test-secret-0123456789abcdef';
  let acceptedSecret = secretAccessKey;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-s3rver-'));

  const backend = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const backendAddress = await backend.run();
  const refused: string[] = [];

  const front = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const refusal = checkRequest(req, body, { accessKeyId, secretAccessKey: acceptedSecret, region });
      if (refusal) {
        refused.push(refusal.code);
        const xml =
          `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code>` +
          `<Message>${refusal.message}</Message></Error>`;
        res.writeHead(refusal.status, {
          'content-type': 'application/xml',
          'content-length': Buffer.byteLength(xml),
        });
        res.end(req.method === 'HEAD' ? undefined : xml);
        return;
      }
      // Checked here; s3rver sees an anonymous request (it enforces no ACLs, so it serves it as the owner's).
      const headers = { ...req.headers };
      delete headers.authorization;
      const forward = http.request(
        { host: '127.0.0.1', port: backendAddress.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  return {
    endpoint,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
    },
    directory,
    refused,
    setSecretAccessKey: (secret) => {
      acceptedSecret = secret;
    },
    listKeys: async (prefix) => {
      const { objects } = await backend.store.listObjects(bucket, { prefix, maxKeys: 100_000 });
      return objects.map((o) => o.key).sort();
    },
    readObject: async (key) => {
      const object = await backend.store.getObject(bucket, key);
      if (!object) return null;
      const parts: Buffer[] = [];
      for await (const part of object.content) parts.push(Buffer.from(part as Uint8Array));
      return Buffer.concat(parts);
    },
    stop: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await backend.close().catch(() => undefined);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

type Refusal = { status: number; code: string; message: string };
type KeyPair = { accessKeyId: string; secretAccessKey: string; region: string };

/**
 * AWS Signature Version 4 in the Authorization header, checked as S3 does: the access key, the scope, the date
 * within 15 minutes, the signature over the canonical request, and a signed payload hash equal to the body's.
 * Unsigned and query-signed (presigned) requests are refused: the bucket is private and our store never presigns.
 */
export function checkRequest(req: http.IncomingMessage, body: Buffer, keys: KeyPair): Refusal | null {
  const denied = (code: string, message: string, status = 403): Refusal => ({ status, code, message });
  const auth = req.headers.authorization;
  if (!auth) return denied('AccessDenied', 'Access Denied');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(auth);
  if (!match) return denied('AuthorizationHeaderMalformed', 'The authorization header is malformed.', 400);
  const [, credential = '', signedHeaderList = '', signature = ''] = match;
  const [keyId, date, scopeRegion, service, terminator] = credential.split('/');
  if (keyId !== keys.accessKeyId) {
    return denied('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
  if (scopeRegion !== keys.region || service !== 's3' || terminator !== 'aws4_request') {
    return denied(
      'AuthorizationHeaderMalformed',
      'The credential scope is not this region and service.',
      400,
    );
  }
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!at || !date || !amzDate.startsWith(date))
    return denied('AccessDenied', 'A valid x-amz-date is required.');
  const time = Date.UTC(+at[1]!, +at[2]! - 1, +at[3]!, +at[4]!, +at[5]!, +at[6]!);
  if (Math.abs(Date.now() - time) > SKEW_MS)
    return denied('RequestTimeTooSkewed', 'The request time is too skewed.');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!payloadHash) return denied('InvalidRequest', 'Missing required header: x-amz-content-sha256', 400);
  const signedHeaders = signedHeaderList.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) {
    return denied('AccessDenied', 'host and x-amz-date must be signed.');
  }

  const url = new URL(req.url ?? '/', 'http://s3.local');
  if ([...url.searchParams.keys()].some((k) => k.startsWith('X-Amz-'))) {
    return denied('AccessDenied', 'Presigned requests are not accepted by this test server.');
  }
  const canonicalUri = decodeURIComponent(url.pathname).split('/').map(encodeRfc3986).join('/');
  const canonicalQuery = [...url.searchParams.entries()]
    .map(([k, v]) => [encodeRfc3986(k), encodeRfc3986(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    req.method,
    canonicalUri,
    canonicalQuery,
    canonicalHeaders,
    signedHeaderList,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${keys.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${keys.secretAccessKey}`, date);
  for (const part of [keys.region, 's3', 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(stringToSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    return denied(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(body)) {
    return denied(
      'XAmzContentSHA256Mismatch',
      'The provided x-amz-content-sha256 header does not match the body.',
      400,
    );
  }
  return null;
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

// RFC 3986 unreserved characters stay; everything else is %XX (encodeURIComponent leaves !'()* alone).
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
