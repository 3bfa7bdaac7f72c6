// `npm run restore -- FILE`: into an empty target only (an empty PostgreSQL database, or a DATA_DIR without pgdata
// or files), from a file checked whole before anything is written (manifest, format version, engine, checksums of the
// dump and of every file), and checked again after: the restored database and files must give the manifest's
// fingerprint, or the restore fails loudly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  migrationTags,
  runTool,
  serverVersion,
  ZManifest,
  type ArchiveConfig,
  type Manifest,
} from './archive.ts';
import {
  compareFingerprints,
  fingerprintFiles,
  fingerprintTables,
  hashFile,
  totalsOf,
  type Fingerprint,
  type QueryFn,
} from './fingerprint.ts';

export type RestoreSummary = ReturnType<typeof totalsOf> & {
  seconds: number;
  engine: Manifest['engine'];
  createdAt: string;
  /** Set when the backup's files are in S3 (not in the file). */
  filesNote?: string;
};

const ENGINE_NAME = { pglite: 'embedded PGlite', postgres: 'PostgreSQL' } as const;

export async function restoreBackup(config: ArchiveConfig, file: string): Promise<RestoreSummary> {
  const started = performance.now();
  const source = path.resolve(file);
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw new BackupError(`${source} is not a file.`);
  const engine = config.isEmbedded ? 'pglite' : 'postgres';
  const inS3 = Boolean(config.S3_ENDPOINT && config.S3_BUCKET);
  const filesRoot = path.join(config.dataDir, 'files');

  // The target first: refusing it costs nothing, unpacking a large file does.
  if (config.DATABASE_URL) await assertEmptyPostgres(config.DATABASE_URL);
  else assertEmptyPglite(config.dataDir);
  if (!inS3 && !isEmptyDir(filesRoot)) {
    throw new BackupError(`${filesRoot} already holds files: restore only into an empty DATA_DIR.`);
  }

  // Unpacked next to where the files go (DATA_DIR: room for them, and a rename puts them in place), else in TMPDIR.
  const stagingParent = inS3 ? os.tmpdir() : config.dataDir;
  fs.mkdirSync(stagingParent, { recursive: true });
  const staging = fs.mkdtempSync(path.join(stagingParent, '.sc-restore-'));
  try {
    const manifest = await unpackAndCheck(source, staging, engine);
    if (manifest.files.store === 'disk' && inS3 && Object.keys(manifest.fingerprint.files).length > 0) {
      throw new BackupError(
        'This backup holds files of the disk store, and S3 is configured (S3_ENDPOINT): restore without S3 settings, then copy the files to the bucket.',
      );
    }

    const dump = path.join(staging, manifest.database.file);
    const tables =
      engine === 'postgres'
        ? await restorePostgres(config.DATABASE_URL!, dump, manifest, config.PG_BIN_DIR)
        : await restorePglite(config.dataDir, dump);
    if (manifest.files.store === 'disk') moveFiles(path.join(staging, FILES_DIR), filesRoot);

    const restored: Fingerprint = { tables, files: manifest.files.store === 'disk' ? await fingerprintFiles(filesRoot) : {} };
    const differences = compareFingerprints(manifest.fingerprint, restored);
    if (differences.length) {
      const shown = differences.slice(0, 5).join('; ') + (differences.length > 5 ? `; and ${differences.length - 5} more` : '');
      throw new BackupError(
        `The restore does NOT match the backup's fingerprint (${shown}). Do not use this target: empty it before trying again.`,
      );
    }
    return {
      ...totalsOf(restored),
      seconds: (performance.now() - started) / 1000,
      engine,
      createdAt: manifest.created_at,
      ...(manifest.files.note ? { filesNote: manifest.files.note } : {}),
    };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

function assertEmptyPglite(dataDir: string): void {
  const lockFile = path.join(dataDir, 'pgdata.lock');
  if (fs.existsSync(lockFile)) {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    if (pid && isAlive(pid)) {
      throw new BackupError(`A server (process ${pid}) is using DATA_DIR=${dataDir}: stop the server first.`);
    }
  }
  if (!isEmptyDir(path.join(dataDir, 'pgdata'))) {
    throw new BackupError(`DATA_DIR=${dataDir} already holds a database (pgdata): restore only into an empty DATA_DIR.`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new BackupError(`Cannot connect to DATABASE_URL: ${(error as Error).message}`);
  }
  return client;
}

const queryOf =
  (client: pg.Client): QueryFn =>
  async <T,>(text: string, params?: unknown[]) =>
    (await client.query(text, params)).rows as T[];

async function assertEmptyPostgres(url: string): Promise<void> {
  const client = await connect(url);
  try {
    const rows = await queryOf(client)<{ name: string }>(
      `SELECT n.nspname || '.' || c.relname AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
        ORDER BY 1 LIMIT 3`,
    );
    if (rows.length) {
      throw new BackupError(
        `The target database already holds tables (${rows.map((r) => r.name).join(', ')}…): restore only into an empty database (createdb a new one for DATABASE_URL).`,
      );
    }
  } finally {
    await client.end();
  }
}

/** Unpacks the file into `staging` and checks it whole: a backup, a format this code reads, every checksum right. */
async function unpackAndCheck(source: string, staging: string, engine: Manifest['engine']): Promise<Manifest> {
  const notABackup = `${source} is not a Screening Console backup`;
  const head = Buffer.alloc(2);
  const fd = fs.openSync(source, 'r');
  fs.readSync(fd, head, 0, 2, 0);
  fs.closeSync(fd);
  if (head[0] !== 0x1f || head[1] !== 0x8b) throw new BackupError(`${notABackup} (not a gzip-compressed tar).`);
  try {
    await tar.x({
      file: source,
      cwd: staging,
      strict: true,
      // Only what a backup holds, and only plain files and folders (no links, devices, absolute or `..` paths).
      filter: (entry, stat) =>
        ('type' in stat ? ['File', 'OldFile', 'Directory'].includes(String(stat.type)) : true) &&
        (entry === MANIFEST_FILE || Object.values(DUMP_FILE).includes(entry as never) || entry.startsWith(`${FILES_DIR}/`)),
    });
  } catch (error) {
    throw new BackupError(`${notABackup}, or it is damaged or truncated (${(error as Error).message}).`);
  }
  const manifestPath = path.join(staging, MANIFEST_FILE);
  if (!fs.existsSync(manifestPath)) throw new BackupError(`${notABackup} (it has no ${MANIFEST_FILE}).`);
  let raw: { format?: unknown; format_version?: unknown };
  try {
    raw = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as typeof raw;
  } catch {
    throw new BackupError(`${notABackup} (its ${MANIFEST_FILE} is not JSON).`);
  }
  if (raw.format !== FORMAT_NAME) throw new BackupError(`${notABackup} (its manifest names another format).`);
  if (typeof raw.format_version === 'number' && raw.format_version > FORMAT_VERSION) {
    throw new BackupError(
      `This backup is in format ${raw.format_version}, newer than this version reads (${FORMAT_VERSION}): restore it with the version of the app that made it, or newer.`,
    );
  }
  const parsed = ZManifest.safeParse(raw);
  if (!parsed.success) throw new BackupError(`${notABackup} (its manifest is incomplete: ${parsed.error.issues[0]?.path.join('.')}).`);
  const manifest = parsed.data;
  // Cross-engine restore is not offered: a PGlite data directory and a pg_dump archive are each their engine's own.
  if (manifest.engine !== engine) {
    throw new BackupError(
      `This backup is of ${ENGINE_NAME[manifest.engine]}, and the target is ${ENGINE_NAME[engine]}: restore it into ` +
        (manifest.engine === 'postgres' ? 'an empty PostgreSQL database (DATABASE_URL).' : 'an empty DATA_DIR without DATABASE_URL.'),
    );
  }
  const known = migrationTags().length;
  if (manifest.migrations.applied > known) {
    throw new BackupError(
      `This backup's database has ${manifest.migrations.applied} migrations (${manifest.migrations.head}), more than this version of the app knows (${known}): restore it with a newer version.`,
    );
  }

  const dump = path.join(staging, manifest.database.file);
  if (!fs.existsSync(dump)) throw new BackupError(`${source} is damaged: its database dump is missing.`);
  const dumpHash = await hashFile(dump);
  if (dumpHash.sha256 !== manifest.database.sha256 || dumpHash.size !== manifest.database.size) {
    throw new BackupError(`${source} is damaged: its database dump does not match the manifest's checksum.`);
  }
  if (manifest.files.store === 'disk') {
    const files = await fingerprintFiles(path.join(staging, FILES_DIR));
    const differences = compareFingerprints({ tables: {}, files: manifest.fingerprint.files }, { tables: {}, files });
    if (differences.length) throw new BackupError(`${source} is damaged: ${differences.slice(0, 3).join('; ')}.`);
  }
  return manifest;
}

async function restorePglite(dataDir: string, dump: string): Promise<Fingerprint['tables']> {
  let database;
  try {
    database = await openPglite(dataDir, { loadDataDir: await fs.openAsBlob(dump) });
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      throw new BackupError(`A server (process ${error.pid}) is using DATA_DIR=${dataDir}: stop the server first.`);
    }
    throw error;
  }
  try {
    return await fingerprintTables(database.query);
  } finally {
    await database.close();
  }
}

/** pg_restore in one transaction (all or nothing), owners and grants left to the target's role. */
async function restorePostgres(
  url: string,
  dump: string,
  manifest: Manifest,
  binDir: string | undefined,
): Promise<Fingerprint['tables']> {
  const client = await connect(url);
  try {
    const server = await serverVersion(queryOf(client));
    const dumpMajor = Number(manifest.pg_dump_version?.split('.')[0] ?? 0);
    const pgRestore = await findPgTool('pg_restore', Math.max(server.major, dumpMajor), binDir);
    const tool = connectionForTool(url);
    await runTool(
      pgRestore.path,
      ['--no-owner', '--no-acl', '--exit-on-error', '--single-transaction', `--dbname=${tool.url}`, dump],
      tool.env,
    );
    return await fingerprintTables(queryOf(client));
  } finally {
    await client.end();
  }
}

/** The verified files into DATA_DIR/files: renamed when on the same disk, else copied. */
function moveFiles(from: string, to: string): void {
  if (!fs.existsSync(from)) return;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if (fs.existsSync(to)) fs.rmdirSync(to); // empty (checked before): rmdir refuses anything else
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.cpSync(from, to, { recursive: true });
  }
}
