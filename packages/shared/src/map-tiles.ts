// The map tile layer the console draws (scan map, scan view marker). The server's TILE_URL and TILE_ATTRIBUTION
// decide it (the CSP's img-src allows that host only), and `GET map/tiles/` tells the console.
import { z } from 'zod';

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION = '&copy; OpenStreetMap contributors';

export const ZMapTiles = z.object({
  /**
   * A Leaflet URL template: `{z}`, `{x}`, `{y}` (and optionally `{s}`). Empty: no tile layer, the maps show their
   * bundled country outlines only (a programme without a tile server).
   */
  url: z.string(),
  /** HTML shown in the map's corner, as the tile provider's licence asks. */
  attribution: z.string(),
});
export type TMapTiles = z.infer<typeof ZMapTiles>;
