// Database-built rows (http/serializer.ts): production writes them as built; outside production the schema checks each
// answer, and a field the schema lacks fails instead of being trimmed (what production sends is what tests saw).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtRowsSerializer, extraField } from './serializer.ts';

const schema = z.object({
  count: z.number(),
  results: z.array(z.object({ id: z.number(), patient: z.object({ name: z.string() }).nullable() })),
});
const route = { schema, method: 'GET', url: '/api/v1/scan/', httpStatus: '200' };
const page = { count: 1, results: [{ id: 7, patient: { name: 'Anna' } }] };

describe('extraField', () => {
  it('names the first field the encoding lacks, at any depth, and ignores undefined values', () => {
    expect(extraField(page, page)).toBeNull();
    expect(extraField({ ...page, secret: 1 }, page)).toBe('secret');
    expect(extraField({ count: 1, results: [{ id: 7, patient: { name: 'A', mobile: 'x' } }] }, page)).toBe(
      'results[0].patient.mobile',
    );
    expect(extraField({ count: 1, gone: undefined }, { count: 1 })).toBeNull();
  });
});

describe('builtRowsSerializer', () => {
  it('checked: writes a valid answer, refuses a wrong type and a field the schema lacks', () => {
    const serialize = builtRowsSerializer(true)(route);
    expect(JSON.parse(serialize(page))).toEqual(page);
    expect(() => serialize({ count: '1', results: [] })).toThrow();
    expect(() => serialize({ count: 1, results: [{ id: 7, patient: null, search_text: 'anna' }] })).toThrow(
      'GET /api/v1/scan/ answered a field its response schema lacks: results[0].search_text',
    );
  });

  it('unchecked (production): writes the answer as built', () => {
    const serialize = builtRowsSerializer(false)(route);
    expect(serialize(page)).toBe(JSON.stringify(page));
  });
});
