// GET scan/{id}/replay/ (issue 8, the /chart replay page): the format of the contract, the sensor model's picture
// (lumps where findings are), the roles of the scan list and the scope.
import { describe, expect, it } from 'vitest';
import {
  REPLAY_COLS,
  REPLAY_FORMAT,
  REPLAY_FRAME_COUNT,
  REPLAY_MESSAGES,
  REPLAY_ROWS,
  ZReplay,
  decodeReplaySide,
  replayFrame,
  replayPath,
  replayValue,
  type TReplay,
} from '@sc/shared/replay';
import type { TUserType } from '@sc/shared/roles';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { recordReplay, recordSide, type ReplayScan } from './replay-frames.ts';

const t = await setupTestApp();
const API = '/api/v1';
const CELLS = REPLAY_ROWS * REPLAY_COLS;

const scanOf = (
  id: number,
  left: string[] = [],
  right: string[] = [],
  breastType: number | null = 2,
): ReplayScan => ({
  id,
  dateTime: new Date('2026-03-05T09:00:00Z'),
  breastType,
  leftBreastFinding: left,
  rightBreastFinding: right,
});

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** The last frame's readings inside the disc, in kPa. */
const lastFrame = (replay: TReplay, side: 'left' | 'right'): number[] => {
  const bytes = decodeReplaySide(replay.sides[side].data);
  return [...replayFrame(bytes, replay, replay.frame_count - 1)]
    .filter((b) => b > 0)
    .map((b) => replayValue(b, replay));
};

describe('the sensor model', () => {
  it('answers the contract: grid, frames, timeline and findings', () => {
    const replay = recordReplay(scanOf(17, ['Lump'], []));
    expect(ZReplay.parse(replay)).toEqual(replay);
    expect(replay).toMatchObject({
      scan_id: 17,
      format: REPLAY_FORMAT,
      rows: REPLAY_ROWS,
      cols: REPLAY_COLS,
    });
    expect(replay.recorded_at).toBe('2026-03-05T09:00:00.000Z');
    expect(replay.timestamps_ms).toHaveLength(REPLAY_FRAME_COUNT);
    expect(replay.timestamps_ms[0]).toBe(0);
    expect(replay.timestamps_ms.every((ms, i) => i === 0 || ms > (replay.timestamps_ms[i - 1] ?? 0))).toBe(
      true,
    );
    expect(replay.sides.left.findings).toEqual(['Lump']);
    expect(replay.sides.right.findings).toEqual([]);
    for (const side of ['left', 'right'] as const) {
      expect(decodeReplaySide(replay.sides[side].data)).toHaveLength(REPLAY_FRAME_COUNT * CELLS);
    }
  });

  it('is the same recording for the same scan, another for another scan', () => {
    expect(recordReplay(scanOf(5, ['Lump']))).toEqual(recordReplay(scanOf(5, ['Lump'])));
    expect(recordSide(scanOf(5), 'left')).not.toEqual(recordSide(scanOf(6), 'left'));
    expect(recordSide(scanOf(5), 'left')).not.toEqual(recordSide(scanOf(5), 'right'));
  });

  it('sweeps the breast: few cells read at first, the whole disc at the end, nothing outside it ever', () => {
    const bytes = recordSide(scanOf(9), 'left');
    const read = (f: number) => [...bytes.subarray(f * CELLS, (f + 1) * CELLS)].filter((b) => b > 0).length;
    const last = read(REPLAY_FRAME_COUNT - 1);
    expect(read(0)).toBeGreaterThan(0);
    expect(read(0)).toBeLessThan(last / 10);
    for (let f = 1; f < REPLAY_FRAME_COUNT; f++) expect(read(f)).toBeGreaterThanOrEqual(read(f - 1));
    // A medium breast: a disc of radius 7.2 cells on the 16 × 16 grid, corners never reached.
    expect(last).toBeGreaterThan(140);
    expect(last).toBeLessThan(CELLS);
    const corners = [0, REPLAY_COLS - 1, CELLS - REPLAY_COLS, CELLS - 1];
    for (let f = 0; f < REPLAY_FRAME_COUNT; f++)
      for (const c of corners) expect(bytes[f * CELLS + c]).toBe(0);
    // Breast size follows breast_type.
    const size = (type: number) =>
      [...recordSide(scanOf(9, [], [], type), 'left').subarray(-CELLS)].filter((b) => b > 0).length;
    expect(size(1)).toBeLessThan(size(2));
    expect(size(2)).toBeLessThan(size(3));
  });

  it('shows a firm lump on the side with a finding and none on a clean side, for every scan', () => {
    for (let id = 1; id <= 200; id++) {
      const replay = recordReplay(scanOf(id, ['Lump'], [], (id % 3) + 1));
      const lump = lastFrame(replay, 'left');
      const clean = lastFrame(replay, 'right');
      expect(Math.max(...lump) - median(lump), `scan ${id}`).toBeGreaterThan(8);
      expect(Math.max(...clean) - median(clean), `scan ${id}`).toBeLessThan(8);
      expect(Math.max(...lump)).toBeLessThan(replay.value_max);
    }
  });
});

