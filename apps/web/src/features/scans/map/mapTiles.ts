// The tile layer of every map in the console: the server's TILE_URL and TILE_ATTRIBUTION (GET map/tiles/), the
// only tile host its CSP allows. Read once per session.
import { useEffect } from 'react';
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

/** Draws `tiles` under whatever else `map` shows, once both exist; swaps the layer if the tiles change. */
export function useTileLayer(map: L.Map | null, tiles: TMapTiles | undefined): void {
  useEffect(() => {
    if (!map || !tiles) return;
    const layer = L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(map);
    layer.bringToBack();
    return () => {
      layer.remove();
    };
  }, [map, tiles]);
}
