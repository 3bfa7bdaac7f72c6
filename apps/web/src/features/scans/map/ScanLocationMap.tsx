// The scan view's map (part 2 §2.8): the scan's marker on the server's tile layer, over the bundled country outlines
// (basemap.ts). Without tiles (they failed, or TILE_URL is empty), the map opens out from street level to the scan's
// region, where the outlines place the marker.
import { useEffect, useRef, useState } from 'react';
import { Box } from '@mantine/core';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useBasemap } from './basemap.ts';
import { SCAN_MARKER_ZOOM, SCAN_OUTLINE_ZOOM } from './mapConfig.ts';
import { useMapTiles, useTileLayer } from './mapTiles.ts';
import classes from './ScanClusterMap.module.css';
import { TilesFailedNote } from './TilesFailedNote.tsx';

export function ScanLocationMap({
  latitude,
  longitude,
  label,
}: {
  latitude: number;
  longitude: number;
  label: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const tiles = useMapTiles();
  const tilesFailed = useTileLayer(map, tiles);
  // No tiles to show (they failed, or TILE_URL is empty): the outlines alone.
  const outlinesOnly = tilesFailed || tiles?.url === '';
  useBasemap(map);
  useEffect(() => {
    if (!ref.current) return;
    const map = L.map(ref.current, { scrollWheelZoom: false }).setView(
      [latitude, longitude],
      SCAN_MARKER_ZOOM,
    );
    L.marker([latitude, longitude], {
      icon: L.divIcon({ className: classes.point, iconSize: [18, 18] }),
      title: label,
      alt: label,
    }).addTo(map);
    setMap(map);
    return () => {
      setMap(null);
      map.remove();
    };
  }, [latitude, longitude, label]);
  useEffect(() => {
    if (map && outlinesOnly && map.getZoom() > SCAN_OUTLINE_ZOOM)
      map.setView([latitude, longitude], SCAN_OUTLINE_ZOOM);
  }, [map, outlinesOnly, latitude, longitude]);
  return (
    <Box pos="relative" style={{ isolation: 'isolate' }}>
      <div
        ref={ref}
        style={{ height: 260, width: '100%' }}
        className={classes.map}
        data-testid="scan-location-map"
      />
      {tilesFailed && <TilesFailedNote />}
    </Box>
  );
}
