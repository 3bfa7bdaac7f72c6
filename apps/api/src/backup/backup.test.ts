// Backups (issue 25): a round trip per engine — a small database with uploaded files, backed up, restored into an
// empty target, gives the same fingerprint and the app on it answers the same lists and files — and every refusal:
// a non-empty target, a file that is not a backup, a truncated or damaged one, a newer format, the other engine, a
// running embedded server. The PGlite round trip goes through the CLI in a child process (exit codes, messages).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPglite, openPostgres, runMigrations, type Database } from '../db/client.ts';
import { createClock, type TestContext } from '../test/app.ts';
import { withDatabase } from '../test/global-setup.ts';
import { runCommand } from '../test/server-process.ts';
import { auth, createUser, signIn } from '../test/factories.ts';
import { PNG, setupUploader, uploadFile, uploadPatient } from '../modules/uploads/uploads.fixtures.ts';
import { FORMAT_VERSION, MANIFEST_FILE, type Manifest } from './archive.ts';
import { createBackup } from './backup.ts';
import { fingerprintTables, type QueryFn } from './fingerprint.ts';
import { restoreBackup } from './restore.ts';

const CLI = path.join(import.meta.dirname, 'cli.ts');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-backup-test-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const dir = (name: string) => path.join(root, name);

const PG_URL = process.env.TEST_DATABASE_URL;

function configFor(dataDir: string, databaseUrl?: string, env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SECRET_KEY: 'test-secret-key-0123456789',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
}

/** The store in S3: only its settings matter here (nothing is read from the bucket). */
const S3_ENV = { S3_ENDPOINT: 'http://127.0.0.1:9', S3_BUCKET: 'uploads', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };

/** The CLI as an operator runs it (`npm run backup`/`restore` run this file with these arguments). */
const cli = (args: string[], env: Record<string, string>) => runCommand(CLI, args, { NODE_ENV: 'test', ...env });

/** A migrated embedded database in `dataDir` (the test run's migrated snapshot when there is one). */
async function freshPglite(dataDir: string): Promise<Database> {
  const snapshot = PG_URL ? undefined : inject('pgliteSnapshot');
  const database = await openPglite(dataDir, snapshot ? { loadDataDir: new Blob([fs.readFileSync(snapshot)]) } : {});
  if (!snapshot) await runMigrations(database);
  return database;
}

async function withApp<T>(database: Database, dataDir: string, use: (t: TestContext) => Promise<T>): Promise<T> {
  const clock = createClock();
  const app = await buildApp({ config: configFor(dataDir), database, logger: false, now: clock.now });
  await app.ready();
  try {
    return await use({ app, database, clock });
  } finally {
    await app.close();
  }
}

type Seeded = { adminToken: string; technicianToken: string; paths: string[] };

/** An organization, its device and technician, an ADMIN, three patients, a report and a consent form on disk. */
async function seed(t: TestContext): Promise<Seeded> {
  const uploader = await setupUploader(t);
  const admin = await createUser(t, { userType: 'ADMIN', password: null });
  for (let i = 0; i < 3; i++) await uploadPatient(t, uploader);
  const paths = [
    await uploadFile(t, uploader.token, 'reports'),
    await uploadFile(t, uploader.token, 'consent_forms', { name: 'consent.png', data: PNG }),
  ];
  return { adminToken: await signIn(t, admin), technicianToken: uploader.token, paths };
}

/** What the app answers: the lists an ADMIN sees and the stored files' bytes (as checksums). */
async function readLists(t: TestContext, s: Seeded) {
  const get = async (url: string, token: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: auth(token) });
    const json = String(res.headers['content-type']).includes('json');
    return { status: res.statusCode, body: json ? res.json<unknown>() : null, sha256: sha256(res.rawPayload) };
  };
  return {
    organizations: await get('/api/v1/organization/?limit=1000', s.adminToken),
    patients: await get('/api/v1/patient/?limit=1000', s.adminToken),
    users: await get('/api/v1/user/?limit=1000', s.adminToken),
    files: await Promise.all(s.paths.map((p) => get(`/api/v1/file/?path=${encodeURIComponent(p)}`, s.technicianToken))),
  };
}

function pgQuery(client: pg.Client): QueryFn {
  return async <T,>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[];
}

/** The tables' fingerprint, read on one connection (the SET statements must reach the queries that follow). */
async function tablesOfPostgres(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fingerprintTables(pgQuery(client));
  } finally {
    await client.end();
  }
}

