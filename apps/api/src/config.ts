// Every environment variable, parsed once (architecture §2). Nothing else reads process.env.
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { DEFAULT_TILE_ATTRIBUTION, DEFAULT_TILE_URL } from '@sc/shared/map-tiles';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** The password the demo accounts get unless DEMO_PASSWORD says otherwise; it is published in the README. */
export const DEFAULT_DEMO_PASSWORD = 'Demo@2026';

// proxy-addr (Fastify's trustProxy) also understands these names for whole ranges.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  if (entry.includes('/')) {
    try {
      ipaddr.parseCIDR(entry);
      return true;
    } catch {
      return false;
    }
  }
  return ipaddr.isValid(entry);
}

/**
 * TRUST_PROXY, in the forms Fastify's `trustProxy` takes: unset/`false` (the socket's address is the client's,
 * X-Forwarded-For is ignored), `true` (trust every hop: only behind a proxy that overwrites the header), a hop
 * count, or a comma list of proxy addresses/CIDRs (`10.0.0.1,192.168.0.0/16,loopback`).
 */
const trustProxy = z
  .string()
  .optional()
  .transform((raw, ctx): boolean | number | string[] => {
    const value = raw?.trim() ?? '';
    if (value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `TRUST_PROXY: "${bad.join(', ')}" is not an address or CIDR (use true, a hop count or a comma list)`,
      });
      return z.NEVER;
    }
    return entries;
  });

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // Loopback by default: the demo accounts and the dev outbox must not be reachable from the network by accident.
  HOST: z.string().default('127.0.0.1'),
  TRUST_PROXY: trustProxy,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_READ_URL: z.string().optional(),
  // How far behind (in time) the replica may be and still serve using_read_db=true reads (db/replica.ts).
  REPLICA_MAX_LAG_MS: z.coerce
    .number({ message: 'REPLICA_MAX_LAG_MS: a number of milliseconds (e.g. 2000)' })
    .int('REPLICA_MAX_LAG_MS: a whole number of milliseconds')
    .min(1000, 'REPLICA_MAX_LAG_MS: at least 1000 (the replica is sampled every 500 ms, and lag counts the time since)')
    .max(3_600_000, 'REPLICA_MAX_LAG_MS: at most 3600000 (an hour)')
    .default(2000),
  PUBLIC_URL: z.string().optional(),
  SECRET_KEY: z.string().min(16).optional(),
  DEMO_PASSWORD: z.string().default(DEFAULT_DEMO_PASSWORD),
  LOAD_DEMO: z.enum(['auto', 'always', 'never']).default('auto'),
  API_DOCS: z.enum(['off', 'admin', 'public']).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().positive().default(12),
  REQUIRE_SECOND_FACTOR: z.enum(['auto', 'true', 'false']).default('auto'),
  CHECK_RESPONSES: z.enum(['auto', 'true', 'false']).default('auto'),
  SESSION_CACHE: z.enum(['auto', 'true', 'false']).default('auto'),
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^smtps?:\/\/[^/?#]/i.test(v), {
      message: 'SMTP_URL: an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.org:587',
    }),
  MAIL_FROM: z.string().default('Screening Console <no-reply@screening.local>'),
  SMS_PROVIDER_URL: z.string().optional(),
  SMS_PROVIDER_TOKEN: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  GEOCODER_URL: z.string().default('https://nominatim.openstreetmap.org'),
  TILE_URL: z.string().default(DEFAULT_TILE_URL),
  TILE_ATTRIBUTION: z.string().default(DEFAULT_TILE_ATTRIBUTION),
  WEBHOOK_ALLOW_PRIVATE: bool,
  // Ports webhook URLs may use besides 80 and 443 (`8443,9000`); WEBHOOK_ALLOW_PRIVATE allows any port.
  WEBHOOK_ALLOWED_PORTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((p) => p.trim()).filter(Boolean))
    .refine((ports) => ports.every((p) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535), {
      message: 'WEBHOOK_ALLOWED_PORTS: a comma list of port numbers (1-65535)',
    })
    .transform((ports) => ports.map(Number)),
  RATE_LIMIT_DISABLED: bool,
  // The bearer token Prometheus sends to GET /metrics; unset (or empty): /metrics answers 404 (http/metrics.ts).
  METRICS_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .min(16, { message: 'METRICS_TOKEN: at least 16 characters (e.g. `openssl rand -hex 32`), or unset to switch /metrics off' })
      .regex(/^[\x21-\x7e]+$/, { message: 'METRICS_TOKEN: printable ASCII without spaces (it is sent in an HTTP header)' })
      .optional(),
  ),
  // On SIGTERM: how long in-flight requests and running jobs get to finish before their connections are cut.
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'SHUTDOWN_TIMEOUT_SECONDS: a number of seconds (default 25)' })
    .int('SHUTDOWN_TIMEOUT_SECONDS: a whole number of seconds')
    .min(1, 'SHUTDOWN_TIMEOUT_SECONDS: at least 1')
    .max(3600, 'SHUTDOWN_TIMEOUT_SECONDS: at most 3600')
    .default(25),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  // Where `npm run backup`/`restore` find pg_dump and pg_restore (default: Debian's directory for the server's major
  // version, else PATH); they must be at least the server's major version.
  PG_BIN_DIR: z.string().optional(),
});

