// The server's signing secret: SECRET_KEY when configured, else generated once and kept in `settings`
// so every instance on the same database agrees on it.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { settings } from '../db/schema/index.ts';

const SETTING_KEY = 'signing_secret';

export type SecretsService = { getSigningSecret: () => Promise<string> };

export function createSecretsService(config: Pick<Config, 'SECRET_KEY'>, database: Database): SecretsService {
  let cached: Promise<string> | null = null;

  async function load(): Promise<string> {
    if (config.SECRET_KEY) return config.SECRET_KEY;
    const generated = crypto.randomBytes(32).toString('base64url');
    // Two instances starting together: the first insert wins and both read it back.
    await database.db.insert(settings).values({ key: SETTING_KEY, value: generated }).onConflictDoNothing();
    const [row] = await database.db
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, SETTING_KEY));
    if (typeof row?.value !== 'string') throw new Error('The signing secret could not be stored.');
    return row.value;
  }

  return {
    getSigningSecret: () => {
      cached ??= load().catch((err: unknown) => {
        cached = null;
        throw err;
      });
      return cached;
    },
  };
}
