// What a backup must reproduce, computed the same way before the dump and after the restore: per table its row count
// and a checksum of its rows (in SQL, over every table of every non-system schema), per stored file its size and
// SHA-256. Two fingerprints that differ mean the restore did not give back what was backed up.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** Runs one SQL statement; a Database's `query`, or a client inside the backup's snapshot transaction. */
export type QueryFn = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export type TableFingerprint = { rows: number; md5: string };
export type FileFingerprint = { size: number; sha256: string };

export type Fingerprint = {
  /** `schema.table` → rows and checksum, in name order. */
  tables: Record<string, TableFingerprint>;
  /** Path under the file store (forward slashes) → size and checksum; empty when files are in S3. */
  files: Record<string, FileFingerprint>;
};

/**
 * A row's text depends on these settings (timestamps on TimeZone, dates on DateStyle, floats on extra_float_digits);
 * fixed here so the same rows give the same checksum whatever the server's or the role's defaults.
 */
export const FINGERPRINT_SETTINGS = [
  "SET TimeZone = 'UTC'",
  "SET DateStyle = 'ISO, YMD'",
  "SET IntervalStyle = 'postgres'",
  'SET extra_float_digits = 1',
  "SET bytea_output = 'hex'",
];

// Ordinary tables outside the system schemas: ours (public), drizzle's migration record and pg-boss's queue.
const TABLES_SQL = `
  SELECT n.nspname AS schema, c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
     AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
   ORDER BY 1, 2`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables of the database and their checksums. Run inside one snapshot (or on a stopped server) to be exact. */
export async function fingerprintTables(query: QueryFn): Promise<Record<string, TableFingerprint>> {
  for (const statement of FINGERPRINT_SETTINGS) await query(statement);
  const tables = await query<{ schema: string; name: string }>(TABLES_SQL);
  const result: Record<string, TableFingerprint> = {};
  for (const { schema, name } of tables) {
    // md5 of each row's text, then md5 of those in sorted order: stable without a primary key, and 32 bytes a row in
    // memory rather than the whole table's text. The alias is unlikely to be a column name (a column would win).
    const [row] = await query<{ rows: string | number; md5: string | null }>(
      `SELECT count(*)::bigint AS rows,
              md5(string_agg(md5(fingerprint_row::text), '' ORDER BY md5(fingerprint_row::text))) AS md5
         FROM ${quoteIdent(schema)}.${quoteIdent(name)} AS fingerprint_row`,
    );
    result[`${schema}.${name}`] = { rows: Number(row?.rows ?? 0), md5: row?.md5 ?? '' };
  }
  return result;
}

/** In-flight writes of the disk store (local-storage.ts writes `<key>.<12 hex>.tmp`, then renames it into place). */
const IN_FLIGHT_FILE = /\.[0-9a-f]{12}\.tmp$/;

/** Every stored file under `root` (absent root: none), skipping in-flight temporary files and anything not a file. */
export async function fingerprintFiles(root: string): Promise<Record<string, FileFingerprint>> {
  const result: Record<string, FileFingerprint> = {};
  if (!fs.existsSync(root)) return result;
  const entries = await fsp.readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && !IN_FLIGHT_FILE.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  for (const relative of files) {
    result[relative] = await hashFile(path.join(root, relative));
  }
  return result;
}

export async function hashFile(file: string): Promise<FileFingerprint> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { size, sha256: hash.digest('hex') };
}

/** Lines naming each difference (`table public.users: 12 rows, expected 13`); empty when the two match. */
export function compareFingerprints(expected: Fingerprint, actual: Fingerprint): string[] {
  const differences: string[] = [];
  const compare = <V extends object>(
    kind: string,
    want: Record<string, V>,
    got: Record<string, V>,
    describe: (v: V) => string,
  ) => {
    for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
      const a = want[key];
      const b = got[key];
      if (!a) differences.push(`${kind} ${key}: not in the backup`);
      else if (!b) differences.push(`${kind} ${key}: missing after restore`);
      else if (describe(a) !== describe(b)) differences.push(`${kind} ${key}: ${describe(b)}, expected ${describe(a)}`);
    }
  };
  compare('table', expected.tables, actual.tables, (t) => `${t.rows} rows (md5 ${t.md5})`);
  compare('file', expected.files, actual.files, (f) => `${f.size} bytes (sha256 ${f.sha256})`);
  return differences;
}

/** Totals for the summary line. */
export function totalsOf(fingerprint: Fingerprint) {
  const tables = Object.values(fingerprint.tables);
  const files = Object.values(fingerprint.files);
  return {
    tables: tables.length,
    rows: tables.reduce((n, t) => n + t.rows, 0),
    files: files.length,
    fileBytes: files.reduce((n, f) => n + f.size, 0),
  };
}
