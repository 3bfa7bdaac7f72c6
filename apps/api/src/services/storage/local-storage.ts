// Local-disk store under one root (DATA_DIR/files). Writes go to a temporary file first and are renamed into
// place, so a reader never sees half a file. Every key is checked and resolved inside the root.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { FILE_KIND_CONTENT_TYPES, FILE_KIND_EXTENSIONS, type TFileKind } from '@sc/shared/files';
import { assertSafeStorageKey } from './storage-key.ts';
import { StorageFullError, type Storage } from './storage.ts';

// Codes of a write the disk refuses whatever is written: full, over quota, read-only. ENOENT while writing means a
// folder could not be made or vanished (the store's root is gone or not mounted).
const UNWRITABLE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'ENOENT']);

const CONTENT_TYPE_BY_EXTENSION = new Map<string, string>(
  (Object.keys(FILE_KIND_EXTENSIONS) as TFileKind[]).map((k) => [
    FILE_KIND_EXTENSIONS[k],
    FILE_KIND_CONTENT_TYPES[k],
  ]),
);
CONTENT_TYPE_BY_EXTENSION.set('jpeg', 'image/jpeg');

/** Disk has no metadata: the content type follows the extension, which uploads set from the detected type. */
export function contentTypeOfKey(key: string): string {
  const ext = path.extname(key).slice(1).toLowerCase();
  return CONTENT_TYPE_BY_EXTENSION.get(ext) ?? 'application/octet-stream';
}

export function createLocalStorage(root: string): Storage {
  const absoluteRoot = path.resolve(root);

  function resolve(key: string): string {
    assertSafeStorageKey(key);
    const full = path.resolve(absoluteRoot, key);
    // Belt and braces: a safe key cannot leave the root, but never trust one check for this.
    if (!full.startsWith(absoluteRoot + path.sep)) throw new Error('Storage key resolves outside the root.');
    return full;
  }

  return {
    kind: 'local',
    async put(key, data) {
      const full = resolve(key);
      const temp = `${full}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fsp.mkdir(path.dirname(full), { recursive: true });
        await fsp.writeFile(temp, data, { flag: 'wx' });
        await fsp.rename(temp, full);
      } catch (err) {
        await fsp.rm(temp, { force: true }).catch(() => undefined);
        throw UNWRITABLE_CODES.has((err as NodeJS.ErrnoException).code ?? '') ? new StorageFullError(err) : err;
      }
    },
    async get(key) {
      const full = resolve(key);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(full, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      return { body: handle.createReadStream(), contentType: contentTypeOfKey(key), size: stat.size };
    },
    async delete(key) {
      await fsp.rm(resolve(key), { force: true });
    },
    async isReachable() {
      try {
        // A fresh install has no root until the first write, which makes it (as put does): make it now.
        await fsp.mkdir(absoluteRoot, { recursive: true });
        await fsp.access(absoluteRoot, fs.constants.W_OK);
        return (await fsp.stat(absoluteRoot)).isDirectory();
      } catch {
        return false;
      }
    },
  };
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
