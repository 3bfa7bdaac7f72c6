// A real HTTP receiver on 127.0.0.1 for webhook tests: records each request and answers with the status the
// test chooses (by request number). Not a test file itself; imported by the webhook tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedRequest = {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
};

export type Receiver = {
  url: string;
  requests: ReceivedRequest[];
  /** Status for the n-th request (1-based); default 200. */
  respond: (status: (n: number) => number) => void;
  close: () => Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
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
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
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
