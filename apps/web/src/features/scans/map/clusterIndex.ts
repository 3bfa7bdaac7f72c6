// Clustering of the scan map (part 2 §2.7, §9; issue 8 "Map"): supercluster indexes built in Web Workers
// (clusterWorker.ts) from compact typed arrays, so a million scans never become a million objects on the main
// thread or a million DOM nodes: the map asks for the markers of its view and draws only those.
//
// Two indexes share the zooms, so the first picture comes fast (issue 8 "Speed"):
// - the grid index (zooms 0–COARSE_MAX_ZOOM): points are counted into small cells while the answer streams in
//   (a cell is GRID_CELL_PX of a pixel at COARSE_MAX_ZOOM, so a cluster's members are the same as point by point
//   up to that fraction of a pixel at its edge); supercluster clusters the cells, each weighted by its scans, so
//   every marker's count is exact and its scans are exactly the ids of its cells;
// - the point index (deeper zooms): one supercluster feature a scan, built after the grid index has answered.
// Before either, the first picture (issue 24): the cell index clusters the server's cells (`GET scan/lat-long/cells/`,
// tens of kB where the points are megabytes) for zooms up to SCAN_CELLS_MAX_ZOOM, each weighted by its scans; its
// groups are negative numbers, whose scans are found by cell key once the points are there (scanIdsInCells).
import Supercluster, { type PointFeature } from 'supercluster';
import { SCAN_POINT_BYTES, decodeScanPoints, isOnGlobe, scanCellKey, type TScanCells } from '@sc/shared/scan-points';

/** Compact points (decodeScanPoints of `GET scan/lat-long/`): the i-th scan is ids[i] at (lat[i], lng[i]). */
export type CompactPoints = { ids: Int32Array; lat: Float32Array; lng: Float32Array };

/** One marker on the map: a group of scans (count > 1, `group` for their ids) or a single scan (count 1, scanId). */
export type MapMarker = {
  lat: number;
  lng: number;
  count: number;
  /** Set when count > 1: pass it, with the zoom it was drawn at, to `leaves`. */
  group: number | null;
  /** Set on a single scan. */
  scanId: number | null;
};

export type Bbox = [west: number, south: number, east: number, north: number];

export const CLUSTER_RADIUS_PX = 60;
export const CLUSTER_MAX_ZOOM = 16;
/** The grid index answers zooms up to this one (the initial zoom is 2, 1 on a phone); the point index deeper ones. */
export const COARSE_MAX_ZOOM = 5;
/** A grid cell is a pixel at this zoom (1/8 of a pixel at COARSE_MAX_ZOOM). */
export const GRID_ZOOM = COARSE_MAX_ZOOM + 3;

/** Points with coordinates on the globe; others are left out of every index alike (and of the server's cells). */
export { isOnGlobe };

export type ClusterIndex = {
  /** Scans in the index. */
  size: number;
  markers: (bbox: Bbox, zoom: number) => MapMarker[];
  /** The scan ids of a marker's group, at most `limit`. */
  leaves: (group: number, limit: number) => number[];
};

/** Supercluster's input: the point's index into the id list it was built from, and its weight (scans). */
type Props = { i: number; n: number };

function markerOf(f: ReturnType<Supercluster<Props, Props>['getClusters']>[number], scanIdOf: (i: number) => number | null): MapMarker {
  const [lng, lat] = f.geometry.coordinates as [number, number];
  const props = f.properties;
  if ('cluster' in props && props.cluster) return { lat, lng, count: props.n, group: props.cluster_id, scanId: null };
  const p = props as Props;
  return p.n === 1 ? { lat, lng, count: 1, group: null, scanId: scanIdOf(p.i) } : { lat, lng, count: p.n, group: p.i, scanId: null };
}

