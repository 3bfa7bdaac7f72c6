import { describe, expect, it } from 'vitest';
import {
  REPLAY_FORMAT,
  ZReplay,
  canReplayScans,
  decodeReplaySide,
  encodeReplaySide,
  replayDurationMs,
  replayFrame,
  replayFrameAt,
  replayPagePath,
  replayPath,
  replayValue,
} from './replay.ts';

describe('replay contract', () => {
  it('round-trips a side through base64, every byte value included', () => {
    const bytes = new Uint8Array(70_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 256;
    const decoded = decodeReplaySide(encodeReplaySide(bytes));
    expect(decoded).toEqual(bytes);
    expect(Buffer.from(encodeReplaySide(bytes), 'base64')).toEqual(Buffer.from(bytes));
  });

  it('cuts frames row-major and reads values in the unit', () => {
    const bytes = Uint8Array.from({ length: 3 * 2 * 4 }, (_, i) => i);
    const frame = replayFrame(bytes, { rows: 2, cols: 4 }, 1);
    expect([...frame]).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);
    expect(replayValue(0, { value_min: 0, value_max: 40 })).toBe(0);
    expect(replayValue(255, { value_min: 0, value_max: 40 })).toBe(40);
    expect(replayValue(51, { value_min: 10, value_max: 15 })).toBe(11);
  });

  it('finds the frame shown at a time and the length of the recording', () => {
    const replay = { timestamps_ms: [0, 250, 500, 750], interval_ms: 250 };
    expect(replayFrameAt(replay, -5)).toBe(0);
    expect(replayFrameAt(replay, 0)).toBe(0);
    expect(replayFrameAt(replay, 249)).toBe(0);
    expect(replayFrameAt(replay, 250)).toBe(1);
    expect(replayFrameAt(replay, 9999)).toBe(3);
    expect(replayFrameAt({ timestamps_ms: [] }, 10)).toBe(0);
    expect(replayDurationMs(replay)).toBe(1000);
  });

  it('names the paths and the roles', () => {
    expect(replayPath(12)).toBe('scan/12/replay/');
    expect(replayPagePath(12)).toBe('/chart/?id=12');
    expect(replayPagePath(12, true)).toBe('/chart/?id=12&re-certify=true');
    expect(canReplayScans('ORG_ADMIN')).toBe(true);
    expect(canReplayScans('TECHNICIAN')).toBe(false);
    expect(canReplayScans('CERVAICAL_REVIEWER')).toBe(false);
  });

  it('parses a body and refuses another format', () => {
    const body = {
      scan_id: 1,
      format: REPLAY_FORMAT,
      recorded_at: '2026-01-01T00:00:00.000Z',
      rows: 1,
      cols: 1,
      frame_count: 1,
      interval_ms: 250,
      timestamps_ms: [0],
      unit: 'kPa',
      value_min: 0,
      value_max: 40,
      sides: { left: { data: 'AA==', findings: [] }, right: { data: 'AA==', findings: ['Lump'] } },
    };
    expect(ZReplay.parse(body)).toEqual(body);
    expect(ZReplay.safeParse({ ...body, format: 'other' }).success).toBe(false);
  });
});
