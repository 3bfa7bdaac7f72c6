// The range rule the schemas and the console's NumberField share (issue 23.4).
import { describe, expect, it } from 'vitest';
import { INTEGER_MESSAGE, maxValueMessage, minValueMessage, outOfRangeMessage } from './numbers.ts';

describe('outOfRangeMessage', () => {
  it('says which side of the range a number (or numeric text) is on', () => {
    expect(outOfRangeMessage(-5, { min: 12, max: 120 })).toBe(minValueMessage(12));
    expect(outOfRangeMessage('250', { min: 12, max: 120 })).toBe(maxValueMessage(120));
    expect(outOfRangeMessage(12, { min: 12, max: 120 })).toBeNull();
    expect(outOfRangeMessage(120, { min: 12, max: 120 })).toBeNull();
  });

  it('refuses a fraction where whole numbers are asked for', () => {
    expect(outOfRangeMessage(12.5, { min: 0, integer: true })).toBe(INTEGER_MESSAGE);
    expect(outOfRangeMessage(12.5, { min: 0 })).toBeNull();
  });

  it("uses a rule's own words, for every side or one", () => {
    expect(outOfRangeMessage(-1, { min: 0, max: 9 }, 'Zero to nine.')).toBe('Zero to nine.');
    expect(outOfRangeMessage(-1, { min: 0, max: 9 }, { below: 'Zero or more.' })).toBe('Zero or more.');
    expect(outOfRangeMessage(10, { min: 0, max: 9 }, { below: 'Zero or more.' })).toBe(maxValueMessage(9));
  });

  it('leaves text that is no number yet to the schema', () => {
    expect(outOfRangeMessage('', { min: 1 })).toBeNull();
    expect(outOfRangeMessage('-', { min: 1 })).toBeNull();
    expect(outOfRangeMessage(undefined, { min: 1 })).toBeNull();
  });
});
