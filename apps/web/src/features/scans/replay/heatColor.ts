// Heat-map colours of the replay: a reading byte (0–255) to RGB on a dark-blue → cyan → yellow → red ramp; 0 (a cell
// the sensor has not reached) is drawn as the background.
const STOPS: readonly [number, number, number, number][] = [
  [0, 20, 30, 90],
  [0.35, 0, 170, 210],
  [0.65, 250, 220, 40],
  [1, 220, 30, 30],
];

/** A 256-entry lookup table, RGBA per entry. */
export function buildHeatPalette(): Uint8ClampedArray {
  const palette = new Uint8ClampedArray(256 * 4);
  for (let b = 0; b < 256; b++) {
    const t = b / 255;
    let k = 0;
    while (k < STOPS.length - 2 && t > STOPS[k + 1]![0]) k++;
    const [t0, r0, g0, b0] = STOPS[k]!;
    const [t1, r1, g1, b1] = STOPS[k + 1]!;
    const f = Math.min(1, Math.max(0, (t - t0) / (t1 - t0)));
    palette[b * 4] = Math.round(r0 + (r1 - r0) * f);
    palette[b * 4 + 1] = Math.round(g0 + (g1 - g0) * f);
    palette[b * 4 + 2] = Math.round(b0 + (b1 - b0) * f);
    palette[b * 4 + 3] = b === 0 ? 40 : 255;
  }
  return palette;
}

export const HEAT_PALETTE = buildHeatPalette();

/** The ramp as a CSS linear-gradient, left (lowest reading) to right (highest), for the replay's colour legend. */
export const HEAT_GRADIENT_CSS = `linear-gradient(to right, ${STOPS.map(([t, r, g, b]) => `rgb(${r} ${g} ${b}) ${Math.round(t * 100)}%`).join(', ')})`;

/** Paints a rows × cols frame into RGBA pixels (one pixel a cell; the canvas is scaled up by CSS). */
export function paintFrame(frame: Uint8Array, out: Uint8ClampedArray, palette = HEAT_PALETTE): void {
  for (let i = 0; i < frame.length; i++) {
    const p = frame[i]! * 4;
    out[i * 4] = palette[p]!;
    out[i * 4 + 1] = palette[p + 1]!;
    out[i * 4 + 2] = palette[p + 2]!;
    out[i * 4 + 3] = palette[p + 3]!;
  }
}
