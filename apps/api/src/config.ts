// Every environment variable, parsed once (DESIGN §2). Nothing else reads process.env.
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_READ_URL: z.string().optional(),
  PUBLIC_URL: z.string().optional(),
  SECRET_KEY: z.string().min(16).optional(),
  DEMO_PASSWORD: z.string().default('Demo@2026'),
  LOAD_DEMO: z.enum(['auto', 'always', 'never']).default('auto'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().positive().default(12),
  REQUIRE_SECOND_FACTOR: z.enum(['auto', 'true', 'false']).default('auto'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Screening Console <no-reply@screening.local>'),
  SMS_PROVIDER_URL: z.string().optional(),
  SMS_PROVIDER_TOKEN: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  GEOCODER_URL: z.string().default('https://nominatim.openstreetmap.org'),
  TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<z.input<typeof ZEnv>> = {}) {
  const parsed = ZEnv.parse({ ...env, ...overrides });
  const isProduction = parsed.NODE_ENV === 'production';
  const dataDir = path.resolve(parsed.DATA_DIR);
  return {
    ...parsed,
    dataDir,
    isProduction,
    /** Embedded mode: PGlite, outbox readable through the dev endpoint (never in production). */
    isEmbedded: !parsed.DATABASE_URL,
    outboxReadable: !isProduction,
    requireSecondFactor: parsed.REQUIRE_SECOND_FACTOR === 'auto' ? isProduction : parsed.REQUIRE_SECOND_FACTOR === 'true',
    publicUrl: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
  };
}
