// The maps' bundled basemap (docs/decisions.md, "A map that still says something without tiles"): Natural Earth's
// 1:110m land and country borders (world-atlas, TopoJSON) as GeoJSON for Leaflet. Loaded only with a map, through a
// dynamic import (basemap.ts), so its ~33 kB (brotli) never reach the sign-in route or the main bundle.
import type { MultiLineString, MultiPolygon, Position } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';

export type CountryOutlines = {
  /** Every land mass, coasts as its outline. */
  land: MultiPolygon;
  /** The borders between countries (coasts are not repeated). */
  borders: MultiLineString;
};

type WorldTopology = Topology<{ countries: GeometryCollection<{ name: string }>; land: GeometryCollection }>;

/**
 * A ring or line whose longitudes stay continuous: world-atlas keeps spherical coordinates, so a shape across the
 * antimeridian (Chukotka, Fiji) jumps from 180 to -180, which Leaflet would draw as a stripe across the world. Each
 * point after such a jump is moved by ±360° instead (Chukotka then reaches 190°). A ring around the pole (Antarctica)
 * then ends 360° from where it starts: see closeAroundPole.
 */
export function unwrapLongitudes(line: Position[]): Position[] {
  let offset = 0;
  let previous: number | undefined;
  return line.map(([lng = 0, lat = 0]) => {
    let x = lng + offset;
    if (previous !== undefined && x - previous > 180) {
      offset -= 360;
      x -= 360;
    } else if (previous !== undefined && x - previous < -180) {
      offset += 360;
      x += 360;
    }
    previous = x;
    return [x, lat];
  });
}

/**
 * A ring around a pole (Antarctica: 360° of longitude from its first point to its last) is closed through the pole,
 * which Leaflet draws on the edge of its world (±85.05°), rather than by a straight edge across the land's coast.
 */
export function closeAroundPole(ring: Position[]): Position[] {
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (!first || !last || Math.abs((last[0] ?? 0) - (first[0] ?? 0)) < 359) return ring;
  const pole = (last[1] ?? 0) < 0 ? -90 : 90;
  return [...ring, [last[0] ?? 0, pole], [first[0] ?? 0, pole], first];
}

export function buildCountryOutlines(topology: WorldTopology): CountryOutlines {
  const land = feature(topology, topology.objects.land);
  const polygons = land.features.flatMap((f) => {
    const g = f.geometry;
    return g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
  });
  const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b);
  return {
    land: {
      type: 'MultiPolygon',
      coordinates: polygons.map((rings) => rings.map((r) => closeAroundPole(unwrapLongitudes(r)))),
    },
    borders: { type: 'MultiLineString', coordinates: borders.coordinates.map(unwrapLongitudes) },
  };
}

let built: CountryOutlines | undefined;

/** The bundled outlines, converted once per page. */
export function countryOutlines(): CountryOutlines {
  built ??= buildCountryOutlines(countries110m as unknown as WorldTopology);
  return built;
}
