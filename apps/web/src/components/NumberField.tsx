// The console's one number field (issue 23.4): Mantine's NumberInput without its silent corrections. Mantine clamps
// to min/max on blur and drops a typed '-' or '.' when negatives or decimals are not allowed, so '-5' became 5 and
// then 12, 250 became 120 and '12.5' became 125. Here the field keeps what was typed and says on the field why it is
// refused, with the shared rule's message (packages/shared numbers.ts); the form's schema refuses it on submit too.
import { useState } from 'react';
import { NumberInput, type NumberInputProps } from '@mantine/core';
import { outOfRangeMessage, type RangeMessages } from '@sc/shared/numbers';

export type NumberFieldProps = Omit<NumberInputProps, 'clampBehavior' | 'allowNegative' | 'allowDecimal'> & {
  /** Whole numbers only: a decimal stays as typed and is refused with the integer message. */
  integer?: boolean;
  /** The rule's own wording of its range (else the house 'Ensure this value is …' messages). */
  rangeMessage?: RangeMessages;
};

/**
 * A number input that never changes what was typed. The range message shows once the field has been left (not on
 * every keystroke of '1' on the way to '15'), then follows the value; an `error` from the form wins.
 */
export function NumberField({ integer = false, rangeMessage, error, min, max, onBlur, ...rest }: NumberFieldProps) {
  const [left, setLeft] = useState(false);
  const problem = left && !rest.readOnly ? outOfRangeMessage(rest.value, { min, max, integer }, rangeMessage) : null;
  return (
    <NumberInput
      {...rest}
      min={min}
      max={max}
      clampBehavior="none"
      allowNegative
      allowDecimal
      error={error || problem || undefined}
      onBlur={(event) => {
        setLeft(true);
        onBlur?.(event);
      }}
    />
  );
}
