// Country outlines under every map's tiles (docs/decisions.md, "A map that still says something without tiles"):
// tile servers fail on poor links, and a map of markers on grey says nothing. The outlines (countryOutlines.ts) are
// fetched with the first map, drawn in a pane below the tile pane: hidden by tiles that load, seen while they load
// and wherever they fail. Markers and clusters stay on top (marker pane).
import { useEffect } from 'react';
import L from 'leaflet';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import type { CountryOutlines } from './countryOutlines.ts';

export const BASEMAP_PANE = 'basemap';
/** Below Leaflet's tile pane (200), above the map's background (the sea). */
const BASEMAP_PANE_Z_INDEX = 150;
/** How far past ±180° a shape reaches once its longitudes are made continuous (Chukotka ~191°, Fiji ~-181°). */
const ANTIMERIDIAN_OVERHANG = 15;

const LAND_STYLE: L.PathOptions = { color: '#8f99a3', weight: 1, fillColor: '#f2efe9', fillOpacity: 1 };
const BORDER_STYLE: L.PathOptions = { color: '#a7a199', weight: 0.8, fill: false };

let loading: Promise<CountryOutlines> | undefined;

/** The outlines' chunk, fetched once per page; a failed fetch is tried again by the next map. */
export function loadCountryOutlines(): Promise<CountryOutlines> {
  loading ??= import('./countryOutlines.ts')
    .then((m) => m.countryOutlines())
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/**
 * The copies of the world (k: drawn 360·k° east) that the view from `west` to `east` longitude shows: Leaflet repeats
 * the tiles east and west (a zoomed-out view, a pan across the antimeridian) but draws a vector shape once.
 */
export function worldCopiesInView(west: number, east: number): number[] {
  const first = Math.ceil((west - 180 - ANTIMERIDIAN_OVERHANG) / 360) || 0; // not -0
  const last = Math.floor((east + 180 + ANTIMERIDIAN_OVERHANG) / 360);
  const copies: number[] = [];
  for (let k = first; k <= last; k++) copies.push(k);
  return copies;
}

type OutlineKind = { kind: 'land' | 'borders' };

function outlineFeatures(outlines: CountryOutlines): FeatureCollection<Geometry, OutlineKind> {
  const features: Feature<Geometry, OutlineKind>[] = [
    { type: 'Feature', properties: { kind: 'land' }, geometry: outlines.land },
    { type: 'Feature', properties: { kind: 'borders' }, geometry: outlines.borders },
  ];
  return { type: 'FeatureCollection', features };
}

/** Draws the country outlines under `map`'s tiles once both exist, in every copy of the world the view shows. */
export function useBasemap(map: L.Map | null): void {
  useEffect(() => {
    if (!map) return;
    const pane = map.getPane(BASEMAP_PANE) ?? map.createPane(BASEMAP_PANE);
    pane.style.zIndex = String(BASEMAP_PANE_Z_INDEX);
    pane.style.pointerEvents = 'none';
    const group = L.layerGroup().addTo(map);
    const drawn = new Set<number>();
    let outlines: FeatureCollection<Geometry, OutlineKind> | undefined;
    let cancelled = false;

    const drawCopies = () => {
      if (!outlines) return;
      const bounds = map.getBounds();
      for (const k of worldCopiesInView(bounds.getWest(), bounds.getEast())) {
        if (drawn.has(k)) continue;
        drawn.add(k);
        // Leaflet gives the pane its own SVG renderer: two paths (land, borders) a copy of the world.
        const copy = L.geoJSON(outlines, {
          pane: BASEMAP_PANE,
          interactive: false,
          attribution: 'Natural Earth',
          coordsToLatLng: ([lng = 0, lat = 0]) => L.latLng(lat, lng + 360 * k),
          style: (f) => (f?.properties.kind === 'land' ? LAND_STYLE : BORDER_STYLE),
        });
        group.addLayer(copy);
      }
    };

    loadCountryOutlines().then(
      (o) => {
        if (cancelled) return;
        outlines = outlineFeatures(o);
        drawCopies();
      },
      // The chunk did not arrive (the link dropped): the map keeps its tiles and markers, the next map tries again.
      () => undefined,
    );
    map.on('moveend', drawCopies);
    return () => {
      cancelled = true;
      map.off('moveend', drawCopies);
      group.remove();
    };
  }, [map]);
}
