// The stack test's HTTP client: node:http with a keep-alive agent per client address, so a client can come from its
// own loopback address (127.0.0.2, …: Linux answers the whole 127/8) and nginx's X-Forwarded-For names it; every
// answer is timed and counted per endpoint for the summary (p95, statuses).
import http from 'node:http';

export type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string; json: unknown };

/** Per endpoint label: latencies (ms) of answered requests, and how many answers of each status (0: no answer). */
export class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly statuses = new Map<string, Map<number, number>>();
  /** 5xx other than 502/503, with when they happened (s since the load began). */
  readonly unexpected: string[] = [];
  /** When each 502/503 or unanswered request happened (s since the load began): they should cluster at the kills. */
  readonly retryable: number[] = [];
  started = performance.now();

  record(label: string, status: number, ms: number): void {
    if (status > 0) (this.latencies.get(label) ?? this.latencies.set(label, []).get(label)!).push(ms);
    const byStatus = this.statuses.get(label) ?? this.statuses.set(label, new Map()).get(label)!;
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    if (status === 0 || status === 502 || status === 503) this.retryable.push(this.elapsed());
    else if (status >= 500) {
      this.unexpected.push(`${label}: ${status} at ${this.elapsed().toFixed(1)} s`);
    }
  }

  elapsed(): number {
    return (performance.now() - this.started) / 1000;
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: Buffer;
  /** Endpoint label for the recorder (none: not recorded). */
  label?: string;
  timeoutMs?: number;
};

export class Client {
  private readonly agent: http.Agent;
  /** Cookies the server set (name → value), sent back as a browser would (read-your-writes may ride on one). */
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    readonly localAddress = '127.0.0.1',
    private readonly recorder?: Recorder,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 16, localAddress });
  }

  /** One request; a transport failure answers status 0 (never throws), so callers decide what a retry means. */
  request(path: string, opts: RequestOptions = {}): Promise<Answer> {
    const url = new URL(path, this.base);
    const headers: Record<string, string> = { ...opts.headers };
    let body = opts.body;
    if (opts.json !== undefined) {
      body = Buffer.from(JSON.stringify(opts.json));
      headers['content-type'] = 'application/json';
    }
    if (body) headers['content-length'] = String(body.length);
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const t0 = performance.now();
    return new Promise((resolve) => {
      const done = (answer: Answer): void => {
        if (opts.label) this.recorder?.record(opts.label, answer.status, performance.now() - t0);
        resolve(answer);
      };
      const req = http.request(
        url,
        { method: opts.method ?? 'GET', headers, agent: this.agent, timeout: opts.timeoutMs ?? 30_000 },
        (res) => {
          this.keepCookies(res.headers['set-cookie']);
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', () => done({ status: 0, headers: {}, text: 'response aborted', json: null }));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let json: unknown = null;
            try {
              json = JSON.parse(text);
            } catch {
              // not JSON (CSV, HTML): kept as text
            }
            done({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (error) => done({ status: 0, headers: {}, text: error.message, json: null }));
      req.end(body);
    });
  }

  private keepCookies(setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*(0|-)/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A multipart form with text fields and one file, as a device sends to file/upload/. */
export function multipartForm(
  fields: Record<string, string>,
  file: { field: string; name: string; type: string; data: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----stack${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