/** The point index: one feature a scan, for the zooms from `minZoom` (0 in tests) to the deepest. */
export function buildPointIndex(points: CompactPoints, minZoom = 0): ClusterIndex {
  const features: PointFeature<Props>[] = [];
  for (let i = 0; i < points.ids.length; i++) {
    const lat = points.lat[i]!;
    const lng = points.lng[i]!;
    if (!isOnGlobe(lat, lng)) continue;
    features.push({ type: 'Feature', properties: { i, n: 1 }, geometry: { type: 'Point', coordinates: [lng, lat] } });
  }
  const index = new Supercluster<Props, Props>({
    radius: CLUSTER_RADIUS_PX,
    minZoom,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: () => ({ i: -1, n: 1 }),
    reduce: (sum, p) => {
      sum.n += p.n;
    },
  });
  index.load(features);
  return {
    size: features.length,
    markers: (bbox, zoom) => index.getClusters(bbox, Math.round(zoom)).map((f) => markerOf(f, (i) => points.ids[i]!)),
    leaves: (group, limit) => index.getLeaves(group, limit).map((f) => points.ids[f.properties.i]!),
  };
}

// Web Mercator, as supercluster projects (x, y in 0..1).
const mercatorX = (lng: number): number => lng / 360 + 0.5;
function mercatorY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}

/**
 * Builds the grid index from chunks of points as they arrive (`add`), then `build()` clusters the cells. Cells keep
 * their scans' count and mean position; the scans' ids are grouped by cell at the end (a counting sort).
 */
export class GridIndexBuilder {
  private readonly cellOfKey = new Map<number, number>();
  private readonly counts: number[] = [];
  private readonly sumLat: number[] = [];
  private readonly sumLng: number[] = [];
  private chunks: { points: CompactPoints; cells: Int32Array }[] = [];
  private readonly side = 256 * 2 ** GRID_ZOOM;

  add(points: CompactPoints): void {
    const cells = new Int32Array(points.ids.length);
    for (let i = 0; i < points.ids.length; i++) {
      const lat = points.lat[i]!;
      const lng = points.lng[i]!;
      if (!isOnGlobe(lat, lng)) {
        cells[i] = -1;
        continue;
      }
      const x = Math.min(this.side - 1, Math.floor(mercatorX(lng) * this.side));
      const y = Math.min(this.side - 1, Math.floor(mercatorY(lat) * this.side));
      const key = y * this.side + x;
      let cell = this.cellOfKey.get(key);
      if (cell === undefined) {
        cell = this.counts.length;
        this.cellOfKey.set(key, cell);
        this.counts.push(0);
        this.sumLat.push(0);
        this.sumLng.push(0);
      }
      this.counts[cell]! += 1;
      this.sumLat[cell]! += lat;
      this.sumLng[cell]! += lng;
      cells[i] = cell;
    }
    this.chunks.push({ points, cells });
  }

  /** Every point added, in order, in one set of arrays (handed on to the point index); the builder lets them go. */
  points(): CompactPoints {
    const joined = joinPoints(this.chunks.map((c) => c.points));
    this.chunks = [];
    return joined;
  }

  build(): ClusterIndex {
    const cellCount = this.counts.length;
    // Where each cell's ids start in `ids`, then the ids themselves, grouped by cell.
    const start = new Int32Array(cellCount + 1);
    for (let c = 0; c < cellCount; c++) start[c + 1] = start[c]! + this.counts[c]!;
    const next = start.slice(0, cellCount);
    const ids = new Int32Array(start[cellCount]!);
    for (const { points, cells } of this.chunks) {
      for (let i = 0; i < cells.length; i++) {
        const cell = cells[i]!;
        if (cell >= 0) ids[next[cell]!++] = points.ids[i]!;
      }
    }

    const features: PointFeature<Props>[] = [];
    for (let c = 0; c < cellCount; c++) {
      const n = this.counts[c]!;
      features.push({
        type: 'Feature',
        properties: { i: c, n },
        geometry: { type: 'Point', coordinates: [this.sumLng[c]! / n, this.sumLat[c]! / n] },
      });
    }
    const index = new Supercluster<Props, Props>({
      radius: CLUSTER_RADIUS_PX,
      minZoom: 0,
      maxZoom: COARSE_MAX_ZOOM,
      map: (p) => ({ i: -1, n: p.n }),
      reduce: (sum, p) => {
        sum.n += p.n;
      },
    });
    index.load(features);

    const cellIds = (cell: number) => ids.subarray(start[cell]!, start[cell + 1]!);
    return {
      size: ids.length,
      markers: (bbox, zoom) =>
        index.getClusters(bbox, Math.min(COARSE_MAX_ZOOM, Math.round(zoom))).map((f) => markerOf(f, (c) => cellIds(c)[0] ?? null)),
      // A group below cellCount is a lone cell (supercluster numbers its clusters from the input's length up).
      leaves: (group, limit) => {
        const cells = group < cellCount ? [group] : index.getLeaves(group, Infinity).map((f) => f.properties.i);
        const out: number[] = [];
        for (const cell of cells) {
          for (const id of cellIds(cell)) {
            if (out.length >= limit) return out;
            out.push(id);
          }
        }
        return out;
      },
    };
  }
}