// A parent organization with a clinic under it, and a stranger.
const org = await createOrganization(t);
const child = await createOrganization(t, { parentId: org.id });
const other = await createOrganization(t);
const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: child.id });
const insertScan = async (values: Partial<typeof scans.$inferInsert>) => {
  const [row] = await t.database.db
    .insert(scans)
    .values({
      organizationId: child.id,
      technicianId: technician.id,
      dateTime: new Date('2026-03-05T09:00:00Z'),
      isReplayAvailable: true,
      leftBreastFinding: [],
      rightBreastFinding: ['Thickening'],
      ...values,
    })
    .returning();
  if (!row) throw new Error('no scan');
  return row.id;
};
const scanId = await insertScan({});
const noReplayId = await insertScan({ isReplayAvailable: false });
const unassignedId = await insertScan({ organizationId: null });
const get = (token: string | null, id: number | string) =>
  t.app.inject({ method: 'GET', url: `${API}/scan/${id}/replay/`, headers: token ? auth(token) : {} });
const tokenFor = async (
  userType: TUserType,
  organizationId: number | null,
  extra: { linkedOrganizationIds?: readonly number[] } = {},
) =>
  signIn(
    t,
    await createUser(t, {
      userType,
      organizationId,
      ...(extra.linkedOrganizationIds ? { linkedOrganizationIds: [...extra.linkedOrganizationIds] } : {}),
    }),
  );

describe('GET scan/{id}/replay/', () => {
  it('answers the recording to a role of the scan list in scope', async () => {
    expect(replayPath(scanId)).toBe(`scan/${scanId}/replay/`);
    const admin = await tokenFor('ADMIN', null);
    const res = await get(admin, scanId);
    expect(res.statusCode).toBe(200);
    const body = ZReplay.parse(res.json());
    expect(body).toEqual(recordReplay({ ...scanOf(scanId, [], ['Thickening'], null) }));
    expect(res.headers['cache-control']).toBe('no-store');

    for (const [type, orgId, extra] of [
      ['SUB_ADMIN', null, {}],
      ['DISTRIBUTOR_ADMIN', org.id, {}],
      ['ORG_ADMIN', child.id, {}],
      ['MANAGER', null, { linkedOrganizationIds: [org.id] }],
    ] as const) {
      expect((await get(await tokenFor(type, orgId, extra), scanId)).statusCode, type).toBe(200);
    }
  });

  it('answers 404 outside the scope, for an unknown or malformed id, and an unassigned scan below platform admins', async () => {
    for (const [type, orgId, extra] of [
      ['ORG_ADMIN', org.id, {}],
      ['ORG_ADMIN', other.id, {}],
      ['DISTRIBUTOR_ADMIN', other.id, {}],
      ['MANAGER', null, { linkedOrganizationIds: [other.id] }],
      ['MANAGER', null, {}],
    ] as const) {
      const res = await get(await tokenFor(type, orgId, extra), scanId);
      expect(res.statusCode, `${type} of ${orgId}`).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
    const admin = await tokenFor('ADMIN', null);
    for (const id of ['999999', 'abc', '0', '-1', '1e3', '99999999999999']) {
      const res = await get(admin, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
    const distributor = await tokenFor('DISTRIBUTOR_ADMIN', org.id);
    expect((await get(distributor, unassignedId)).statusCode).toBe(404);
    expect((await get(admin, unassignedId)).statusCode).toBe(200);
  });

  it('says when a scan in scope has no replay', async () => {
    const res = await get(await tokenFor('ORG_ADMIN', child.id), noReplayId);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: REPLAY_MESSAGES.notAvailable });
    // Outside the scope the same scan is simply not found.
    const outside = await get(await tokenFor('ORG_ADMIN', other.id), noReplayId);
    expect(outside.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers 401 signed out and 403 to roles without a scan list, before looking at the id', async () => {
    expect((await get(null, scanId)).statusCode).toBe(401);
    for (const [type, orgId] of [
      ['TECHNICIAN', child.id],
      ['CERVAICAL_REVIEWER', null],
    ] as const) {
      const token = await tokenFor(type, orgId);
      for (const id of [scanId, 'abc']) {
        const res = await get(token, id);
        expect(res.statusCode, type).toBe(403);
        expect(res.json()).toEqual({ detail: AUTH_ERRORS.forbidden });
      }
    }
  });
});
