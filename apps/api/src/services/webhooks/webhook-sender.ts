// One webhook POST: JSON body, 10 s deadline, redirects not followed (a 3xx is an unsuccessful answer), the
// connection pinned to a checked address (url-guard). Never throws for what the receiver does: the outcome is
// returned for the delivery log. The auth token travels in a header and is never part of an error text.
// With a secret, the exact bytes sent are signed (X-SC-Timestamp, X-SC-Signature) at the time of this attempt.
// Each outcome carries how long the attempt took (to the answer, or the error).
import http from 'node:http';
import https from 'node:https';
import { signatureHeaders } from './signature.ts';
import { guardedLookup, parseWebhookUrl } from './url-guard.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an unsuccessful answer's body is kept in the delivery log. */
const ERROR_BODY_CHARS = 200;

export type WebhookRequest = {
  url: string;
  body: unknown;
  headers: Record<string, string>;
  allowPrivate: boolean;
  timeoutMs?: number;
  /** The organization's webhook secret and the time of this attempt: the body is signed with both. */
  signing?: { secret: string; at: Date };
};

export type WebhookOutcome = (
  | { ok: true; statusCode: number }
  | { ok: false; statusCode: number | null; error: string; refused: boolean }
) & { durationMs?: number };

export function postWebhook(req: WebhookRequest): Promise<WebhookOutcome> {
  const url = parseWebhookUrl(req.url);
  const payload = Buffer.from(JSON.stringify(req.body));
  const client = url.protocol === 'https:' ? https : http;
  const timeoutMs = req.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const signed = req.signing ? signatureHeaders(req.signing.secret, req.signing.at, payload) : {};
  const started = performance.now();

  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...outcome, durationMs: Math.max(0, Math.round(performance.now() - started)) });
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'ScreeningConsole-Webhook/1.0',
          ...req.headers,
          ...signed,
        },
        ...(req.allowPrivate ? {} : { lookup: guardedLookup }),
        agent: false,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < ERROR_BODY_CHARS * 4) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          if (statusCode >= 200 && statusCode < 300) {
            finish({ ok: true, statusCode });
            return;
          }
          const text = Buffer.concat(chunks)
            .toString('utf8')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, ERROR_BODY_CHARS);
          const redirect = statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : '';
          finish({
            ok: false,
            statusCode,
            error: `HTTP ${statusCode}${redirect}${text ? `: ${text}` : ''}`,
            refused: false,
          });
        });
        response.on('error', (err) => finish({ ok: false, statusCode, error: err.message, refused: false }));
      },
    );
    const deadline = setTimeout(() => {
      request.destroy(new Error(`No answer within ${timeoutMs / 1000} s.`));
    }, timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => {
      const refused = err.code === 'EWEBHOOKPRIVATE';
      finish({ ok: false, statusCode: null, error: err.message.slice(0, 500), refused });
    });
    request.end(payload);
  });
}
