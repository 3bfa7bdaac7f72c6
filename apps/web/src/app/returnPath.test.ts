import { describe, expect, it } from 'vitest';
import { loginUrl, safeReturnPath } from './returnPath.ts';

describe('safeReturnPath (issue 23.11: no open redirect)', () => {
  it.each([
    ['/scan?search=asha', '/scan?search=asha'],
    ['/organization/12?tab=scans#top', '/organization/12?tab=scans#top'],
    ['/scan/../patient', '/patient'],
  ])('keeps the console path %s', (raw, expected) => {
    expect(safeReturnPath(raw)).toBe(expected);
  });

  it.each([
    '//evil.com',
    '//evil.com/scan',
    'https://evil',
    'https://evil.com/scan',
    'http:/evil.com',
    '/\\evil.com',
    '/\t/evil.com',
    'javascript:alert(1)',
    'scan',
    '',
    null,
    '/login?next=/scan',
    '/register',
  ])('refuses %s', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });

  it('builds the login URL with the reason and the page', () => {
    expect(loginUrl('/scan?search=a b', true)).toBe('/login?expired=1&next=%2Fscan%3Fsearch%3Da%2520b');
    expect(loginUrl('/')).toBe('/login');
    expect(loginUrl('//evil.com')).toBe('/login');
  });
});
