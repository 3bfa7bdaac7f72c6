import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from '../db/schema/index.ts';
import { AppError } from './errors.ts';
import { parseOrdering, parseOrderingTerms } from './ordering.ts';

const dialect = new PgDialect();
const whitelist = {
  name: organizations.name,
  created: organizations.created,
  id: organizations.id,
  country: organizations.country,
};
const render = (raw: string | undefined, def = '-created') =>
  dialect.sqlToQuery(sql.join(parseOrdering(raw, whitelist, def), sql`, `)).sql;

describe('parseOrdering', () => {
  it('orders by a comma list with - for descending and appends the id as a tie-breaker', () => {
    expect(render('name,-created')).toBe(
      '"organizations"."name" asc, "organizations"."created" desc, "organizations"."id" desc',
    );
  });

  it('uses the default ordering when none is given or the value is blank', () => {
    expect(render(undefined)).toBe('"organizations"."created" desc, "organizations"."id" desc');
    expect(render(' , ')).toBe('"organizations"."created" desc, "organizations"."id" desc');
  });

  it('does not append the id again when the id is already a term', () => {
    expect(render('-id')).toBe('"organizations"."id" desc');
    expect(render('id,name')).toBe('"organizations"."id" asc, "organizations"."name" asc');
  });

  it('ignores spaces and repeated fields', () => {
    expect(render(' country , -country')).toBe('"organizations"."country" asc, "organizations"."id" asc');
  });

  it.each([
    ['password', 'password'],
    ['name,tree_path', 'tree_path'],
    ['-', ''],
    ['constructor', 'constructor'],
  ])('refuses %s with a field error on ordering', (raw, field) => {
    try {
      parseOrdering(raw, whitelist, '-created');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).fields).toEqual({ ordering: [`Invalid ordering field: ${field}.`] });
    }
  });

  it('uses an explicit tie-breaker when the whitelist has no id', () => {
    const out = parseOrdering('name', { name: organizations.name }, 'name', { tieBreaker: organizations.id });
    expect(dialect.sqlToQuery(sql.join(out, sql`, `)).sql).toBe(
      '"organizations"."name" asc, "organizations"."id" asc',
    );
  });

  it('returns the parsed terms for callers that order in memory', () => {
    expect(parseOrderingTerms('-name,id', whitelist)).toEqual([
      { field: 'name', descending: true },
      { field: 'id', descending: false },
    ]);
  });
});
