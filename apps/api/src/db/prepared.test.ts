// preparedQueries (db/client.ts): one build per database handle and shape, unique statement names, a bounded number
// of named shapes; and the list shapes that choose them (a value never changes a shape, a filter written as SQL does).
import { describe, expect, it } from 'vitest';
import { PREPARED_SHAPES_MAX, placeholdersOf, preparedQueries, type Db } from './client.ts';
import { scanListShape } from '../modules/scans/scan-list.queries.ts';
import { patientListShape } from '../modules/patients/patients.queries.ts';

const fakeDb = () => ({}) as Db;

describe('preparedQueries', () => {
  it('builds a shape once per handle, names each build uniquely, and reuses it', () => {
    const builds: { name: string; args: number }[] = [];
    const get = preparedQueries('t', (_db, name, args: number) => {
      builds.push({ name, args });
      return { name };
    });
    const a = fakeDb();
    const b = fakeDb();
    const first = get(a, 'x', 1);
    expect(get(a, 'x', 2)).toBe(first);
    const other = get(a, 'y', 3);
    const onB = get(b, 'x', 4);
    expect(builds.map((x) => x.args)).toEqual([1, 3, 4]);
    const names = [first.name, other.name, onB.name];
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n).toMatch(/^t_\d+$/);
  });

  it(`names at most ${PREPARED_SHAPES_MAX} shapes per handle; later shapes are built unnamed on every call`, () => {
    const get = preparedQueries('cap', (_db, name) => ({ name }));
    const db = fakeDb();
    for (let i = 0; i < PREPARED_SHAPES_MAX; i++) expect(get(db, `s${i}`, undefined).name).not.toBe('');
    const extra = get(db, 'one more', undefined);
    expect(extra.name).toBe('');
    expect(get(db, 'one more', undefined)).not.toBe(extra);
    expect(get(db, 's0', undefined).name).not.toBe('');
  });

  it('placeholdersOf records each bound value under its name', () => {
    const { bind, values } = placeholdersOf();
    bind('from', '2026-01-01T00:00:00.000Z');
    bind('organizationId', 7);
    expect(values).toEqual({ from: '2026-01-01T00:00:00.000Z', organizationId: 7 });
  });
});

describe('list shapes', () => {
  const all = { kind: 'all' } as const;
  const range = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') };

  it('scans: values share a shape; set filters, SQL-written booleans and the scope do not', () => {
    const base = scanListShape(all, { range, organizationId: 1 });
    expect(scanListShape(all, { range: { from: new Date(0), to: new Date(1) }, organizationId: 99 })).toBe(base);
    expect(scanListShape(all, { range, organizationId: 1, isPositive: true })).toBe(
      scanListShape(all, { range, organizationId: 1, isPositive: false }),
    );
    const distinct = [
      base,
      scanListShape(all, { range: {}, organizationId: 1 }),
      scanListShape(all, { range: { from: range.from }, organizationId: 1 }),
      scanListShape(all, { range }),
      scanListShape(all, { range, leftFinding: true }),
      scanListShape(all, { range, leftFinding: false }),
      scanListShape(all, { range, isDuplicate: true }),
      scanListShape(all, { range, isDuplicate: false }),
      scanListShape(all, { range, hasOrganization: true }),
      scanListShape(all, { range, hasOrganization: false }),
      scanListShape({ kind: 'orgs', exact: [1], subtreePaths: [] }, { range, organizationId: 1 }),
      scanListShape({ kind: 'orgs', exact: [2], subtreePaths: [] }, { range, organizationId: 1 }),
    ];
    expect(new Set(distinct).size).toBe(distinct.length);
  });

  it('scans: a search, ids, ages or a technician type are planned per call (no shape)', () => {
    expect(scanListShape(all, { range, search: 'sha' })).toBeNull();
    expect(scanListShape(all, { range, ids: [1, 2] })).toBeNull();
    expect(scanListShape(all, { range, ageMin: 40 })).toBeNull();
    expect(scanListShape(all, { range, ageMax: 40 })).toBeNull();
    expect(scanListShape(all, { range, technicianType: 'TECHNICIAN' })).toBeNull();
  });

  it('patients: values share a shape; a name search has none', () => {
    expect(patientListShape(all, { created: range, organizationId: 1 })).toBe(
      patientListShape(all, { created: { from: new Date(5), to: new Date(6) }, organizationId: 2 }),
    );
    expect(patientListShape(all, { created: range, assigned: true })).not.toBe(
      patientListShape(all, { created: range, assigned: false }),
    );
    expect(patientListShape(all, { created: range, organizationId: 1 })).not.toBe(
      patientListShape(all, { created: range, technicianId: 1 }),
    );
    expect(patientListShape(all, { created: range, search: 'sha' })).toBeNull();
    expect(patientListShape(all, { created: range, search: '  ' })).not.toBeNull();
  });
});
