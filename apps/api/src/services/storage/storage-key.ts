// Storage keys are relative paths of plain segments ('companylogo/3f9a…_1764000000000_logo.png'). Anything
// else (absolute paths, '..', backslashes, control characters) is refused before a store is touched.
import { FILE_PATH_MAX } from '@sc/shared/files';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
export const STORAGE_KEY_MAX = FILE_PATH_MAX;

/** True for a key made of 1–10 segments of letters, digits, '.', '_' and '-', none starting with a dot. */
export function isSafeStorageKey(key: string): boolean {
  if (key.length === 0 || key.length > STORAGE_KEY_MAX) return false;
  const segments = key.split('/');
  return segments.length <= 10 && segments.every((s) => SEGMENT.test(s));
}

/** Throws unless `key` is safe: stores call this so that no caller can reach outside their root. */
export function assertSafeStorageKey(key: string): void {
  if (!isSafeStorageKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key.slice(0, 100))}`);
}

/**
 * A stored file name from an uploaded one: ASCII letters, digits, '.', '_' and '-', at most 80 characters,
 * with `extension` (the one of the detected type) in place of whatever the client called it.
 */
export function sanitizeFileName(original: string | undefined, extension: string): string {
  const base = (original ?? '').split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.[^.]*$/, '');
  const clean = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 80);
  return `${clean || 'file'}.${extension}`;
}
