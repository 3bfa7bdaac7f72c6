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

// ---- The map's first picture (issue 24): `GET scan/lat-long/cells/` ------------------------------------------------

/**
 * The console's scan map draws its first picture from the points counted into cells of SCAN_CELL_DEGREES of latitude
 * and longitude (0.5°: 1.4 px at the initial zoom 2, 5.7 px at zoom 4), then swaps to the points when they have
 * arrived. A cell's key is its row (from 90° S) times SCAN_CELL_COLUMNS plus its column (from 180° W); the API and
 * the web both key a float32 point with scanCellKey, so a cell's scans are the same on both sides.
 */
export const SCAN_CELL_DEGREES = 0.5;
export const SCAN_CELL_COLUMNS = 360 / SCAN_CELL_DEGREES;
const SCAN_CELL_ROWS = 180 / SCAN_CELL_DEGREES;
/** Cell keys run from 0 to SCAN_CELL_KEYS - 1. */
export const SCAN_CELL_KEYS = SCAN_CELL_COLUMNS * SCAN_CELL_ROWS;
/** The first picture's zooms: deeper ones wait for the points. */
export const SCAN_CELLS_MAX_ZOOM = 4;

/**
 * `GET scan/lat-long/cells/?<the points' filters>` answers `application/octet-stream`: a 20-byte little-endian record
 * a cell holding scans, in key order — int32 key, int32 scans, float32 mean latitude, float32 mean longitude, int32
 * the id of one of its scans (the only one when it holds one) — no header. The scans are those `GET scan/lat-long/`
 * answers for the same query, points off the globe left out.
 */
export const SCAN_CELL_BYTES = 20;

/** Points with coordinates on the globe; the map leaves others out (and the cells do not count them). */
export const isOnGlobe = (lat: number, lng: number): boolean =>
  Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** The key of the cell of a point on the globe. */
export function scanCellKey(lat: number, lng: number): number {
  const column = Math.min(SCAN_CELL_COLUMNS - 1, Math.floor((lng + 180) / SCAN_CELL_DEGREES));
  const row = Math.min(SCAN_CELL_ROWS - 1, Math.floor((lat + 90) / SCAN_CELL_DEGREES));
  return row * SCAN_CELL_COLUMNS + column;
}

export type TScanCells = {
  count: number;
  keys: Int32Array;
  counts: Int32Array;
  lat: Float32Array;
  lng: Float32Array;
  sampleIds: Int32Array;
};

/**
 * Counts points into their cells (the API's side of `GET scan/lat-long/cells/`; tests). A cell's slot is found in a
 * table of every key (1 MB), not a hash map: a million points are counted in tens of milliseconds.
 */
export class ScanCellCounter {
  private readonly slotOf = new Int32Array(SCAN_CELL_KEYS).fill(-1);
  private keys: number[] = [];
  private counts: number[] = [];
  private sumLat: number[] = [];
  private sumLng: number[] = [];
  private sampleIds: number[] = [];

  private count(id: number, lat: number, lng: number): void {
    if (!isOnGlobe(lat, lng)) return;
    const key = scanCellKey(lat, lng);
    const slot = this.slotOf[key]!;
    if (slot >= 0) {
      this.counts[slot]! += 1;
      this.sumLat[slot]! += lat;
      this.sumLng[slot]! += lng;
      return;
    }
    this.slotOf[key] = this.keys.length;
    this.keys.push(key);
    this.counts.push(1);
    this.sumLat.push(lat);
    this.sumLng.push(lng);
    this.sampleIds.push(id);
  }

  add(points: Pick<TScanPoints, 'ids' | 'lat' | 'lng'>): void {
    for (let i = 0; i < points.ids.length; i++) this.count(points.ids[i]!, points.lat[i]!, points.lng[i]!);
  }

  /** Counts packed 12-byte records as they are, little-endian (the answer's) or big-endian (as PostgreSQL packs them). */
  addPacked(bytes: Uint8Array, littleEndian: boolean): void {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = Math.floor(bytes.byteLength / SCAN_POINT_BYTES) * SCAN_POINT_BYTES;
    for (let o = 0; o < end; o += SCAN_POINT_BYTES) {
      this.count(view.getInt32(o, littleEndian), view.getFloat32(o + 4, littleEndian), view.getFloat32(o + 8, littleEndian));
    }
  }

  /** The packed answer, in key order. */
  encode(): Uint8Array {
    const order = this.keys.map((_, slot) => slot).sort((a, b) => this.keys[a]! - this.keys[b]!);
    const out = new Uint8Array(order.length * SCAN_CELL_BYTES);
    const view = new DataView(out.buffer);
    order.forEach((slot, i) => {
      const o = i * SCAN_CELL_BYTES;
      const n = this.counts[slot]!;
      view.setInt32(o, this.keys[slot]!, true);
      view.setInt32(o + 4, n, true);
      view.setFloat32(o + 8, this.sumLat[slot]! / n, true);
      view.setFloat32(o + 12, this.sumLng[slot]! / n, true);
      view.setInt32(o + 16, this.sampleIds[slot]!, true);
    });
    return out;
  }
}

/** Splits the packed cells into arrays (bytes after the last whole record are left out). */
export function decodeScanCells(buffer: ArrayBuffer): TScanCells {
  const count = Math.floor(buffer.byteLength / SCAN_CELL_BYTES);
  const view = new DataView(buffer);
  const cells: TScanCells = {
    count,
    keys: new Int32Array(count),
    counts: new Int32Array(count),
    lat: new Float32Array(count),
    lng: new Float32Array(count),
    sampleIds: new Int32Array(count),
  };
  for (let i = 0, o = 0; i < count; i++, o += SCAN_CELL_BYTES) {
    cells.keys[i] = view.getInt32(o, true);
    cells.counts[i] = view.getInt32(o + 4, true);
    cells.lat[i] = view.getFloat32(o + 8, true);
    cells.lng[i] = view.getFloat32(o + 12, true);
    cells.sampleIds[i] = view.getInt32(o + 16, true);
  }
  return cells;
}

/** The ids of the packed points (12-byte records, either byte order) in these cells, at most `limit`, in order. */
export function packedIdsInCells(
  bytes: Uint8Array,
  littleEndian: boolean,
  cells: ReadonlySet<number>,
  limit: number,
  out: number[] = [],
): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = Math.floor(bytes.byteLength / SCAN_POINT_BYTES) * SCAN_POINT_BYTES;
  for (let o = 0; o < end && out.length < limit; o += SCAN_POINT_BYTES) {
    const lat = view.getFloat32(o + 4, littleEndian);
    const lng = view.getFloat32(o + 8, littleEndian);
    if (isOnGlobe(lat, lng) && cells.has(scanCellKey(lat, lng))) out.push(view.getInt32(o, littleEndian));
  }
  return out;
}
