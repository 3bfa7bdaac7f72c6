import { describe, expect, it } from 'vitest';
import type { Position } from 'geojson';
import { worldCopiesInView } from './basemap.ts';
import { closeAroundPole, countryOutlines, unwrapLongitudes } from './countryOutlines.ts';

const atPole = (p: Position | undefined) => Math.abs(p?.[1] ?? 0) === 90;

/**
 * The largest longitude step between neighbouring points of any line: over 180° Leaflet draws a stripe across the
 * map. An edge along a pole is left out: Leaflet draws it on the edge of its world.
 */
const widestStep = (lines: Position[][]): number =>
  Math.max(
    ...lines.flatMap((line) =>
      line
        .slice(1)
        .map((p, i) => (atPole(p) && atPole(line[i]) ? 0 : Math.abs((p[0] ?? 0) - (line[i]?.[0] ?? 0)))),
    ),
  );

describe('unwrapLongitudes', () => {
  it('leaves a line that does not cross the antimeridian as it is', () => {
    const line = [
      [10, 1],
      [20, 2],
      [15, 3],
      [10, 1],
    ];
    expect(unwrapLongitudes(line)).toEqual(line);
  });

  it('moves the points past a 180 → -180 jump by 360° so the shape stays in one piece', () => {
    expect(
      unwrapLongitudes([
        [178, 65],
        [180, 66],
        [-180, 66],
        [-175, 67],
        [179, 64],
      ]),
    ).toEqual([
      [178, 65],
      [180, 66],
      [180, 66],
      [185, 67],
      [179, 64],
    ]);
  });

  it('moves them by -360° the other way round', () => {
    expect(
      unwrapLongitudes([
        [-179, -16],
        [179, -16.5],
        [-179.5, -17],
      ]),
    ).toEqual([
      [-179, -16],
      [-181, -16.5],
      [-179.5, -17],
    ]);
  });
});

describe('closeAroundPole', () => {
  it('closes a ring around the south pole through the pole', () => {
    const ring = [
      [-180, -84],
      [0, -70],
      [180, -84],
    ];
    expect(closeAroundPole(ring)).toEqual([...ring, [180, -90], [-180, -90], [-180, -84]]);
  });

  it('leaves every other ring as it is', () => {
    const ring = [
      [10, 1],
      [20, 2],
      [10, 1],
    ];
    expect(closeAroundPole(ring)).toBe(ring);
  });
});

describe('the bundled country outlines (world-atlas 110m)', () => {
  const outlines = countryOutlines();

  it('has land on every continent and borders between countries', () => {
    expect(outlines.land.coordinates.length).toBeGreaterThan(100);
    expect(outlines.borders.coordinates.length).toBeGreaterThan(100);
  });

  it('has no edge across the whole world (Russia, Fiji and Antarctica cross the antimeridian)', () => {
    const rings = outlines.land.coordinates.flat();
    expect(widestStep(rings)).toBeLessThan(180);
    expect(widestStep(outlines.borders.coordinates)).toBeLessThan(180);
    // Antarctica reaches the pole.
    expect(Math.min(...rings.flat().map((p) => p[1] ?? 0))).toBe(-90);
    // Chukotka is drawn east of 180° rather than split.
    expect(Math.max(...rings.flat().map((p) => p[0] ?? 0))).toBeGreaterThan(180);
  });

  it('is converted once per page', () => {
    expect(countryOutlines()).toBe(outlines);
  });
});

describe('worldCopiesInView', () => {
  it('draws one world for a view inside it', () => {
    expect(worldCopiesInView(0, 30)).toEqual([0]);
  });

  it('draws the next world east for a view across the antimeridian', () => {
    expect(worldCopiesInView(170, 200)).toEqual([0, 1]);
  });

  it('draws every world a zoomed-out view repeats', () => {
    expect(worldCopiesInView(-600, 600)).toEqual([-2, -1, 0, 1, 2]);
  });
});
