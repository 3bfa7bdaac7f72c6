// One logging policy for every log line: the Fastify (pino) logger and the small JSON logger services use when
// there is no Fastify logger (scripts, tests). No secret reaches the log: known secret fields are redacted at any
// depth, errors are summarised as class, code and message (a failed query's SQL parameters never appear: Drizzle
// puts them in its message and on the error), and tokens written into free text are masked.
import type { FastifyError, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

type LogFn = (obj: Record<string, unknown>, msg: string) => void;
export type ServiceLogger = { info: LogFn; warn: LogFn; error: LogFn };

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

export const REDACTED = '[Redacted]';

// Compared without case, '_' or '-': 'webhook_auth_token', 'webhookAuthToken' and 'x-impersonation-token' all match.
const SECRET_KEYS = new Set([
  'password',
  'passwordhash',
  'newpassword',
  'oldpassword',
  'currentpassword',
  'confirmpassword',
  'token',
  'authtoken',
  'webhookauthtoken',
  'idtoken',
  'accesstoken',
  'refreshtoken',
  'tokenhash',
  'ximpersonationtoken',
  'otp',
  'code',
  'codehash',
  'pin',
  'pinhash',
  'hash',
  'secret',
  'secretkey',
  'clientsecret',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'apikey',
  'accesskeyid',
  'secretaccesskey',
  'smsprovidertoken',
  'link',
]);

const normalizeKey = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

export function isSecretKey(key: string): boolean {
  const k = normalizeKey(key);
  return SECRET_KEYS.has(k) || k.endsWith('password') || k.endsWith('token') || k.endsWith('secret');
}

// Query parameters that carry a secret in a URL (`?token=` of a reset link, `?code=`).
const SECRET_QUERY = /([?&](?:[a-z_]*token|code|otp|pin|password|secret|key)=)[^&#]*/gi;

/**
 * Masks secrets inside free text: the parameter list Drizzle appends to a failed query's message
 * ("Failed query: …\nparams: …"), `Token …`/`Bearer …` credentials, and secret query parameters of URLs.
 */
export function scrubText(text: string): string {
  return text
    .replace(/\n\s*params:[\s\S]*$/, '\nparams: [Redacted]')
    .replace(/\b(Token|Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`)
    .replace(SECRET_QUERY, `$1${REDACTED}`);
}

// The path segments a log may keep: numeric ids and route words ('appointment', 're-certify', 'v1', 'index.html').
// Anything else is a value a client put in the path (a booking or page token): base64url tokens of 22+ characters are
// never only lowercase letters and hyphens in practice.
const LOGGABLE_SEGMENT = /^(?:\d{1,9}|v\d+|[a-z]+(?:[-_][a-z]+)*(?:\.[a-z0-9]+)?)$/;

/**
 * A request URL as it may be logged: without its query string (search terms are patient names and mobile numbers;
 * a reset link carries its token) and with every path segment that is not an id or a route word masked.
 */
export function loggablePath(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path
    .split('/')
    .map((segment) => (segment === '' || LOGGABLE_SEGMENT.test(segment) ? segment : REDACTED))
    .join('/');
}

export type ErrorSummary = {
  type: string;
  message: string;
  code?: string | number;
  constraint?: string;
  stack?: string;
  cause?: ErrorSummary;
};

/**
 * An error as it may be logged: its class, code and message, and the call sites of its stack. Never its other
 * fields: Drizzle's error carries `params` (a webhook token, a session token hash), pg's carries `detail`
 * ("Key (email)=(…) already exists") and `where`.
 */
export function summarizeError(error: unknown, depth = 0): ErrorSummary {
  if (!(error instanceof Error)) return { type: typeof error, message: scrubText(String(error)).slice(0, 1000) };
  const e = error as Error & { code?: unknown; constraint?: unknown };
  const summary: ErrorSummary = { type: e.constructor.name || e.name, message: scrubText(e.message).slice(0, 2000) };
  if (typeof e.code === 'string' || typeof e.code === 'number') summary.code = e.code;
  if (typeof e.constraint === 'string') summary.constraint = e.constraint;
  // The stack's first lines repeat the message (with Drizzle's params): keep the call sites only.
  const frames = e.stack
    ?.split('\n')
    .filter((line) => line.startsWith('    at '))
    .join('\n');
  if (frames && depth === 0) summary.stack = frames;
  if (e.cause !== undefined && depth < 3) summary.cause = summarizeError(e.cause, depth + 1);
  return summary;
}

const isPlain = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A copy of a log object with every secret field masked at any depth, errors summarised and strings scrubbed.
 * Objects that are not plain (a request, a reply) are left to the logger's serializers.
 */
export function redactSecrets(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return summarizeError(value);
  if (seen.has(value) || depth > 8) return '[…]';
  if (Array.isArray(value)) {
    seen.add(value);
    return value.map((v) => redactSecrets(v, depth + 1, seen));
  }
  if (!isPlain(value)) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = isSecretKey(key) && v !== null && v !== undefined ? REDACTED : redactSecrets(v, depth + 1, seen);
  }
  return out;
}

/** The pino options every Fastify logger of the app uses (level and destination aside). */
type PinoOptions = Extract<FastifyServerOptions['logger'], object>;
type SerializedError = ReturnType<NonNullable<NonNullable<PinoOptions['serializers']>['err']>>;

export function pinoPolicy(): Pick<PinoOptions, 'redact' | 'serializers' | 'formatters' | 'hooks'> {
  return {
    // Belt and braces for headers logged through a non-plain object (pino's own path redaction).
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-impersonation-token"]',
        '*.headers.authorization',
        '*.headers.cookie',
        '*.headers["x-impersonation-token"]',
      ],
      censor: REDACTED,
    },
    serializers: {
      // formatters.log (below) has already summarised errors by the time serializers run; an error that reaches
      // here unprocessed is summarised the same way.
      err: (error: FastifyError) =>
        (error instanceof Error ? { ...summarizeError(error), stack: summarizeError(error).stack ?? '' } : error) as SerializedError,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggablePath(request.url),
        remoteAddress: request.ip,
      }),
    },
    formatters: {
      log: (object: Record<string, unknown>) => redactSecrets(object) as Record<string, unknown>,
    },
    hooks: {
      // The message text too: `log.error(error.message)` must not write a query's parameters.
      logMethod(args: Parameters<typeof method>, method) {
        const scrubbed = args.map((a: unknown) => (typeof a === 'string' ? scrubText(a) : a)) as typeof args;
        method.apply(this, scrubbed);
      },
    },
  };
}

export function createConsoleLogger(
  level: Config['LOG_LEVEL'],
  streams: { out: NodeJS.WritableStream; err: NodeJS.WritableStream } = { out: process.stdout, err: process.stderr },
): ServiceLogger {
  const min = LEVELS[level];
  const write =
    (lvl: keyof typeof LEVELS, stream: NodeJS.WritableStream): LogFn =>
    (obj, msg) => {
      if (LEVELS[lvl] < min) return;
      const fields = redactSecrets(obj) as Record<string, unknown>;
      stream.write(`${JSON.stringify({ level: LEVELS[lvl], time: Date.now(), ...fields, msg: scrubText(msg) })}\n`);
    };
  return {
    info: write('info', streams.out),
    warn: write('warn', streams.err),
    error: write('error', streams.err),
  };
}
