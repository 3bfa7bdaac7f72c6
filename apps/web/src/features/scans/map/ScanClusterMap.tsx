// The scan map (part 2 §2.7 Map, §9): Leaflet with the server's tile layer, initial zoom 2 on (10, 10), 700 px high.
// Points are clustered in Web Workers (ScanMapSource); only the clusters and single scans of the current view are
// drawn, as keyboard-focusable div markers. Initial zoom 2 on (10, 10); 1 on a map narrower than the world at zoom 2
// (a phone). A click on either hands its scan ids to `onSelectIds` (the scan list modal).
import { useEffect, useRef, useState } from 'react';
import { Box, Center, Loader, Text } from '@mantine/core';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { MapMarker } from './clusterIndex.ts';
import { MAP_HEIGHT_PX, MAP_INITIAL_CENTER, initialZoomFor } from './mapConfig.ts';
import { useMapTiles, useTileLayer } from './mapTiles.ts';
import type { ScanMapSource } from './scanMapSource.ts';
import classes from './ScanClusterMap.module.css';

type ScanClusterMapProps = {
  /** The scans to show (useScanMap); undefined while they load. */
  source: ScanMapSource | undefined;
  loading?: boolean;
  /** The marker's scan ids and how many scans it stands for (more than the ids past SCAN_IDS_BODY_MAX). */
  onSelectIds: (ids: number[], total: number) => void;
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

export function ScanClusterMap({ source, loading = false, onSelectIds, height = MAP_HEIGHT_PX }: ScanClusterMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const selectRef = useRef(onSelectIds);
  selectRef.current = onSelectIds;
  const [map, setMap] = useState<L.Map | null>(null);
  // The deeper zooms are still being indexed and the view is at one of them: the markers wait.
  const [waiting, setWaiting] = useState(false);
  useTileLayer(map, useMapTiles());

  // One map per mount.
  useEffect(() => {
    if (!container.current) return;
    const map = L.map(container.current, { worldCopyJump: true, minZoom: 1 }).setView(
      MAP_INITIAL_CENTER,
      initialZoomFor(container.current.clientWidth),
    );
    setMap(map);
    return () => {
      setMap(null);
      map.remove();
    };
  }, []);

  // Draw the source's markers of the view, again on every move.
  useEffect(() => {
    if (!map || !source) return;
    const layer = L.layerGroup().addTo(map);
    let cancelled = false;
    let drawn = 0;

    const draw = async () => {
      const bounds = map.getBounds();
      const zoom = map.getZoom();
      const ticket = ++drawn;
      const ready = source.readyAt(zoom);
      setWaiting(!ready);
      const markers = await source.markers(
        [Math.max(-180, bounds.getWest()), Math.max(-90, bounds.getSouth()), Math.min(180, bounds.getEast()), Math.min(90, bounds.getNorth())],
        zoom,
      );
      if (cancelled || ticket !== drawn) return;
      if (!ready) setWaiting(false);
      layer.clearLayers();
      for (const marker of markers) {
        const title = marker.count === 1 ? `Scan ${marker.scanId}` : `${marker.count} scans`;
        const m = L.marker([marker.lat, marker.lng], { icon: markerIcon(marker), title, alt: title, keyboard: true });
        m.on('click', () => {
          if (marker.scanId !== null) selectRef.current([marker.scanId], 1);
          else if (marker.group !== null) void source.leaves(zoom, marker.group).then((ids) => selectRef.current(ids, marker.count));
        });
        layer.addLayer(m);
      }
    };

    void draw();
    const onMove = () => void draw();
    map.on('moveend', onMove);
    return () => {
      cancelled = true;
      map.off('moveend', onMove);
      layer.remove();
      setWaiting(false);
    };
  }, [map, source]);

  return (
    <Box pos="relative" style={{ isolation: 'isolate' }} data-testid="scan-map">
      <div ref={container} style={{ height, width: '100%' }} className={classes.map} />
      {(loading || waiting) && (
        <Center pos="absolute" inset={0} style={{ zIndex: 500, pointerEvents: 'none' }}>
          <Loader />
        </Center>
      )}
      {source && !loading && (
        <Text size="xs" c="dimmed" px="sm" py={6} data-testid="scan-map-total">
          {/* Issue 23.13: the list counts every scan; the map only those with coordinates. */}
          {source.size.toLocaleString('en-US')} scans with a location on the map (scans without coordinates are not
          shown)
        </Text>
      )}
    </Box>
  );
}
