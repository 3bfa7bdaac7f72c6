// What a backup file is (a gzip-compressed tar: manifest.json, the database dump, files/…) and the pieces backup
// and restore share: the manifest's schema, the migration head, PostgreSQL's client tools, one-line failures.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { MIGRATIONS_DIR } from '../db/client.ts';

/** The format this code writes and the newest it reads; a change to the layout or the manifest increments it. */
export const FORMAT_VERSION = 1;
export const FORMAT_NAME = 'screening-console-backup';

export const MANIFEST_FILE = 'manifest.json';
/** PostgreSQL: `pg_dump --format=custom`. PGlite: its data directory as PGlite's dumpDataDir() writes it (a tar). */
export const DUMP_FILE = { postgres: 'database.pgdump', pglite: 'pgdata.tar' } as const;
export const FILES_DIR = 'files';

/** A failure the operator can act on: the CLI prints the message alone (one line) and exits with code 1. */
export class BackupError extends Error {}

const ZFileFingerprint = z.object({ size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

export const ZManifest = z.object({
  format: z.literal(FORMAT_NAME),
  format_version: z.number().int().positive(),
  created_at: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  /** `15.20` (PostgreSQL's server_version) or PGlite's PostgreSQL version. */
  server_version: z.string(),
  /** The pg_dump that wrote the dump (PostgreSQL): pg_restore must be at least its major version. */
  pg_dump_version: z.string().nullable(),
  migrations: z.object({ applied: z.number().int().nonnegative(), head: z.string().nullable() }),
  database: z.object({ file: z.string(), size: z.number().int().nonnegative(), sha256: z.string() }),
  files: z.object({
    /** `disk`: DATA_DIR/files are in the backup. `s3`: they are in the bucket, not here. */
    store: z.enum(['disk', 's3']),
    note: z.string().optional(),
  }),
  fingerprint: z.object({
    tables: z.record(z.string(), z.object({ rows: z.number().int().nonnegative(), md5: z.string() })),
    files: z.record(z.string(), ZFileFingerprint),
  }),
});
export type Manifest = z.infer<typeof ZManifest>;

/** What a backup and a restore read of the configuration: which engine and database, the files, the PostgreSQL tools. */
export type ArchiveConfig = Pick<Config, 'DATABASE_URL' | 'dataDir' | 'isEmbedded' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'PG_BIN_DIR'>;

/** The app's migrations, in order (drizzle's journal). */
export function migrationTags(): string[] {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  return journal.entries.map((e) => e.tag);
}

/** How many migrations the database has applied, and the last one's name. */
export async function migrationHead(
  query: <T>(sql: string) => Promise<T[]>,
): Promise<{ applied: number; head: string | null }> {
  const [table] = await query<{ name: string | null }>(`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS name`);
  if (!table?.name) return { applied: 0, head: null };
  const [row] = await query<{ n: number | string }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
  const applied = Number(row?.n ?? 0);
  return { applied, head: migrationTags()[applied - 1] ?? null };
}

// ---- PostgreSQL's client tools ---------------------------------------------------------------------------------------

const run = promisify(execFile);

/**
 * pg_dump or pg_restore for a server of `serverMajor`: PG_BIN_DIR when set, else Debian's versioned directory
 * (/usr/lib/postgresql/15/bin), else PATH. pg_dump refuses a server newer than itself, and pg_restore may not read a
 * newer pg_dump's archive, so a tool older than `serverMajor` is refused here with what to install.
 */
export async function findPgTool(
  tool: 'pg_dump' | 'pg_restore',
  minimumMajor: number,
  binDir: string | undefined,
): Promise<{ path: string; version: string }> {
  const debian = `/usr/lib/postgresql/${minimumMajor}/bin/${tool}`;
  const candidate = binDir ? path.join(binDir, tool) : fs.existsSync(debian) ? debian : tool;
  let output: string;
  try {
    output = (await run(candidate, ['--version'])).stdout;
  } catch {
    throw new BackupError(
      `${tool} was not found (${candidate}): install postgresql-client-${minimumMajor} or set PG_BIN_DIR to the directory holding it.`,
    );
  }
  const version = /(\d+)(?:\.(\d+))?/.exec(output)?.[0] ?? '0';
  if (Number(version.split('.')[0]) < minimumMajor) {
    throw new BackupError(
      `${candidate} is version ${version}; this needs ${tool} ${minimumMajor} or newer: install postgresql-client-${minimumMajor} or set PG_BIN_DIR.`,
    );
  }
  return { path: candidate, version };
}

/**
 * The URL without its password, and an environment carrying it: libpq reads PGPASSWORD when the URL has none, so
 * the password never appears in the process list.
 */
export function connectionForTool(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** Runs a client tool to completion; its standard error becomes the failure's message. */
export function runTool(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else {
        const detail = stderr.trim().split('\n').slice(0, 5).join(' | ') || `signal ${signal ?? ''}`;
        reject(new BackupError(`${path.basename(file)} failed (exit ${code ?? signal}): ${detail}`));
      }
    });
  });
}

/** server_version_num → major (150020 → 15). */
export async function serverVersion(
  query: <T>(sql: string) => Promise<T[]>,
): Promise<{ major: number; text: string }> {
  const [row] = await query<{ num: string; text: string }>(
    "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS text",
  );
  return { major: Math.floor(Number(row?.num ?? 0) / 10000), text: String(row?.text ?? '').split(' ')[0] ?? '' };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
