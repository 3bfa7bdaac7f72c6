// The scan map's fixed view (part 2 §9): initial zoom 2 centred on latitude 10, longitude 10, 700 px high.
export const MAP_INITIAL_CENTER: [number, number] = [10, 10];
export const MAP_INITIAL_ZOOM = 2;
/**
 * A map narrower than the world at zoom 2 (1024 px, e.g. a 390 px phone) opens at zoom 1, still centred on (10, 10), so
 * every continent is in view rather than only Africa and Europe.
 */
export const MAP_NARROW_ZOOM = 1;
export const MAP_NARROW_BELOW_PX = 1024;
export const initialZoomFor = (widthPx: number): number => (widthPx < MAP_NARROW_BELOW_PX ? MAP_NARROW_ZOOM : MAP_INITIAL_ZOOM);
export const MAP_HEIGHT_PX = 700;
/** The zoom of the single-scan map in the scan view dialog. */
export const SCAN_MARKER_ZOOM = 12;
/**
 * The single-scan map's zoom once its tiles have failed: the 1:110m country outlines say nothing at street level
 * (SCAN_MARKER_ZOOM), so the map opens out to the scan's region: its country and the neighbours.
 */
export const SCAN_OUTLINE_ZOOM = 4;
