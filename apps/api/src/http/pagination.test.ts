import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { paginate, pageUrl, parsePage } from './pagination.ts';

const req = (url: string) => ({ url });

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('parsePage', () => {
  it('defaults to page 1 of 10', () => {
    expect(parsePage({})).toEqual({ page: 1, limit: 10, offset: 0 });
  });

  it('reads strings from the query', () => {
    expect(parsePage({ page: '3', limit: '20' })).toEqual({ page: 3, limit: 20, offset: 40 });
  });

  it.each([
    [{ limit: '0' }, { limit: ['Ensure limit is greater than or equal to 1.'] }],
    [{ limit: '1001' }, { limit: ['Ensure limit is less than or equal to 1000.'] }],
    [{ limit: '2.5' }, { limit: ['A valid integer is required.'] }],
    [{ page: 'abc' }, { page: ['A valid integer is required.'] }],
    [{ page: '0' }, { page: ['Ensure page is greater than or equal to 1.'] }],
    [
      { page: '-1', limit: 'x' },
      { page: ['Ensure page is greater than or equal to 1.'], limit: ['A valid integer is required.'] },
    ],
  ])('refuses %o with a field error', (query, fields) => {
    const e = errorOf(() => parsePage(query));
    expect(e.status).toBe(400);
    expect(e.fields).toEqual(fields);
  });

  it.each(['0x10', '0o20', '0b10000', '1e1', '16.0', ' 16', '16 ', '+16', '', '１６'])(
    'reads only plain decimal digits as a number: limit=%j is refused',
    (limit) => {
      expect(errorOf(() => parsePage({ limit })).fields).toEqual({ limit: ['A valid integer is required.'] });
    },
  );

  it.each([
    [{ limit: ['1', '2'] }, { limit: ['Only one value is allowed.'] }],
    [{ page: ['1', '2'], limit: ['3', '4'] }, { page: ['Only one value is allowed.'], limit: ['Only one value is allowed.'] }],
  ])('names a parameter sent twice (%o) instead of failing to read it', (query, fields) => {
    const e = errorOf(() => parsePage(query));
    expect(e.status).toBe(400);
    expect(e.fields).toEqual(fields);
  });
});

describe('paginate', () => {
  it('builds the envelope with links that keep the other parameters', () => {
    const out = paginate(
      req('/api/v1/organization/?search=a%20b&limit=2&page=2&ordering=-name'),
      { page: 2, limit: 2 },
      5,
      ['c', 'd'],
    );
    expect(out).toEqual({
      count: 5,
      next: '/api/v1/organization/?search=a+b&limit=2&page=3&ordering=-name',
      previous: '/api/v1/organization/?search=a+b&limit=2&ordering=-name',
      results: ['c', 'd'],
    });
  });

  it('has no next link on the last page and no previous link on the first', () => {
    expect(paginate(req('/x/?limit=2&page=3'), { page: 3, limit: 2 }, 5, ['e'])).toMatchObject({
      next: null,
      previous: '/x/?limit=2&page=2',
    });
    expect(paginate(req('/x/'), { page: 1, limit: 10 }, 5, [])).toMatchObject({ next: null, previous: null });
    expect(paginate(req('/x/'), { page: 1, limit: 2 }, 5, [])).toMatchObject({
      next: '/x/?page=2',
      previous: null,
    });
  });

  it('accepts page 1 of an empty list', () => {
    expect(paginate(req('/x/'), { page: 1, limit: 10 }, 0, [])).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
  });

  it('answers 404 Invalid page. past the last page', () => {
    const e = errorOf(() => paginate(req('/x/?page=4&limit=2'), { page: 4, limit: 2 }, 5, []));
    expect([e.status, e.message]).toEqual([404, 'Invalid page.']);
    expect(errorOf(() => paginate(req('/x/?page=2'), { page: 2, limit: 10 }, 0, [])).status).toBe(404);
  });
});

describe('pageUrl', () => {
  it('replaces a repeated page parameter and keeps repeated other parameters', () => {
    expect(pageUrl(req('/x/?page=1&page=9&ids=1&ids=2'), 2)).toBe('/x/?page=2&ids=1&ids=2');
  });
});
