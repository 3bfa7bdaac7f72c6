// The scan view's map (part 2 §2.8): the scan's marker on the server's tile layer.
import { useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { SCAN_MARKER_ZOOM } from './mapConfig.ts';
import { useMapTiles, useTileLayer } from './mapTiles.ts';
import classes from './ScanClusterMap.module.css';

export function ScanLocationMap({ latitude, longitude, label }: { latitude: number; longitude: number; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  useTileLayer(map, useMapTiles());
  useEffect(() => {
    if (!ref.current) return;
    const map = L.map(ref.current, { scrollWheelZoom: false }).setView([latitude, longitude], SCAN_MARKER_ZOOM);
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
  return <div ref={ref} style={{ height: 260, width: '100%' }} className={classes.map} data-testid="scan-location-map" />;
}
