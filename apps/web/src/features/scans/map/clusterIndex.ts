// Clustering of the scan map (part 2 §2.7, §9; issue 8 "Map"): every scan's point goes into one supercluster index,
// built in a Web Worker (clusterWorker.ts) from compact typed arrays, so a million scans never become a million
// objects on the main thread or a million DOM nodes: the map asks for the clusters of its view and draws only those.
import Supercluster, { type PointFeature } from 'supercluster';
import { SCAN_IDS_BODY_MAX } from '@sc/shared/scans';

/** Compact points (decodeScanPoints of `GET scan/lat-long/`): the i-th scan is ids[i] at (lat[i], lng[i]). */
export type CompactPoints = { ids: Int32Array; lat: Float32Array; lng: Float32Array };

/** One marker on the map: a cluster (count > 1, with its cluster id) or a single scan (count 1, scanId). */
export type MapMarker = {
  lat: number;
  lng: number;
  count: number;
  /** Set on a cluster: pass it to `leavesOf`. */
  clusterId: number | null;
  /** Set on a single scan. */
  scanId: number | null;
};

/** The ids a cluster click lists at most: what `POST scan/ids/` accepts (the scan list modal pages through them). */
export const CLUSTER_IDS_MAX = SCAN_IDS_BODY_MAX;

export const CLUSTER_RADIUS_PX = 60;
export const CLUSTER_MAX_ZOOM = 16;

type PointProps = { i: number };

export type ClusterIndex = {
  size: number;
  markers: (bbox: [number, number, number, number], zoom: number) => MapMarker[];
  leavesOf: (clusterId: number, limit?: number) => number[];
};

/** Builds the index. Points without valid coordinates are skipped. */
export function buildClusterIndex(points: CompactPoints): ClusterIndex {
  const features: PointFeature<PointProps>[] = [];
  for (let i = 0; i < points.ids.length; i++) {
    const lat = points.lat[i]!;
    const lng = points.lng[i]!;
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) continue;
    features.push({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [lng, lat] } });
  }
  const index = new Supercluster<PointProps>({ radius: CLUSTER_RADIUS_PX, maxZoom: CLUSTER_MAX_ZOOM });
  index.load(features);

  return {
    size: features.length,
    markers: (bbox, zoom) =>
      index.getClusters(bbox, Math.round(zoom)).map((f) => {
        const [lng, lat] = f.geometry.coordinates as [number, number];
        const props = f.properties;
        if ('cluster' in props && props.cluster) {
          return { lat, lng, count: props.point_count, clusterId: props.cluster_id, scanId: null };
        }
        return { lat, lng, count: 1, clusterId: null, scanId: points.ids[(props as PointProps).i]! };
      }),
    leavesOf: (clusterId, limit = CLUSTER_IDS_MAX) =>
      index.getLeaves(clusterId, limit).map((f) => points.ids[f.properties.i]!),
  };
}
