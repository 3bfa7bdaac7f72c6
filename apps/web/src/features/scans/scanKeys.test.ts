// The query key of a map cluster's scans holds a short key per ids array, never the array (100,000 ids would be
// hashed on every render of the modal).
import { describe, expect, it } from 'vitest';
import { idSetKey, scanKeys } from './scans.api.ts';

describe('scanKeys.byIds', () => {
  it('keys one ids array by a short, stable key and another array by another', () => {
    const cluster = Array.from({ length: 100_000 }, (_, i) => i + 1);
    const key = scanKeys.byIds(cluster, { page: 2, limit: 10 });
    expect(JSON.stringify(key).length).toBeLessThan(100);
    expect(scanKeys.byIds(cluster, { page: 3, limit: 10 })[3]).toBe(key[3]);
    expect(idSetKey(cluster)).toBe(key[3]);
    expect(idSetKey([...cluster])).not.toBe(key[3]);
    expect(key.slice(0, 3)).toEqual([...scanKeys.lists(), 'ids']);
  });
});
