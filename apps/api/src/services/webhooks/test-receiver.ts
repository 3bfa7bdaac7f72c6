// A real HTTP receiver on 127.0.0.1 for webhook tests: records each request and answers with the status the
// test chooses (by request number). Given a secret (`verifyWith`), it checks each request's signature as a
// receiver should (verifyWebhookSignature over the raw body) and answers 401 to one that fails, before the status
// the test chose. Not a test file itself; imported by the webhook tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '@sc/shared/webhooks';
import { verifyWebhookSignature, type SignatureCheck } from './signature.ts';

export type ReceivedRequest = {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The body exactly as received (what the signature covers). */
  rawBody: string;
  /** The receiver's check, when it verifies signatures. */
  signature?: SignatureCheck;
};

export type ReceiverOptions = {
  /** The secret to verify with (read at each request) and the receiver's clock; null: no check. */
  verifyWith?: () => { secret: string; now?: Date } | null;
};

const header = (headers: http.IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

export type Receiver = {
  url: string;
  requests: ReceivedRequest[];
  /** Status for the n-th request (1-based); default 200. */
  respond: (status: (n: number) => number) => void;
  close: () => Promise<void>;
};

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let statusFor: (n: number) => number = () => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const check = options.verifyWith?.();
      const signature = check
        ? verifyWebhookSignature({
            secret: check.secret,
            rawBody: text,
            timestamp: header(req.headers, WEBHOOK_TIMESTAMP_HEADER),
            signature: header(req.headers, WEBHOOK_SIGNATURE_HEADER),
            now: check.now,
          })
        : undefined;
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, rawBody: text, signature });
      if (signature && !signature.ok) {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end(`signature ${signature.reason}`);
        return;
      }
      const status = statusFor(requests.length);
      res.writeHead(status, {
        'content-type': 'text/plain',
        ...(status >= 300 && status < 400 ? { location: '/elsewhere' } : {}),
      });
      res.end(status >= 400 ? `receiver error, got ${req.headers.authorization ?? 'no token'}` : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/scans?source=test`,
    requests,
    respond: (fn) => {
      statusFor = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
