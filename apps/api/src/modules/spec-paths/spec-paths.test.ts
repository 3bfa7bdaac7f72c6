// Every METHOD + path the specification names is in the OpenAPI document the API serves (issue 23.21). The list is
// data kept in the repo (spec-paths.json, written from the spec's three parts by scripts/spec-paths.mjs); a route
// removed or renamed fails here with the spec's citation.
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import specPaths from './spec-paths.json' with { type: 'json' };

type SpecPath = { method: string; path: string; cite: string };
type NotServed = SpecPath & { reason: string };

const t = await setupTestApp();

/** '/api/v1/scan/{id}/transfer/' → '/api/v1/scan/{}/transfer/': parameter names are the product's business. */
const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}');

function servedOperations(): Set<string> {
  const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
  const served = new Set<string>();
  for (const [p, operations] of Object.entries(doc.paths)) {
    for (const method of Object.keys(operations)) served.add(`${method.toUpperCase()} ${shape(p)}`);
  }
  return served;
}

describe("the specification's paths", () => {
  const paths = specPaths.paths as SpecPath[];
  const notServed = specPaths.not_served as NotServed[];

  it('holds the paths of the three parts (a sanity check of the data file)', () => {
    expect(specPaths.parts).toHaveLength(3);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/v1/scan/from/ids/' }));
    expect(paths).toContainEqual(expect.objectContaining({ method: 'PUT', path: '/api/v1/firmware/{id}/' }));
  });

  it('are each served at that path with that method (OpenAPI document)', () => {
    const served = servedOperations();
    const missing = paths.filter((p) => !served.has(`${p.method} ${shape(p.path)}`)).map((p) => `${p.method} ${p.path} (${p.cite})`);
    expect(missing).toEqual([]);
  });

  it('lists as not served only what the spec leaves open, each with its reason, and none that is served', () => {
    const served = servedOperations();
    expect(notServed.map((n) => `${n.method} ${n.path}`)).toEqual(['GET /api/v1/organization/date/']);
    for (const n of notServed) {
      expect(n.reason.length).toBeGreaterThan(20);
      expect(served.has(`${n.method} ${shape(n.path)}`), `${n.path} is served now: move it to paths`).toBe(false);
    }
  });
});
