// Number ranges: the house messages for a number outside its range, used by the schemas (API and console) and by
// the console's NumberField, which shows the same message on the field as it is typed (issue 23.4: nothing is
// clamped or coerced behind the user's back; an out-of-range number stays as typed and says why it is refused).

export const minValueMessage = (min: number): string => `Ensure this value is greater than or equal to ${min}.`;
export const maxValueMessage = (max: number): string => `Ensure this value is less than or equal to ${max}.`;

export const INTEGER_MESSAGE = 'A valid integer is required.';

/** A field's numeric rule: its range, whole numbers only or not. */
export type NumberRange = { min?: number; max?: number; integer?: boolean };

/** A rule's own words for its range: one message for every failure, or one per side. */
export type RangeMessages = string | { below?: string; above?: string; integer?: string };

/**
 * The message for `value` outside `range` (or not whole where it must be), else null. `messages` replace the house
 * messages where a rule words its range itself ('Age must be between 12 and 120.'). A value that is not a number
 * yet ('', '-') is left to the schema: the range says nothing about it.
 */
export function outOfRangeMessage(value: unknown, range: NumberRange, messages?: RangeMessages): string | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return null;
  const own = typeof messages === 'string' ? { below: messages, above: messages, integer: messages } : (messages ?? {});
  if (range.integer && !Number.isInteger(n)) return own.integer ?? INTEGER_MESSAGE;
  if (range.min !== undefined && n < range.min) return own.below ?? minValueMessage(range.min);
  if (range.max !== undefined && n > range.max) return own.above ?? maxValueMessage(range.max);
  return null;
}