async function readManifest(file: string): Promise<Manifest> {
  const into = fs.mkdtempSync(path.join(root, 'manifest-'));
  await tar.x({ file, cwd: into, filter: (p) => p === MANIFEST_FILE });
  return JSON.parse(fs.readFileSync(path.join(into, MANIFEST_FILE), 'utf8')) as Manifest;
}

/** A small tar.gz of `entries` (name → content): crafted backups for the refusals. */
async function pack(name: string, entries: Record<string, string | Buffer>): Promise<string> {
  const from = fs.mkdtempSync(path.join(root, 'pack-'));
  for (const [entry, content] of Object.entries(entries)) {
    fs.mkdirSync(path.dirname(path.join(from, entry)), { recursive: true });
    fs.writeFileSync(path.join(from, entry), content);
  }
  const file = dir(name);
  await tar.c({ gzip: true, file, cwd: from }, Object.keys(entries));
  return file;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

describe('backup and restore of the embedded database (PGlite)', () => {
  const source = dir('pglite-source');
  const target = dir('pglite-target');
  const backupFile = dir('pglite.tar.gz');
  let seeded: Seeded;
  let before: Awaited<ReturnType<typeof readLists>>;
  let sourceTables: Awaited<ReturnType<typeof fingerprintTables>>;

  beforeAll(async () => {
    const database = await freshPglite(source);
    try {
      seeded = await withApp(database, source, seed);
      before = await withApp(database, source, (t) => readLists(t, seeded));
      sourceTables = await fingerprintTables(database.query);
    } finally {
      await database.close();
    }
  });

  // Two commands in child processes, each loading PGlite: about 20 s idle, three times that beside CI's journeys.
  it('backs up with the CLI, and restores into an empty DATA_DIR the same tables, rows and files', { timeout: 180_000 }, async () => {
    expect(before.patients.status).toBe(200);
    expect((before.patients.body as { count: number }).count).toBe(3);
    expect(before.files.map((f) => f.status)).toEqual([200, 200]);

    const backup = await cli(['backup', '--out', backupFile], { DATA_DIR: source });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written to .*pglite\.tar\.gz: .* tables, .* rows, 2 files/);

    // Only its owner may read it: it holds patients' records.
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    const manifest = await readManifest(backupFile);
    expect(manifest).toMatchObject({ format_version: FORMAT_VERSION, engine: 'pglite', files: { store: 'disk' } });
    expect(manifest.fingerprint.tables).toEqual(sourceTables);
    expect(Object.keys(manifest.fingerprint.files).sort()).toEqual([...seeded.paths].sort());

    const summary = await restoreBackup(configFor(target), backupFile);
    expect(summary).toMatchObject({ engine: 'pglite', files: 2, tables: Object.keys(sourceTables).length });
    expect(fs.readFileSync(path.join(target, 'files', seeded.paths[1]!))).toEqual(PNG);
  });

  it('gives a database on which the app answers the same lists and files as before the backup', async () => {
    const database = await openPglite(target);
    try {
      expect(await fingerprintTables(database.query)).toEqual(sourceTables);
      // The sessions came back with the rest: the same tokens work.
      expect(await withApp(database, target, (t) => readLists(t, seeded))).toEqual(before);
    } finally {
      await database.close();
    }
  });

  it('refuses a DATA_DIR that already holds a database or files', async () => {
    await expect(restoreBackup(configFor(target), backupFile)).rejects.toThrow(
      `DATA_DIR=${target} already holds a database (pgdata): restore only into an empty DATA_DIR.`,
    );

    const withFiles = dir('only-files');
    fs.mkdirSync(path.join(withFiles, 'files'), { recursive: true });
    fs.writeFileSync(path.join(withFiles, 'files', 'x.png'), PNG);
    await expect(restoreBackup(configFor(withFiles), backupFile)).rejects.toThrow(/files already holds files: restore only into an empty DATA_DIR/);
  });

  it('refuses to back up or restore while a server holds the DATA_DIR: stop the server first', async () => {
    // The lock file of a live process (this test's parent stands in for a running server).
    fs.writeFileSync(path.join(source, 'pgdata.lock'), String(process.ppid));
    try {
      await expect(createBackup(configFor(source), dir('locked.tar.gz'))).rejects.toThrow(/stop the server first/);
      expect(fs.existsSync(dir('locked.tar.gz'))).toBe(false);
    } finally {
      fs.rmSync(path.join(source, 'pgdata.lock'));
    }
    const empty = dir('locked-target');
    fs.mkdirSync(empty);
    fs.writeFileSync(path.join(empty, 'pgdata.lock'), String(process.ppid));
    await expect(restoreBackup(configFor(empty), backupFile)).rejects.toThrow(
      `A server (process ${process.ppid}) is using DATA_DIR=${empty}: stop the server first.`,
    );
  });

  it('leaves the files to S3 when S3 is configured, and says so in the manifest and after the restore', async () => {
    const file = dir('s3.tar.gz');
    const summary = await createBackup(configFor(source, undefined, S3_ENV), file);
    expect(summary).toMatchObject({ filesStore: 's3', files: 0 });
    const manifest = await readManifest(file);
    expect(manifest.files).toEqual({
      store: 's3',
      note: "Files are in S3 (bucket uploads) and not in this backup: keep them with the bucket's versioning or replication.",
    });
    expect(manifest.fingerprint.files).toEqual({});
    const restored = await restoreBackup(configFor(dir('s3-target'), undefined, S3_ENV), file);
    expect(restored).toMatchObject({ files: 0, filesNote: manifest.files.note });
    expect(fs.existsSync(path.join(dir('s3-target'), 'files'))).toBe(false);
  });

  it('refuses to overwrite an existing backup file, and a DATA_DIR with no database', async () => {
    await expect(createBackup(configFor(source), backupFile)).rejects.toThrow(/already exists: give --out a new file name/);
    await expect(createBackup(configFor(dir('nothing-here')), dir('none.tar.gz'))).rejects.toThrow(/There is no embedded database/);
  });

  it('refuses a file that is not a backup, truncated or damaged, of a newer format or of the other engine', async () => {
    const into = (name: string) => configFor(dir(name));
    const text = dir('notes.txt');
    fs.writeFileSync(text, 'not a backup\n');
    await expect(restoreBackup(into('t1'), text)).rejects.toThrow(/notes\.txt is not a Screening Console backup \(not a gzip-compressed tar\)/);

    const truncated = dir('truncated.tar.gz');
    const whole = fs.readFileSync(backupFile);
    fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(restoreBackup(into('t2'), truncated)).rejects.toThrow(/damaged or truncated/);
    expect(fs.existsSync(path.join(dir('t2'), 'pgdata'))).toBe(false);

    const manifest = await readManifest(backupFile);
    const noManifest = await pack('no-manifest.tar.gz', { 'readme.txt': 'hello' });
    await expect(restoreBackup(into('t3'), noManifest)).rejects.toThrow(/not a Screening Console backup \(it has no manifest\.json\)/);

    const newer = await pack('newer.tar.gz', { [MANIFEST_FILE]: JSON.stringify({ ...manifest, format_version: FORMAT_VERSION + 1 }) });
    await expect(restoreBackup(into('t4'), newer)).rejects.toThrow(`This backup is in format ${FORMAT_VERSION + 1}, newer than this version reads`);

    const otherEngine = await pack('other-engine.tar.gz', { [MANIFEST_FILE]: JSON.stringify({ ...manifest, engine: 'postgres' }) });
    await expect(restoreBackup(into('t5'), otherEngine)).rejects.toThrow(
      'This backup is of PostgreSQL, and the target is embedded PGlite: restore it into an empty PostgreSQL database (DATABASE_URL).',
    );

    // A stored file changed inside the archive: its checksum no longer matches the manifest's.
    const dump = Buffer.from('dump');
    const damaged = await pack('damaged.tar.gz', {
      [MANIFEST_FILE]: JSON.stringify({ ...manifest, database: { file: 'pgdata.tar', size: dump.length, sha256: sha256(dump) } }),
      'pgdata.tar': dump,
      [`files/${seeded.paths[1]}`]: Buffer.from('not the PNG'),
      [`files/${seeded.paths[0]}`]: fs.readFileSync(path.join(target, 'files', seeded.paths[0]!)),
    });
    await expect(restoreBackup(into('t6'), damaged)).rejects.toThrow(new RegExp(`damaged\\.tar\\.gz is damaged: file ${seeded.paths[1]}: 11 bytes`));
    for (const name of ['t1', 't2', 't3', 't4', 't5', 't6']) expect(fs.existsSync(path.join(dir(name), 'pgdata'))).toBe(false);
  });

  it('tells a wrong command line apart (exit code 2) from a refused file (exit code 1, one line)', async () => {
    const text = dir('cli.txt');
    fs.writeFileSync(text, 'hello');
    const [usage, refused] = await Promise.all([
      cli(['restore'], { DATA_DIR: dir('cli') }),
      cli(['restore', text], { DATA_DIR: dir('cli') }),
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^Usage: npm run backup -- --out FILE/);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`${text} is not a Screening Console backup (not a gzip-compressed tar).\n`);
  });
});

