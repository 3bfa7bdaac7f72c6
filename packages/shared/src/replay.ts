// Scan replay (issue 8 "Breast scans": the `/chart/?id=` page; part 2 §3 Scan is_replay_available): the recorded
// sensor frames of a breast scan, served by `GET scan/{id}/replay/` and played back by the console as a heat map.
//
// Format 'sc-replay/1' (JSON, one request):
// - Each breast side is recorded as `frame_count` frames of a `rows` × `cols` grid of pressure readings from the
//   tactile sensor, taken every `interval_ms`; frame i was recorded `timestamps_ms[i]` ms after `recorded_at`.
//   Both sides share the timeline (the console shows them side by side).
// - A side's readings are bytes (0–255), frame after frame, each frame row-major (row 0 is the top of the breast
//   as the patient faces the examiner, column 0 the outer edge), sent as one base64 string of
//   frame_count × rows × cols bytes. A byte b reads `value_min + b × (value_max − value_min) / 255` in `unit`.
// - Cells the sensor has not reached yet in a frame read 0 (the recording sweeps the breast); a finding shows as a
//   region reading markedly higher than the tissue around it.
// - `findings` repeat the scan's left/right findings so that the page can label them without a second request.
// Errors: 401 signed out; 403 for a role that sees no scan list (REPLAY_ROLES); 404 {detail: 'Not found.'} for a
// scan that does not exist or is outside the caller's scope; 404 {detail: REPLAY_MESSAGES.notAvailable} for a
// scan in scope whose is_replay_available is false.
import { z } from 'zod';
import type { TUserType } from './roles.ts';

export const REPLAY_FORMAT = 'sc-replay/1';
export const REPLAY_SIDES = ['left', 'right'] as const;
export type TReplaySide = (typeof REPLAY_SIDES)[number];

/** The grid and timeline every recording of this format has (the server may send others; read them from the body). */
export const REPLAY_ROWS = 16;
export const REPLAY_COLS = 16;
export const REPLAY_INTERVAL_MS = 250;
export const REPLAY_FRAME_COUNT = 96;
export const REPLAY_UNIT = 'kPa';
export const REPLAY_VALUE_MIN = 0;
export const REPLAY_VALUE_MAX = 40;

/**
 * Who may replay a scan: the roles that see a breast scan list (the Scans menu, an organization's Scans tab),
 * each within its scope. Anyone else gets 403.
 */
export const REPLAY_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
];

export const canReplayScans = (role: TUserType): boolean => REPLAY_ROLES.includes(role);

export const REPLAY_MESSAGES = {
  notAvailable: 'No replay is available for this scan.',
  /** The console's text when the id in `/chart/?id=` is missing or not a number. */
  badId: 'Open a scan replay from the scan list.',
} as const;

/** The API path, under /api/v1/. */
export const replayPath = (scanId: number): string => `scan/${scanId}/replay/`;

/** The console page that plays a scan back (part 2 §2.7 row action "Scan replay"). */
export const replayPagePath = (scanId: number, recertify = false): string =>
  `/chart/?id=${scanId}${recertify ? '&re-certify=true' : ''}`;

const ZReplaySideData = z.object({
  /** base64 of frame_count × rows × cols bytes. */
  data: z.string(),
  findings: z.array(z.string()),
});
export type TReplaySideData = z.infer<typeof ZReplaySideData>;

export const ZReplay = z.object({
  scan_id: z.number().int(),
  format: z.literal(REPLAY_FORMAT),
  /** The scan's time (ISO 8601): when the recording started. */
  recorded_at: z.string(),
  rows: z.number().int().positive(),
  cols: z.number().int().positive(),
  frame_count: z.number().int().positive(),
  interval_ms: z.number().int().positive(),
  /** Per frame, ms since recorded_at; ascending, timestamps_ms[0] = 0. */
  timestamps_ms: z.array(z.number().int().nonnegative()),
  unit: z.string(),
  value_min: z.number(),
  value_max: z.number(),
  sides: z.object({ left: ZReplaySideData, right: ZReplaySideData }),
});
export type TReplay = z.infer<typeof ZReplay>;

/** The bytes of one side (all frames): decodes the base64 in the browser and in Node alike. */
export function decodeReplaySide(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The base64 text of a side's bytes (the server's half of decodeReplaySide). */
export function encodeReplaySide(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/** Frame `index` of a side's decoded bytes: rows × cols readings, row-major (a view, not a copy). */
export function replayFrame(
  bytes: Uint8Array,
  replay: Pick<TReplay, 'rows' | 'cols'>,
  index: number,
): Uint8Array {
  const size = replay.rows * replay.cols;
  return bytes.subarray(index * size, (index + 1) * size);
}

/** A reading's value in the recording's unit. */
export function replayValue(byte: number, replay: Pick<TReplay, 'value_min' | 'value_max'>): number {
  return replay.value_min + (byte * (replay.value_max - replay.value_min)) / 255;
}

/** The frame shown at `ms` since the start: the last one recorded at or before it. */
export function replayFrameAt(replay: Pick<TReplay, 'timestamps_ms'>, ms: number): number {
  const times = replay.timestamps_ms;
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0 || ms <= (times[0] ?? 0)) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((times[mid] ?? 0) <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Length of the recording in ms (the time slider's maximum). */
export const replayDurationMs = (replay: Pick<TReplay, 'timestamps_ms' | 'interval_ms'>): number =>
  (replay.timestamps_ms.at(-1) ?? 0) + replay.interval_ms;