/**
 * Decodes a byte stream of packed points chunk by chunk: a record cut between two chunks is completed by the next.
 * `push` answers the whole records so far.
 */
export class PointStreamDecoder {
  private carry = new Uint8Array(0);

  push(chunk: ArrayBuffer): CompactPoints {
    const bytes = new Uint8Array(this.carry.length + chunk.byteLength);
    bytes.set(this.carry);
    bytes.set(new Uint8Array(chunk), this.carry.length);
    const { ids, lat, lng } = decodeScanPoints(bytes.buffer);
    this.carry = bytes.slice(ids.length * SCAN_POINT_BYTES);
    return { ids, lat, lng };
  }

  /** Bytes of an incomplete last record (0 at the end of a whole answer). */
  get pending(): number {
    return this.carry.length;
  }
}

/** Joins decoded chunks into one set of arrays. */
export function joinPoints(chunks: CompactPoints[]): CompactPoints {
  const total = chunks.reduce((n, c) => n + c.ids.length, 0);
  const out: CompactPoints = { ids: new Int32Array(total), lat: new Float32Array(total), lng: new Float32Array(total) };
  let at = 0;
  for (const c of chunks) {
    out.ids.set(c.ids, at);
    out.lat.set(c.lat, at);
    out.lng.set(c.lng, at);
    at += c.ids.length;
  }
  return out;
}

/** The first picture's index: the server's cells, clustered like the grid index's (counts exact, positions means). */
export type CellIndex = ClusterIndex & {
  /** The cell keys of a (negative) group of this index's markers. */
  cellKeys: (group: number) => number[];
};

/** Group numbers of the cell index are -1 - supercluster's (so they never pass for the other indexes' groups). */
const cellGroup = (group: number): number => -1 - group;

export function buildCellIndex(cells: TScanCells, maxZoom: number): CellIndex {
  const features: PointFeature<Props>[] = [];
  let size = 0;
  for (let c = 0; c < cells.count; c++) {
    const n = cells.counts[c]!;
    size += n;
    features.push({ type: 'Feature', properties: { i: c, n }, geometry: { type: 'Point', coordinates: [cells.lng[c]!, cells.lat[c]!] } });
  }
  const index = new Supercluster<Props, Props>({
    radius: CLUSTER_RADIUS_PX,
    minZoom: 0,
    maxZoom,
    map: (p) => ({ i: -1, n: p.n }),
    reduce: (sum, p) => {
      sum.n += p.n;
    },
  });
  index.load(features);
  return {
    size,
    markers: (bbox, zoom) =>
      index.getClusters(bbox, Math.min(maxZoom, Math.round(zoom))).map((f) => {
        const marker = markerOf(f, (c) => cells.sampleIds[c] ?? null);
        return marker.group === null ? marker : { ...marker, group: cellGroup(marker.group) };
      }),
    // The ids are not here: scanIdsInCells finds them among the points.
    leaves: () => [],
    cellKeys: (negative) => {
      const group = cellGroup(negative);
      const found = group < cells.count ? [group] : index.getLeaves(group, Infinity).map((f) => f.properties.i);
      return found.map((c) => cells.keys[c]!);
    },
  };
}

/** The ids of the points in these cells (scanCellKey), at most `limit`, in the points' order. */
export function scanIdsInCells(points: CompactPoints, keys: readonly number[], limit: number): number[] {
  const wanted = new Set(keys);
  const out: number[] = [];
  for (let i = 0; i < points.ids.length && out.length < limit; i++) {
    const lat = points.lat[i]!;
    const lng = points.lng[i]!;
    if (isOnGlobe(lat, lng) && wanted.has(scanCellKey(lat, lng))) out.push(points.ids[i]!);
  }
  return out;
}
