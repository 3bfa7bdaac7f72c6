// Tiles that do not load (a poor link, a tile server down): the maps still show the bundled country outlines under
// their markers, say why, and keep asking the configured TILE_URL.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../test/render.tsx';
import type { MapMarker } from './clusterIndex.ts';
import { SCAN_OUTLINE_ZOOM } from './mapConfig.ts';
import { ScanClusterMap } from './ScanClusterMap.tsx';
import { ScanLocationMap } from './ScanLocationMap.tsx';
import type { ScanMapSource } from './scanMapSource.ts';

const TILE_URL = 'https://tiles.programme.example/{z}/{x}/{y}.png';

// jsdom lays nothing out: give the maps a size, or Leaflet asks for no tiles and draws every shape as empty.
const sizes = { clientWidth: 800, clientHeight: 400 };
beforeEach(() => {
  for (const [name, value] of Object.entries(sizes)) {
    Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => value });
  }
});
afterEach(() => {
  for (const name of Object.keys(sizes))
    delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
});

const tileImages = () => [...document.querySelectorAll<HTMLImageElement>('.leaflet-tile-pane img')];
/** The outlines' shapes that have something to draw (Leaflet leaves a shape outside the view empty). */
const outlinePaths = () =>
  [...document.querySelectorAll('.leaflet-basemap-pane path')].filter(
    (p) => (p.getAttribute('d') ?? '').length > 10,
  );

async function failEveryTile() {
  const tiles = await waitFor(() => {
    const found = tileImages();
    expect(found.length).toBeGreaterThan(0);
    return found;
  });
  for (const tile of tiles) fireEvent.error(tile);
}

describe('ScanLocationMap without tiles', () => {
  it('shows the country outlines under the scan marker, says the tiles failed and opens out to the region', async () => {
    mockFetch({ 'GET /api/v1/map/tiles/': { body: { url: TILE_URL, attribution: 'Programme tiles' } } });
    renderWithProviders(<ScanLocationMap latitude={-1.29} longitude={36.82} label="Scan SC-1" />);

    // The programme's tile server is asked, at the scan's street-level zoom.
    await waitFor(() =>
      expect(tileImages().some((t) => t.src.startsWith('https://tiles.programme.example/12/'))).toBe(true),
    );
    await failEveryTile();

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Map tiles could not be loaded: showing country outlines only.',
    );
    await waitFor(() => expect(outlinePaths()).toHaveLength(2));
    // Opened out to the region, where the outlines place the scan; its tiles are still asked for.
    await waitFor(() =>
      expect(
        tileImages().some((t) => t.src.startsWith(`https://tiles.programme.example/${SCAN_OUTLINE_ZOOM}/`)),
      ).toBe(true),
    );
    // The outlines lie under the tiles, the marker above both.
    const pane = document.querySelector<HTMLElement>('.leaflet-basemap-pane');
    expect(Number(pane?.style.zIndex)).toBeLessThan(200);
    expect(document.querySelector('.leaflet-marker-pane [title="Scan SC-1"]')).toBeInTheDocument();
    expect(screen.getByText(/Natural Earth/)).toBeInTheDocument();
  });

  it('drops the note once a tile loads again', async () => {
    mockFetch({ 'GET /api/v1/map/tiles/': { body: { url: TILE_URL, attribution: 'Programme tiles' } } });
    renderWithProviders(<ScanLocationMap latitude={48.85} longitude={2.35} label="Scan SC-2" />);
    await failEveryTile();
    expect(await screen.findByTestId('map-tiles-failed')).toBeInTheDocument();

    const again = tileImages();
    fireEvent.load(again[again.length - 1]!);
    await waitFor(() => expect(screen.queryByTestId('map-tiles-failed')).not.toBeInTheDocument());
  });

  it('draws the outlines alone, with no note, where TILE_URL is empty (no tile server)', async () => {
    mockFetch({ 'GET /api/v1/map/tiles/': { body: { url: '', attribution: '' } } });
    renderWithProviders(<ScanLocationMap latitude={-1.29} longitude={36.82} label="Scan SC-3" />);
    // Land and the borders around the scan: the map opened out from street level, where no border is in view.
    await waitFor(() => expect(outlinePaths()).toHaveLength(2));
    expect(tileImages()).toHaveLength(0);
    expect(screen.queryByTestId('map-tiles-failed')).not.toBeInTheDocument();
  });
});

describe('ScanClusterMap without tiles', () => {
  const markers: MapMarker[] = [
    { lat: 20, lng: 78, count: 1234, group: 7, scanId: null },
    { lat: -1.29, lng: 36.82, count: 1, group: null, scanId: 42 },
  ];
  const source = {
    size: 1235,
    readyAt: () => true,
    markers: vi.fn(async () => markers),
    leaves: vi.fn(async () => [1, 2, 3]),
  } as unknown as ScanMapSource;

  it('draws the clusters and scans over the country outlines, and a click still opens them', async () => {
    mockFetch({ 'GET /api/v1/map/tiles/': { body: { url: TILE_URL, attribution: 'Programme tiles' } } });
    const onSelectIds = vi.fn();
    renderWithProviders(<ScanClusterMap source={source} onSelectIds={onSelectIds} />);
    await failEveryTile();

    expect(await screen.findByTestId('map-tiles-failed')).toBeInTheDocument();
    await waitFor(() => expect(outlinePaths().length).toBeGreaterThan(0));
    const cluster = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.leaflet-marker-pane [title="1234 scans"]');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(cluster).toHaveTextContent('1.2k');
    fireEvent.click(cluster);
    await waitFor(() => expect(onSelectIds).toHaveBeenCalledWith([1, 2, 3], 1234));
    fireEvent.click(document.querySelector<HTMLElement>('.leaflet-marker-pane [title="Scan 42"]')!);
    expect(onSelectIds).toHaveBeenLastCalledWith([42], 1);
  });
});