export type Config = ReturnType<typeof loadConfig>;

export type DemoPlan = {
  load: boolean;
  /** Start-up must stop: the reason, one line for the operator. */
  refuse?: string;
};

/**
 * Whether start-up loads the demo data (into an empty database). Outside production: into an empty embedded
 * database (`auto`), or whenever asked (`always`). In production only when asked with `LOAD_DEMO=always`, and
 * then never with the published password: its accounts would be an open door.
 */
export function planDemo(env: {
  NODE_ENV: string;
  LOAD_DEMO: 'auto' | 'always' | 'never';
  DEMO_PASSWORD: string;
  DATABASE_URL?: string | undefined;
}): DemoPlan {
  if (env.LOAD_DEMO === 'never') return { load: false };
  if (env.NODE_ENV === 'production') {
    if (env.LOAD_DEMO !== 'always') return { load: false };
    if (env.DEMO_PASSWORD === DEFAULT_DEMO_PASSWORD) {
      return {
        load: false,
        refuse: `LOAD_DEMO=always in production needs a DEMO_PASSWORD of your own: the default ${DEFAULT_DEMO_PASSWORD} is published.`,
      };
    }
    return { load: true };
  }
  return { load: env.LOAD_DEMO === 'always' || !env.DATABASE_URL };
}

/** Origin of a configured URL ('https://tile.openstreetmap.org/{z}/{x}/{y}.png' → 'https://tile.openstreetmap.org'). */
function originOf(url: string | undefined): string | null {
  if (!url) return null;
  // Tile templates may put a subdomain placeholder in the host: https://{s}.tile.example.org → https://*.tile.example.org
  const text = url.replace(/\{[a-z]+\}(?=[^/]*\.)/i, '*');
  const match = /^(https?:\/\/[^/?#]+)/i.exec(text);
  return match?.[1]?.toLowerCase() ?? null;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<z.input<typeof ZEnv>> = {}) {
  const parsed = ZEnv.parse({ ...env, ...overrides });
  const isProduction = parsed.NODE_ENV === 'production';
  const dataDir = path.resolve(parsed.DATA_DIR);
  const demo = planDemo(parsed);
  const storageOrigin = parsed.S3_ENDPOINT ? originOf(parsed.S3_ENDPOINT) : null;
  return {
    ...parsed,
    dataDir,
    isProduction,
    /** Embedded mode: PGlite under DATA_DIR. */
    isEmbedded: !parsed.DATABASE_URL,
    demo,
    /**
     * Demo mode: the dev outbox endpoint exists (never in production, only when the demo data is in use) and is
     * served to loopback clients and ADMIN sessions only (modules/dev).
     */
    outboxReadable: !isProduction && demo.load,
    /** Fastify's trustProxy: who may set X-Forwarded-For (off unless TRUST_PROXY says so). */
    trustProxy: parsed.TRUST_PROXY,
    /** Who may read the OpenAPI page: public outside production, ADMIN sessions in production. */
    apiDocs: parsed.API_DOCS ?? (isProduction ? 'admin' : 'public'),
    /** Hosts the console may load images from / connect to besides itself (Content-Security-Policy). */
    contentOrigins: {
      tiles: originOf(parsed.TILE_URL),
      storage: storageOrigin,
    },
    requireSecondFactor: parsed.REQUIRE_SECOND_FACTOR === 'auto' ? isProduction : parsed.REQUIRE_SECOND_FACTOR === 'true',
    publicUrl: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
    /**
     * Whether routes with database-built rows (http/serializer.ts) check each answer against its schema: outside
     * production (tests, development); production writes them as built.
     */
    checkResponses: parsed.CHECK_RESPONSES === 'auto' ? !isProduction : parsed.CHECK_RESPONSES === 'true',
    /**
     * Whether sessions are kept in memory between requests (http/session-cache.ts): with PostgreSQL outside tests
     * ('postgres'; the embedded database answers a lookup in-process), always, or never. Tests that write sessions or
     * users behind the API's back turn it on only where they wait for the notification.
     */
    sessionCache:
      parsed.SESSION_CACHE === 'auto'
        ? parsed.NODE_ENV === 'test'
          ? false
          : ('postgres' as const)
        : parsed.SESSION_CACHE === 'true',
  };
}
