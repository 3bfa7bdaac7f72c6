// Map points (part 2 §2.7 Map, §3 Map point, §9): the packed answer of `GET scan/lat-long/`. Kept apart from
// scans.ts (zod schemas) so the map's clustering worker can read it without loading zod; scans.ts re-exports it.

/**
 * `GET scan/lat-long/?<the list's filters>` answers `application/octet-stream`: every matching scan with
 * coordinates as a 12-byte little-endian record — int32 id, float32 latitude, float32 longitude — one after the
 * other, no header (count = byteLength / 12). Scans without coordinates are left out. Read it with decodeScanPoints
 * and cluster it with supercluster in a worker (the web map reads the stream as it arrives).
 */
export const SCAN_POINT_BYTES = 12;
export const SCAN_POINTS_CONTENT_TYPE = 'application/octet-stream';
export type TScanPoints = { count: number; ids: Int32Array; lat: Float32Array; lng: Float32Array };

/**
 * Splits the packed records into three arrays (one pass; works on any platform's byte order). Bytes after the last
 * whole record are left out: a stream reader keeps them for the next chunk.
 */
export function decodeScanPoints(buffer: ArrayBuffer): TScanPoints {
  const count = Math.floor(buffer.byteLength / SCAN_POINT_BYTES);
  const view = new DataView(buffer);
  const ids = new Int32Array(count);
  const lat = new Float32Array(count);
  const lng = new Float32Array(count);
  for (let i = 0, o = 0; i < count; i++, o += SCAN_POINT_BYTES) {
    ids[i] = view.getInt32(o, true);
    lat[i] = view.getFloat32(o + 4, true);
    lng[i] = view.getFloat32(o + 8, true);
  }
  return { count, ids, lat, lng };
}

/** Packs points the same way (the API's encoder, tests). */
export function encodeScanPoints(
  points: readonly { id: number; latitude: number; longitude: number }[],
): Uint8Array {
  const out = new Uint8Array(points.length * SCAN_POINT_BYTES);
  const view = new DataView(out.buffer);
  points.forEach((p, i) => {
    const o = i * SCAN_POINT_BYTES;
    view.setInt32(o, p.id, true);
    view.setFloat32(o + 4, p.latitude, true);
    view.setFloat32(o + 8, p.longitude, true);
  });
  return out;
}
