// `npm run backup -- --out FILE` and `npm run restore -- FILE`, on the configured database (DATABASE_URL, or the
// embedded one under DATA_DIR) and the disk store under DATA_DIR/files. A failure the operator can act on prints one
// line and exits with code 1; a wrong command line exits with 2.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { BackupError, formatBytes } from './archive.ts';
import { createBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';

const USAGE = 'Usage: npm run backup -- --out FILE   |   npm run restore -- FILE';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { out: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const config = loadConfig();
  if (command === 'backup' && values.out && positionals.length === 0) {
    const s = await createBackup(config, values.out);
    console.log(
      `Backup written to ${s.file}: ${formatBytes(s.bytes)}, ${s.tables} tables, ${s.rows.toLocaleString('en')} rows, ` +
        `${s.files} files (${formatBytes(s.fileBytes)}), in ${s.seconds.toFixed(1)} s.`,
    );
    if (s.filesStore === 's3') console.log('Files are in S3 and not in this backup: keep them with the bucket\'s versioning or replication.');
    return 0;
  }
  if (command === 'restore' && positionals.length === 1 && !values.out) {
    const s = await restoreBackup(config, positionals[0]!);
    console.log(
      `Restored the backup of ${s.createdAt} into ${config.isEmbedded ? `DATA_DIR=${config.dataDir}` : 'DATABASE_URL'}: ` +
        `${s.tables} tables, ${s.rows.toLocaleString('en')} rows, ${s.files} files (${formatBytes(s.fileBytes)}), ` +
        `fingerprint matches, in ${s.seconds.toFixed(1)} s.`,
    );
    if (s.filesNote) console.log(s.filesNote);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
