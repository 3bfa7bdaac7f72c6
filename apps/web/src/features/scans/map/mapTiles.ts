// The tile layer of every map in the console: the server's TILE_URL and TILE_ATTRIBUTION (GET map/tiles/), the
// only tile host its CSP allows. Read once per session. Under it lie the bundled country outlines (basemap.ts).
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import L from 'leaflet';
import type { TMapTiles } from '@sc/shared/map-tiles';
import { api } from '../../../api/client.ts';

export function useMapTiles(): TMapTiles | undefined {
  return useQuery({
    queryKey: ['map', 'tiles'],
    queryFn: ({ signal }) => api.get<TMapTiles>('map/tiles/', { signal }),
    staleTime: Infinity,
  }).data;
}

/**
 * Draws `tiles` under whatever else `map` shows, once both exist; swaps the layer if the tiles change. An empty URL
 * draws no tile layer (a programme without a tile server: the country outlines only).
 *
 * Answers whether the tiles failed: since the layer last began loading tiles (a move, a zoom), every tile that
 * settled failed. A tile that loads clears it; tiles that neither load nor fail (a stalled link) leave it as it was.
 */
export function useTileLayer(map: L.Map | null, tiles: TMapTiles | undefined): boolean {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!map || !tiles?.url) return;
    const layer = L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 });
    let loadedThisRound = 0;
    layer.on('loading', () => {
      loadedThisRound = 0;
    });
    layer.on('tileload', () => {
      loadedThisRound += 1;
      setFailed(false);
    });
    layer.on('tileerror', () => {
      if (loadedThisRound === 0) setFailed(true);
    });
    layer.addTo(map).bringToBack();
    return () => {
      layer.remove();
      setFailed(false);
    };
  }, [map, tiles]);
  return failed;
}
