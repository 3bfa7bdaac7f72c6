import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCAN_CELLS_MAX_ZOOM, ScanCellCounter, decodeScanPoints, encodeScanPoints, scanCellKey } from '@sc/shared/scan-points';
import {
  COARSE_MAX_ZOOM,
  GridIndexBuilder,
  PointStreamDecoder,
  buildPointIndex,
  type Bbox,
  type ClusterIndex,
  type CompactPoints,
} from './clusterIndex.ts';
import { createInThreadClusterPort } from './inThreadClusterPort.ts';
import { ApiError } from '../../../api/client.ts';
import { loadScanMap } from './scanMapSource.ts';

type Row = [id: number, lat: number, lng: number];

const points = (rows: Row[]): CompactPoints => ({
  ids: Int32Array.from(rows.map((r) => r[0])),
  lat: Float32Array.from(rows.map((r) => r[1])),
  lng: Float32Array.from(rows.map((r) => r[2])),
});

const WORLD: Bbox = [-180, -90, 180, 90];

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Scans around a few clinics (as the demo's), some far apart, some alone. */
function clinicScans(count: number, seed = 7): Row[] {
  const next = random(seed);
  const clinics: [number, number][] = [[18.52, 73.85], [19.07, 72.88], [28.61, 77.2], [-33.9, 18.4], [51.5, -0.12], [40.7, -74]];
  return Array.from({ length: count }, (_, i) => {
    const [lat, lng] = clinics[Math.floor(next() * clinics.length)]!;
    return [i + 1, lat + (next() - 0.5) * 0.4, lng + (next() - 0.5) * 0.4] as Row;
  });
}

function gridOf(rows: Row[], chunkSize = 1000): ClusterIndex {
  const builder = new GridIndexBuilder();
  for (let at = 0; at < rows.length; at += chunkSize) builder.add(points(rows.slice(at, at + chunkSize)));
  return builder.build();
}

/** Every marker's ids, checked against its count; answers them all. */
function idsOnMap(index: ClusterIndex, zoom: number): number[] {
  const all: number[] = [];
  for (const marker of index.markers(WORLD, zoom)) {
    const ids = marker.group === null ? [marker.scanId!] : index.leaves(marker.group, Infinity);
    expect(ids).toHaveLength(marker.count);
    all.push(...ids);
  }
  return all.sort((a, b) => a - b);
}

describe('scan map point index (deeper zooms)', () => {
  it('gathers nearby scans into one cluster at a world zoom and lists every id of it', () => {
    const index = buildPointIndex(points([[1, 18.52, 73.85], [2, 18.53, 73.86], [3, 18.5, 73.8], [9, -33.9, 18.4]]));
    const markers = index.markers(WORLD, 2);
    expect(markers).toHaveLength(2);
    const cluster = markers.find((m) => m.count === 3);
    expect(cluster?.group).not.toBeNull();
    expect(index.leaves(cluster!.group!, 100).sort()).toEqual([1, 2, 3]);
    expect(markers.find((m) => m.count === 1)).toMatchObject({ scanId: 9, group: null });
  });

  it('splits the cluster into single scans when zoomed in', () => {
    const index = buildPointIndex(points([[1, 18.52, 73.85], [2, 18.6, 73.95]]));
    expect(index.markers(WORLD, 2)).toHaveLength(1);
    expect(index.markers(WORLD, 16).map((m) => m.scanId).sort()).toEqual([1, 2]);
  });

  it('skips points whose coordinates are not on the globe', () => {
    const index = buildPointIndex(points([[1, Number.NaN, 10], [2, 95, 10], [3, 10, 10]]));
    expect(index.size).toBe(1);
  });
});

describe('scan map grid index (the first picture, zooms 0 to COARSE_MAX_ZOOM)', () => {
  const rows = clinicScans(5000);

  it('draws every scan exactly once at each of its zooms, each marker counting exactly the ids it lists', () => {
    const grid = gridOf(rows);
    expect(grid.size).toBe(rows.length);
    const everyId = rows.map((r) => r[0]);
    for (let zoom = 0; zoom <= COARSE_MAX_ZOOM; zoom++) expect(idsOnMap(grid, zoom)).toEqual(everyId);
  });

  it('counts what clustering the scans one by one counts, where the groups stand apart', () => {
    const grid = gridOf(rows, 333);
    const byPoint = buildPointIndex(points(rows));
    for (const zoom of [1, 2, 3]) {
      const counts = (index: ClusterIndex) => index.markers(WORLD, zoom).map((m) => m.count).sort((a, b) => a - b);
      expect(counts(grid)).toEqual(counts(byPoint));
    }
  });

  it('shows a lone scan as itself, scans in one cell as a group, and answers a limited list', () => {
    const grid = gridOf([[1, 10, 10], [2, -40, -60], [3, -40, -60], [4, -40, -60]]);
    const markers = grid.markers(WORLD, 2);
    const lone = markers.find((m) => m.count === 1)!;
    expect(lone).toMatchObject({ scanId: 1, group: null });
    expect([lone.lat, lone.lng].map((v) => v.toFixed(6))).toEqual(['10.000000', '10.000000']);
    const group = markers.find((m) => m.count === 3)!;
    expect(grid.leaves(group.group!, 2)).toHaveLength(2);
    expect(grid.leaves(group.group!, 10).sort()).toEqual([2, 3, 4]);
  });

  it('leaves out the points the point index leaves out', () => {
    const grid = gridOf([[1, Number.NaN, 10], [2, 95, 10], [3, 10, 190], [4, 10, 10]]);
    expect(grid.size).toBe(1);
    expect(idsOnMap(grid, 2)).toEqual([4]);
  });
});

describe('scan map points stream', () => {
  it('decodes records cut anywhere between chunks', () => {
    const rows = clinicScans(50);
    const bytes = encodeScanPoints(rows.map(([id, latitude, longitude]) => ({ id, latitude, longitude })));
    const decoder = new PointStreamDecoder();
    const ids: number[] = [];
    for (const cut of [[0, 5], [5, 17], [17, 17], [17, 300], [300, bytes.length]] as const) {
      ids.push(...decoder.push(bytes.slice(cut[0], cut[1]).buffer).ids);
    }
    expect(ids).toEqual(rows.map((r) => r[0]));
    expect(decoder.pending).toBe(0);
  });

  const streamOf = (bytes: Uint8Array, seed = 3) => {
    const next = random(seed);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; ) {
          const size = 1 + Math.floor(next() * 4000);
          controller.enqueue(bytes.slice(at, at + size));
          at += size;
        }
        controller.close();
      },
    });
  };

  /** In-thread ports that note their termination. */
  function ports() {
    const made: { terminated: boolean }[] = [];
    const create = () => {
      const port = createInThreadClusterPort();
      const state = { terminated: false };
      made.push(state);
      const terminate = port.terminate;
      port.terminate = () => {
        state.terminated = true;
        terminate();
      };
      return port;
    };
    return { made, create };
  }

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const CELLS_URL = 'http://localhost/api/v1/scan/lat-long/cells/';
  const POINTS_URL = 'http://localhost/api/v1/scan/lat-long/';
  const requests = (headers: Record<string, string> = {}) => ({
    cells: { url: CELLS_URL, headers },
    points: { url: POINTS_URL, headers },
  });
  /** What the API answers for these points: the cells (as GET scan/lat-long/cells/ counts them) and the points. */
  function serverOf(rows: Row[]) {
    const bytes = encodeScanPoints(rows.map(([id, latitude, longitude]) => ({ id, latitude, longitude })));
    const counter = new ScanCellCounter();
    counter.add(decodeScanPoints(bytes.slice().buffer));
    const cells = counter.encode();
    return vi.fn(async (url: string) => new Response(url === CELLS_URL ? cells.slice() : streamOf(bytes)));
  }

  it('draws the first picture from the cells alone, then fetches the points when the map first asks for markers', async () => {
    const rows = [...clinicScans(2000), [99_999, Number.NaN, 0] as Row];
    const fetchMock = serverOf(rows);
    vi.stubGlobal('fetch', fetchMock);
    const { made, create } = ports();
    const source = await loadScanMap(requests({ Authorization: 'Token t' }), create);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith(CELLS_URL, { headers: { Authorization: 'Token t' } });
    expect(made).toHaveLength(2);
    expect(source.size).toBe(2000);
    // The first picture's zooms are answered now; deeper ones wait for the points.
    expect(source.readyAt(SCAN_CELLS_MAX_ZOOM)).toBe(true);
    expect(source.readyAt(SCAN_CELLS_MAX_ZOOM + 1)).toBe(false);

    const first = await source.markers(WORLD, 2);
    expect(first.reduce((n, m) => n + m.count, 0)).toBe(2000);
    expect(first.every((m) => m.count === 1 || (m.group !== null && m.group < 0))).toBe(true);
    // Asking for markers started the points.
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock).toHaveBeenLastCalledWith(POINTS_URL, { headers: { Authorization: 'Token t' } });
    await source.loadPoints();
    expect(source.readyAt(COARSE_MAX_ZOOM)).toBe(true);
    // The first picture's zooms stay as they were drawn (nothing moves under the pointer).
    expect(await source.markers(WORLD, 2)).toEqual(first);
    await source.fineReady;
    expect(source.readyAt(COARSE_MAX_ZOOM + 1)).toBe(true);

    const sumAt = async (zoom: number) => (await source.markers(WORLD, zoom)).reduce((n, m) => n + m.count, 0);
    expect(await sumAt(2)).toBe(2000);
    expect(await sumAt(12)).toBe(2000);
    for (const zoom of [2, COARSE_MAX_ZOOM, 9]) {
      const cluster = (await source.markers(WORLD, zoom)).find((m) => m.group !== null)!;
      expect(cluster.group! < 0).toBe(zoom <= SCAN_CELLS_MAX_ZOOM);
      expect(await source.leaves(zoom, cluster.group!)).toHaveLength(cluster.count);
    }
    expect(fetchMock).toHaveBeenCalledTimes(2);
    source.terminate();
    expect(made.every((p) => p.terminated)).toBe(true);
  });

  it("lists a first-picture cluster's own scans, waiting for the points", async () => {
    const rows = clinicScans(1500, 11);
    vi.stubGlobal('fetch', serverOf(rows));
    const { create } = ports();
    const source = await loadScanMap(requests(), create);
    const first = await source.markers(WORLD, 3);
    const byId = new Map(rows.map(([id, lat, lng]) => [id, [Math.fround(lat), Math.fround(lng)] as const]));
    // Clicked before the points arrive: the answer waits for them.
    const answers = await Promise.all(first.map((m) => (m.group === null ? Promise.resolve([m.scanId!]) : source.leaves(3, m.group))));
    const seen = new Set<number>();
    first.forEach((marker, i) => {
      const ids = answers[i]!;
      expect(ids).toHaveLength(marker.count);
      for (const id of ids) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
        expect(byId.has(id)).toBe(true);
      }
      // Its scans are around the marker (60 px at zoom 3 are 10.5 degrees of longitude; clusters of clusters reach
      // further), not elsewhere on the globe.
      for (const id of ids) expect(Math.abs(byId.get(id)![1] - marker.lng)).toBeLessThan(25);
    });
    expect(seen.size).toBe(rows.length);
    // And once the points are there.
    const group = first.find((m) => m.group !== null)!;
    expect(await source.leaves(3, group.group!)).toHaveLength(group.count);
    source.terminate();
  });

  it("asks the server for a first-picture group's scans while the points are still coming", async () => {
    const rows = clinicScans(800, 13);
    const cellsOnly = serverOf(rows);
    // The points never finish arriving.
    vi.stubGlobal('fetch', (url: string) => (url === CELLS_URL ? cellsOnly(url) : new Promise<Response>(() => undefined)));
    const cellIds = vi.fn(async (keys: number[]) =>
      rows.filter(([, lat, lng]) => keys.includes(scanCellKey(Math.fround(lat), Math.fround(lng)))).map(([id]) => id),
    );
    const { create } = ports();
    const source = await loadScanMap({ ...requests(), cellIds }, create);
    const markers = await source.markers(WORLD, 2);
    const groups = markers.filter((m) => m.group !== null);
    expect(groups.length).toBeGreaterThan(1);
    let listed = 0;
    for (const marker of groups) {
      const ids = await source.leaves(2, marker.group!);
      expect(ids).toHaveLength(marker.count);
      listed += ids.length;
    }
    expect(cellIds).toHaveBeenCalledTimes(groups.length);
    expect(listed + markers.filter((m) => m.group === null).length).toBe(800);
    source.terminate();
  });

  it('keeps the first picture when the points cannot be fetched', async () => {
    const rows = clinicScans(300, 5);
    const cellsOnly = serverOf(rows);
    vi.stubGlobal('fetch', async (url: string) =>
      url === CELLS_URL ? cellsOnly(url) : new Response(JSON.stringify({ detail: 'busy' }), { status: 503 }),
    );
    const { create } = ports();
    const source = await loadScanMap(requests(), create);
    await source.loadPoints();
    expect(source.readyAt(12)).toBe(true);
    expect((await source.markers(WORLD, 12)).reduce((n, m) => n + m.count, 0)).toBe(300);
    const group = (await source.markers(WORLD, 2)).find((m) => m.group !== null)!;
    expect(await source.leaves(2, group.group!)).toEqual([]);
    source.terminate();
  });

  it('answers a refusal as the API error and lets both workers go', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ detail: 'Not allowed' }), { status: 403 }));
    const { made, create } = ports();
    const error = await loadScanMap(requests(), create).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, body: { detail: 'Not allowed' } });
    expect(made.map((p) => p.terminated)).toEqual([true, true]);
  });

  it('lets both workers go when the map is no longer wanted before its first picture arrives', async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    const { made, create } = ports();
    const controller = new AbortController();
    const loading = loadScanMap(requests(), create, controller.signal);
    controller.abort(new Error('unmounted'));
    await expect(loading).rejects.toThrow('unmounted');
    expect(made.map((p) => p.terminated)).toEqual([true, true]);
  });

  it('answers an unreachable server as unreachable', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const { made, create } = ports();
    await expect(loadScanMap(requests(), create)).rejects.toMatchObject({ status: 0 });
    expect(made.map((p) => p.terminated)).toEqual([true, true]);
  });

  it('keeps the first picture when the points are broken off', async () => {
    const rows = clinicScans(200, 3);
    const cellsOnly = serverOf(rows);
    const broken = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(24));
          controller.error(new Error('connection reset'));
        },
      });
    vi.stubGlobal('fetch', async (url: string) => (url === CELLS_URL ? cellsOnly(url) : new Response(broken())));
    const { create } = ports();
    const source = await loadScanMap(requests(), create);
    await source.loadPoints();
    expect((await source.markers(WORLD, 9)).reduce((n, m) => n + m.count, 0)).toBe(200);
    source.terminate();
  });
});

describe('scan map initial view', () => {
  it('opens at zoom 2, or 1 when the map is narrower than the world at zoom 2', async () => {
    const { initialZoomFor } = await import('./mapConfig.ts');
    expect(initialZoomFor(1200)).toBe(2);
    expect(initialZoomFor(1024)).toBe(2);
    expect(initialZoomFor(358)).toBe(1);
  });
});
