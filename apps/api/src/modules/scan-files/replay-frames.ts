// The sensor model behind scan replays (format 'sc-replay/1', packages/shared/src/replay.ts). No device of this
// programme sends its raw sensor frames (the upload API carries a scan's PDFs only), so the recording of a scan whose
// is_replay_available is set is reproduced here, deterministically from the scan's id, breast size and findings:
// the same scan always plays back the same frames, and nothing is stored.
//
// Each side is a REPLAY_ROWS × REPLAY_COLS grid over the breast (a disc whose size follows breast_type). Tissue reads
// 8–14 kPa with a smooth glandular texture and a firmer area under the nipple; each finding of the side adds a firm
// lump (a Gaussian of 12–20 kPa over 1–2 cells) somewhere inside the disc. The probe sweeps the disc row by row,
// alternating direction, over the first 85 % of the frames; a cell reads 0 until the probe has reached it and then
// keeps its reading with a little sensor noise, the cells under the probe reading a little higher (it presses).
import {
  REPLAY_COLS,
  REPLAY_FORMAT,
  REPLAY_FRAME_COUNT,
  REPLAY_INTERVAL_MS,
  REPLAY_ROWS,
  REPLAY_SIDES,
  REPLAY_UNIT,
  REPLAY_VALUE_MAX,
  REPLAY_VALUE_MIN,
  encodeReplaySide,
  type TReplay,
  type TReplaySide,
} from '@sc/shared/replay';
import { Rng } from '../../demo/rng.ts';

export type ReplayScan = {
  id: number;
  dateTime: Date;
  breastType: number | null;
  leftBreastFinding: readonly string[];
  rightBreastFinding: readonly string[];
};

/** Where the sweep is done: the rest of the recording holds the full picture. */
const SWEEP_SHARE = 0.85;
/** Cells the probe covers at once (the last ones it reached). */
const PROBE_CELLS = 6;

type Bump = { row: number; col: number; amplitude: number; sigma: number };

/** Disc radius in cells by breast_type (1 Small, 2 Medium, 3 Large). */
const radiusFor = (breastType: number | null): number =>
  breastType === 1 ? 6.2 : breastType === 3 ? 8 : 7.2;

const gaussian = (b: Bump, row: number, col: number): number =>
  b.amplitude * Math.exp(-((row - b.row) ** 2 + (col - b.col) ** 2) / (2 * b.sigma * b.sigma));

/** The lumps of a side: one per finding, placed inside the disc away from its rim. */
export function lumpsFor(rng: Rng, findings: number, radius: number): Bump[] {
  const centre = { row: (REPLAY_ROWS - 1) / 2, col: (REPLAY_COLS - 1) / 2 };
  const lumps: Bump[] = [];
  for (let i = 0; i < findings; i++) {
    const angle = rng.next() * 2 * Math.PI;
    const distance = (0.2 + rng.next() * 0.45) * radius;
    lumps.push({
      row: centre.row + Math.sin(angle) * distance,
      col: centre.col + Math.cos(angle) * distance,
      amplitude: 12 + rng.next() * 8,
      sigma: 1 + rng.next(),
    });
  }
  return lumps;
}

/** One side's frames: frame after frame, each row-major, one byte a cell. */
export function recordSide(scan: ReplayScan, side: TReplaySide): Uint8Array {
  const rng = new Rng(scan.id * 2 + (side === 'left' ? 0 : 1) + 0x5eed);
  const findings = side === 'left' ? scan.leftBreastFinding.length : scan.rightBreastFinding.length;
  const radius = radiusFor(scan.breastType);
  const centre = { row: (REPLAY_ROWS - 1) / 2, col: (REPLAY_COLS - 1) / 2 };

  // The tissue: texture, nipple, lumps.
  const texture: Bump[] = Array.from({ length: 4 }, () => ({
    row: rng.next() * REPLAY_ROWS,
    col: rng.next() * REPLAY_COLS,
    amplitude: (rng.next() - 0.4) * 4,
    sigma: 2.5 + rng.next() * 2,
  }));
  const nipple: Bump = { row: centre.row, col: centre.col, amplitude: 2.5, sigma: 1.2 };
  const lumps = lumpsFor(rng, findings, radius);
  const base = 8 + rng.next() * 3;

  const cells = REPLAY_ROWS * REPLAY_COLS;
  const tissue = new Float32Array(cells);
  // The sweep: cells of the disc in the order the probe reaches them (rows alternate direction).
  const order: number[] = [];
  for (let r = 0; r < REPLAY_ROWS; r++) {
    for (let k = 0; k < REPLAY_COLS; k++) {
      const c = r % 2 === 0 ? k : REPLAY_COLS - 1 - k;
      const inside = (r - centre.row) ** 2 + (c - centre.col) ** 2 <= radius * radius;
      if (!inside) continue;
      let value = base + gaussian(nipple, r, c);
      for (const b of texture) value += gaussian(b, r, c);
      for (const b of lumps) value += gaussian(b, r, c);
      tissue[r * REPLAY_COLS + c] = value;
      order.push(r * REPLAY_COLS + c);
    }
  }

  const frames = new Uint8Array(REPLAY_FRAME_COUNT * cells);
  const sweepFrames = Math.max(1, Math.floor(REPLAY_FRAME_COUNT * SWEEP_SHARE));
  const toByte = (kPa: number) =>
    Math.max(
      1,
      Math.min(255, Math.round(((kPa - REPLAY_VALUE_MIN) / (REPLAY_VALUE_MAX - REPLAY_VALUE_MIN)) * 255)),
    );
  for (let f = 0; f < REPLAY_FRAME_COUNT; f++) {
    const reached = Math.min(order.length, Math.ceil(((f + 1) / sweepFrames) * order.length));
    const offset = f * cells;
    for (let i = 0; i < reached; i++) {
      const cell = order[i] as number;
      const underProbe = f < sweepFrames && i >= reached - PROBE_CELLS;
      const noise = (rng.next() - 0.5) * 1.2;
      frames[offset + cell] = toByte((tissue[cell] ?? 0) + noise + (underProbe ? 1.5 : 0));
    }
  }
  return frames;
}

/** The scan's recording in the replay format. */
export function recordReplay(scan: ReplayScan): TReplay {
  const [left, right] = REPLAY_SIDES.map((side) => encodeReplaySide(recordSide(scan, side)));
  return {
    scan_id: scan.id,
    format: REPLAY_FORMAT,
    recorded_at: scan.dateTime.toISOString(),
    rows: REPLAY_ROWS,
    cols: REPLAY_COLS,
    frame_count: REPLAY_FRAME_COUNT,
    interval_ms: REPLAY_INTERVAL_MS,
    timestamps_ms: Array.from({ length: REPLAY_FRAME_COUNT }, (_, i) => i * REPLAY_INTERVAL_MS),
    unit: REPLAY_UNIT,
    value_min: REPLAY_VALUE_MIN,
    value_max: REPLAY_VALUE_MAX,
    sides: {
      left: { data: left ?? '', findings: [...scan.leftBreastFinding] },
      right: { data: right ?? '', findings: [...scan.rightBreastFinding] },
    },
  };
}