describe.runIf(PG_URL)('backup and restore of PostgreSQL (pg_dump from one snapshot, pg_restore in one transaction)', () => {
  const names = { source: `sc_bk_src_${process.pid}`, target: `sc_bk_dst_${process.pid}` };
  const url = (name: string) => withDatabase(PG_URL!, name);
  const sourceDir = dir('pg-source');
  const targetDir = dir('pg-target');
  const backupFile = dir('postgres.tar.gz');
  let admin: pg.Client;
  let seeded: Seeded;
  let before: Awaited<ReturnType<typeof readLists>>;
  let sourceTables: Awaited<ReturnType<typeof fingerprintTables>>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${names.source} TEMPLATE ${inject('pgTemplate')}`);
    await admin.query(`CREATE DATABASE ${names.target}`);
    const database = openPostgres(url(names.source));
    try {
      seeded = await withApp(database, sourceDir, seed);
      before = await withApp(database, sourceDir, (t) => readLists(t, seeded));
    } finally {
      await database.close();
    }
    sourceTables = await tablesOfPostgres(url(names.source));
  });

  afterAll(async () => {
    for (const name of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('refuses a PGlite backup for a PostgreSQL target', async () => {
    const crafted = await pack('pglite-for-pg.tar.gz', {
      [MANIFEST_FILE]: JSON.stringify({
        format: 'screening-console-backup',
        format_version: FORMAT_VERSION,
        created_at: new Date().toISOString(),
        engine: 'pglite',
        server_version: '17.5',
        pg_dump_version: null,
        migrations: { applied: 1, head: null },
        database: { file: 'pgdata.tar', size: 0, sha256: sha256('') },
        files: { store: 'disk' },
        fingerprint: { tables: {}, files: {} },
      }),
    });
    await expect(restoreBackup(configFor(targetDir, url(names.target)), crafted)).rejects.toThrow(
      'This backup is of embedded PGlite, and the target is PostgreSQL: restore it into an empty DATA_DIR without DATABASE_URL.',
    );
  });

  it('backs up while rows are being written, and restores into an empty database the snapshot it fingerprinted', async () => {
    // A writer adds languages for as long as the backup runs: the dump and the fingerprint must see the same rows.
    const writer = openPostgres(url(names.source));
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        await writer.query('INSERT INTO languages (name, iso_code) VALUES ($1, $2)', [`Language ${written}`, `x${written}`]);
        written++;
      }
    })();
    let summary;
    try {
      summary = await createBackup(configFor(sourceDir, url(names.source)), backupFile);
    } finally {
      writing = false;
      await writes;
      await writer.close();
    }
    expect(written).toBeGreaterThan(0);
    expect(summary).toMatchObject({ engine: 'postgres', files: 2, filesStore: 'disk' });
    const manifest = await readManifest(backupFile);
    const { 'public.languages': languages, ...others } = manifest.fingerprint.tables;
    const { 'public.languages': languagesBefore, ...othersBefore } = sourceTables;
    expect(others).toEqual(othersBefore);
    expect(languages!.rows).toBeGreaterThanOrEqual(languagesBefore!.rows);
    expect(languages!.rows).toBeLessThanOrEqual(languagesBefore!.rows + written);
    expect(manifest.pg_dump_version).toMatch(/^\d+/);

    const restored = await restoreBackup(configFor(targetDir, url(names.target)), backupFile);
    expect(restored).toMatchObject({ engine: 'postgres', files: 2, rows: summary.rows });
    expect(await tablesOfPostgres(url(names.target))).toEqual(manifest.fingerprint.tables);
  });

  it('gives a database on which the app answers the same lists and files as before the backup', async () => {
    const database = openPostgres(url(names.target));
    try {
      expect(await withApp(database, targetDir, (t) => readLists(t, seeded))).toEqual(before);
    } finally {
      await database.close();
    }
  });

  it('refuses a database that already holds tables, and a PostgreSQL backup for an embedded target', async () => {
    await expect(restoreBackup(configFor(dir('pg-again'), url(names.target)), backupFile)).rejects.toThrow(
      /^The target database already holds tables \(drizzle\.__drizzle_migrations, .*restore only into an empty database/,
    );
    await expect(restoreBackup(configFor(dir('pg-into-pglite')), backupFile)).rejects.toThrow(
      'This backup is of PostgreSQL, and the target is embedded PGlite: restore it into an empty PostgreSQL database (DATABASE_URL).',
    );
  });
});
