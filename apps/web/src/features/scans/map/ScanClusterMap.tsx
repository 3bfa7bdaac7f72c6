// The scan map (part 2 §2.7 Map, §9): Leaflet with the server's tile layer, initial zoom 2 on (10, 10), 700 px high.
// Points are clustered in a Web Worker; only the clusters and single scans of the current view are drawn, as
// keyboard-focusable div markers. Initial zoom 2 on (10, 10); 1 on a map narrower than the world at zoom 2 (a phone). A click on either hands its scan ids to `onSelectIds` (the scan list modal).
import { useEffect, useRef, useState } from 'react';
import { Box, Center, Loader, Text } from '@mantine/core';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { CompactPoints, MapMarker } from './clusterIndex.ts';
import { ClusterClient, createClusterWorker, type ClusterPort } from './clusterProtocol.ts';
import { MAP_HEIGHT_PX, MAP_INITIAL_CENTER, initialZoomFor } from './mapConfig.ts';
import { useMapTiles, useTileLayer } from './mapTiles.ts';
import classes from './ScanClusterMap.module.css';

type ScanClusterMapProps = {
  points: CompactPoints | undefined;
  loading?: boolean;
  onSelectIds: (ids: number[]) => void;
  /** Tests pass an in-thread port (jsdom has no Worker). */
  createPort?: () => ClusterPort;
  height?: number;
};

const markerSize = (count: number): number => (count === 1 ? 18 : count < 100 ? 32 : count < 10_000 ? 40 : 48);

function markerIcon(marker: MapMarker): L.DivIcon {
  const size = markerSize(marker.count);
  const label = marker.count === 1 ? '' : marker.count >= 1000 ? `${Math.round(marker.count / 100) / 10}k` : String(marker.count);
  return L.divIcon({
    className: marker.count === 1 ? classes.point : classes.cluster,
    html: `<span>${label}</span>`,
    iconSize: [size, size],
  });
}

export function ScanClusterMap({
  points,
  loading = false,
  onSelectIds,
  createPort = createClusterWorker,
  height = MAP_HEIGHT_PX,
}: ScanClusterMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<L.LayerGroup | null>(null);
  const clientRef = useRef<ClusterClient | null>(null);
  const selectRef = useRef(onSelectIds);
  selectRef.current = onSelectIds;
  const [total, setTotal] = useState<number | null>(null);
  const [indexing, setIndexing] = useState(false);
  const [map, setMap] = useState<L.Map | null>(null);
  useTileLayer(map, useMapTiles());

  // One map and one worker per mount.
  useEffect(() => {
    if (!container.current) return;
    const map = L.map(container.current, { worldCopyJump: true, minZoom: 1 }).setView(
      MAP_INITIAL_CENTER,
      initialZoomFor(container.current.clientWidth),
    );
    const layer = L.layerGroup().addTo(map);
    mapRef.current = map;
    setMap(map);
    layerRef.current = layer;
    clientRef.current = new ClusterClient(createPort());
    return () => {
      clientRef.current?.terminate();
      clientRef.current = null;
      setMap(null);
      map.remove();
      mapRef.current = null;
      layerRef.current = null;
    };
  }, [createPort]);

  // Load the points, then redraw on every move.
  useEffect(() => {
    const map = mapRef.current;
    const client = clientRef.current;
    const layer = layerRef.current;
    if (!map || !client || !layer || !points) return;
    let cancelled = false;
    let drawn = 0;

    const draw = async () => {
      const bounds = map.getBounds();
      const ticket = ++drawn;
      const markers = await client.markers(
        [Math.max(-180, bounds.getWest()), Math.max(-90, bounds.getSouth()), Math.min(180, bounds.getEast()), Math.min(90, bounds.getNorth())],
        map.getZoom(),
      );
      if (cancelled || ticket !== drawn) return;
      layer.clearLayers();
      for (const marker of markers) {
        const title = marker.count === 1 ? `Scan ${marker.scanId}` : `${marker.count} scans`;
        const m = L.marker([marker.lat, marker.lng], { icon: markerIcon(marker), title, alt: title, keyboard: true });
        m.on('click', () => {
          if (marker.scanId !== null) selectRef.current([marker.scanId]);
          else if (marker.clusterId !== null) void client.leaves(marker.clusterId).then((ids) => selectRef.current(ids));
        });
        layer.addLayer(m);
      }
    };

    setIndexing(true);
    // The worker takes the buffers: give it copies so the query cache keeps its own.
    const copy: CompactPoints = { ids: points.ids.slice(), lat: points.lat.slice(), lng: points.lng.slice() };
    void client.load(copy).then((size) => {
      if (cancelled) return;
      setTotal(size);
      setIndexing(false);
      void draw();
    });
    const onMove = () => void draw();
    map.on('moveend', onMove);
    return () => {
      cancelled = true;
      map.off('moveend', onMove);
    };
  }, [points]);

  return (
    <Box pos="relative" style={{ isolation: 'isolate' }} data-testid="scan-map">
      <div ref={container} style={{ height, width: '100%' }} className={classes.map} />
      {(loading || indexing) && (
        <Center pos="absolute" inset={0} style={{ zIndex: 500, pointerEvents: 'none' }}>
          <Loader />
        </Center>
      )}
      {total !== null && !loading && (
        <Text size="xs" c="dimmed" px="sm" py={6} data-testid="scan-map-total">
          {total.toLocaleString()} scans on the map
        </Text>
      )}
    </Box>
  );
}
