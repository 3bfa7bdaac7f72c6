import { describe, expect, it } from 'vitest';
import { buildClusterIndex, type CompactPoints } from './clusterIndex.ts';
import { ClusterClient } from './clusterProtocol.ts';
import { createInThreadClusterPort } from './inThreadClusterPort.ts';

const points = (rows: Array<[number, number, number]>): CompactPoints => ({
  ids: Int32Array.from(rows.map((r) => r[0])),
  lat: Float32Array.from(rows.map((r) => r[1])),
  lng: Float32Array.from(rows.map((r) => r[2])),
});

const WORLD: [number, number, number, number] = [-180, -90, 180, 90];

describe('scan map clustering', () => {
  it('gathers nearby scans into one cluster at a world zoom and lists every id of it', () => {
    const index = buildClusterIndex(points([[1, 18.52, 73.85], [2, 18.53, 73.86], [3, 18.5, 73.8], [9, -33.9, 18.4]]));
    const markers = index.markers(WORLD, 2);
    expect(markers).toHaveLength(2);
    const cluster = markers.find((m) => m.count === 3);
    expect(cluster?.clusterId).not.toBeNull();
    expect(index.leavesOf(cluster!.clusterId!).sort()).toEqual([1, 2, 3]);
    const single = markers.find((m) => m.count === 1);
    expect(single).toMatchObject({ scanId: 9, clusterId: null });
  });

  it('splits the cluster into single scans when zoomed in', () => {
    const index = buildClusterIndex(points([[1, 18.52, 73.85], [2, 18.6, 73.95]]));
    expect(index.markers(WORLD, 2)).toHaveLength(1);
    expect(index.markers(WORLD, 16).map((m) => m.scanId).sort()).toEqual([1, 2]);
  });

  it('skips points whose coordinates are not on the globe', () => {
    const index = buildClusterIndex(points([[1, Number.NaN, 10], [2, 95, 10], [3, 10, 10]]));
    expect(index.size).toBe(1);
  });

  it('answers through the worker protocol', async () => {
    const client = new ClusterClient(createInThreadClusterPort());
    expect(await client.load(points([[5, 10, 10], [6, 10.01, 10.01]]))).toBe(2);
    const [marker] = await client.markers(WORLD, 2);
    expect(marker?.count).toBe(2);
    expect((await client.leaves(marker!.clusterId!)).sort()).toEqual([5, 6]);
    client.terminate();
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
