// `npm run backup -- --out FILE`: the database (pg_dump, or the embedded database's data directory) and the disk
// store's files in one gzip-compressed tar, with a manifest whose fingerprint `restore` checks the result against.
// PostgreSQL is dumped and fingerprinted from one exported snapshot while the servers run; the embedded database only
// while its server is stopped (one process at a time can open it).
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import pg from 'pg';
import * as tar from 'tar';
import { DatabaseInUseError, openPglite } from '../db/client.ts';
import {
  BackupError,
  connectionForTool,
  DUMP_FILE,
  FILES_DIR,
  findPgTool,
  FORMAT_NAME,
  FORMAT_VERSION,
  MANIFEST_FILE,
  migrationHead,
  runTool,
  serverVersion,
  type ArchiveConfig,
  type Manifest,
} from './archive.ts';
import { fingerprintFiles, fingerprintTables, hashFile, totalsOf, type QueryFn } from './fingerprint.ts';

export type BackupSummary = ReturnType<typeof totalsOf> & {
  file: string;
  bytes: number;
  seconds: number;
  engine: Manifest['engine'];
  filesStore: Manifest['files']['store'];
};

type DatabaseDump = Pick<Manifest, 'engine' | 'server_version' | 'pg_dump_version' | 'migrations'> & {
  tables: Manifest['fingerprint']['tables'];
};

export async function createBackup(config: ArchiveConfig, out: string): Promise<BackupSummary> {
  const started = performance.now();
  const target = path.resolve(out);
  if (fs.existsSync(target)) throw new BackupError(`${target} already exists: give --out a new file name.`);
  if (!fs.existsSync(path.dirname(target))) throw new BackupError(`The folder ${path.dirname(target)} does not exist.`);

  const staging = fs.mkdtempSync(path.join(path.dirname(target), '.sc-backup-'));
  const partial = `${target}.partial`;
  try {
    const engine = config.isEmbedded ? 'pglite' : 'postgres';
    const dumpFile = path.join(staging, DUMP_FILE[engine]);
    const dump = config.DATABASE_URL
      ? await dumpPostgres(config.DATABASE_URL, dumpFile, config.PG_BIN_DIR)
      : await dumpPglite(config.dataDir, dumpFile);

    // Files after the database: a file uploaded meanwhile is one more file (harmless); the store never rewrites a key.
    const inS3 = Boolean(config.S3_ENDPOINT && config.S3_BUCKET);
    const filesRoot = path.join(config.dataDir, 'files');
    const files = inS3 ? {} : await fingerprintFiles(filesRoot);
    const manifest: Manifest = {
      format: FORMAT_NAME,
      format_version: FORMAT_VERSION,
      created_at: new Date().toISOString(),
      engine: dump.engine,
      server_version: dump.server_version,
      pg_dump_version: dump.pg_dump_version,
      migrations: dump.migrations,
      database: { file: DUMP_FILE[engine], ...(await hashFile(dumpFile)) },
      files: inS3
        ? {
            store: 's3',
            note: `Files are in S3 (bucket ${config.S3_BUCKET}) and not in this backup: keep them with the bucket's versioning or replication.`,
          }
        : { store: 'disk' },
      fingerprint: { tables: dump.tables, files },
    };
    fs.writeFileSync(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    // The store's files are packed from where they are (a link in the staging folder), not copied first.
    if (!inS3 && fs.existsSync(filesRoot)) fs.symlinkSync(filesRoot, path.join(staging, FILES_DIR));
    const entries = [MANIFEST_FILE, DUMP_FILE[engine], ...Object.keys(files).map((f) => `${FILES_DIR}/${f}`)];
    try {
      // Level 1: most of the bytes are compressed already (pg_dump's custom format, images, PDFs); on the embedded
      // database's directory it is 2.5 times faster than the default level for a file 18 % larger.
      // Mode 0600: the file holds patients' records and password hashes (umask may narrow it further, never widen).
      await tar.c({ gzip: { level: 1 }, file: partial, mode: 0o600, cwd: staging, portable: true, strict: true }, entries);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new BackupError(`A file was deleted while the backup ran (${(error as Error).message}): run it again.`);
      }
      throw error;
    }
    fs.renameSync(partial, target);
    return {
      ...totalsOf(manifest.fingerprint),
      file: target,
      bytes: fs.statSync(target).size,
      seconds: (performance.now() - started) / 1000,
      engine,
      filesStore: manifest.files.store,
    };
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * pg_dump and the fingerprint read the same snapshot: this transaction exports it, pg_dump --snapshot imports it,
 * and the transaction stays open until pg_dump is done, so the manifest describes exactly what was dumped while the
 * API keeps writing.
 */
async function dumpPostgres(url: string, file: string, binDir: string | undefined): Promise<DatabaseDump> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    const query: QueryFn = async <T,>(text: string, params?: unknown[]) =>
      (await client.query(text, params)).rows as T[];
    const version = await serverVersion(query);
    const pgDump = await findPgTool('pg_dump', version.major, binDir);
    await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const [snapshot] = await query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    const tool = connectionForTool(url);
    const dumped = runTool(
      pgDump.path,
      ['--format=custom', `--snapshot=${snapshot?.id}`, `--file=${file}`, `--dbname=${tool.url}`],
      tool.env,
    );
    // Both read the same snapshot; the fingerprint runs while pg_dump writes.
    const fingerprinted = (async () => ({ tables: await fingerprintTables(query), migrations: await migrationHead(query) }))();
    const [{ tables, migrations }] = await Promise.all([fingerprinted, dumped]);
    await query('COMMIT');
    return {
      engine: 'postgres',
      server_version: version.text,
      pg_dump_version: pgDump.version,
      migrations,
      tables,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The embedded database, opened here (refused while a server holds it), fingerprinted and dumped whole. */
async function dumpPglite(dataDir: string, file: string): Promise<DatabaseDump> {
  if (!fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))) {
    throw new BackupError(`There is no embedded database in DATA_DIR=${dataDir} (no pgdata): check DATA_DIR.`);
  }
  let database;
  try {
    database = await openPglite(dataDir);
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      throw new BackupError(
        `The server (process ${error.pid}) is using the embedded database in ${dataDir}: stop the server first ` +
          `(an embedded database can be backed up only while its server is stopped).`,
      );
    }
    throw error;
  }
  try {
    const tables = await fingerprintTables(database.query);
    const migrations = await migrationHead(database.query);
    const version = await serverVersion(database.query);
    // dumpDataDir holds the whole directory in memory (PGlite's own API): about the size of DATA_DIR/pgdata.
    const dump = await database.pglite!.dumpDataDir('none');
    await pipeline(Readable.fromWeb(dump.stream() as NodeReadableStream<Uint8Array>), fs.createWriteStream(file));
    return { engine: 'pglite', server_version: version.text, pg_dump_version: null, migrations, tables };
  } finally {
    await database.close();
  }
}
