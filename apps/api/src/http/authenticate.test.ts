import { describe, expect, it } from 'vitest';
import { isValidTimezone } from './authenticate.ts';

describe('isValidTimezone', () => {
  it('accepts IANA names and refuses offsets and free text', () => {
    expect(isValidTimezone('Asia/Kolkata')).toBe(true);
    expect(isValidTimezone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isValidTimezone('UTC')).toBe(true);
    expect(isValidTimezone('Mars/Olympus')).toBe(false);
    expect(isValidTimezone('+05:30')).toBe(false);
    expect(isValidTimezone('Asia/Kolkata; DROP TABLE')).toBe(false);
  });
});
