import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { organizations } from '../db/schema/index.ts';
import { createTestDatabase } from '../test/database.ts';
import { concatColumns, escapeLike, searchCondition } from './search.ts';

let database: Database;
const ids: number[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const rows = await database.db
    .insert(organizations)
    .values([
      { name: '100% Clinic', address1: 'Main Road' },
      { name: '1000 Clinic', address2: 'Lake_View' },
      { name: 'Back\\slash Care', address3: 'Pune' },
      { name: 'Garcia Health', address1: null, address2: 'Lake View' },
    ])
    .returning();
  ids.push(...rows.map((r) => r.id));
});
afterAll(async () => {
  await database.close();
});

async function namesMatching(term: string | undefined): Promise<string[]> {
  const rows = await database.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(
      and(
        inArray(organizations.id, ids),
        searchCondition(term, [
          organizations.name,
          concatColumns([organizations.address1, organizations.address2, organizations.address3]),
        ]),
      ),
    );
  return rows.map((r) => r.name).sort();
}

describe('searchCondition', () => {
  it('matches a substring case-insensitively in any of the columns', async () => {
    expect(await namesMatching('garc')).toEqual(['Garcia Health']);
    expect(await namesMatching('PUNE')).toEqual(['Back\\slash Care']);
    expect(await namesMatching('lake')).toEqual(['1000 Clinic', 'Garcia Health']);
  });

  it('treats % and _ in the term as themselves, not as wildcards', async () => {
    expect(await namesMatching('100%')).toEqual(['100% Clinic']);
    expect(await namesMatching('Lake_')).toEqual(['1000 Clinic']);
    expect(await namesMatching('%')).toEqual(['100% Clinic']);
  });

  it('treats a backslash in the term as itself', async () => {
    expect(await namesMatching('k\\s')).toEqual(['Back\\slash Care']);
  });

  it('does not filter for a blank term', async () => {
    expect(searchCondition('  ', [organizations.name])).toBeUndefined();
    expect(await namesMatching(undefined)).toHaveLength(4);
  });

  it('escapes wildcards', () => {
    expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
  });
});
