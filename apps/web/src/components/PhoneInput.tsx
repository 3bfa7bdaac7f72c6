// The one phone number field of the console (issue 23.3): the user form, the patient form, the organization's company
// contact, sign-in by mobile code and the public booking page. Typing and pasting are allowed; spaces, hyphens,
// brackets and a leading +dial code are kept as typed (the API stores the number in one form, shared phone.ts), other
// characters are dropped. The chosen country's dial code shows in the field, and a wrong number says so on the field
// as soon as the person leaves it, in the words the API would answer (mobileProblem), not only on submit.
import { useState, type FocusEvent, type ReactNode } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { dialCodeOfCountry, keepPhoneCharacters, mobileProblem } from '@sc/shared/phone';

export type PhoneInputProps = Omit<TextInputProps, 'value' | 'onChange' | 'error' | 'leftSection'> & {
  value: string;
  onChange: (value: string) => void;
  /** ISO code of the country the number is read in ('IN'); its dial code shows in the field. */
  country: string | null | undefined;
  /** The form's error (submit, or the API's answer); it wins over the field's own check. */
  error?: ReactNode;
  testId?: string;
  /** The field's own message in the page's language (the public booking page); English as the API words it else. */
  translateMessage?: (message: string) => string;
};

export function PhoneInput({ value, onChange, country, error, testId, onBlur, translateMessage, ...props }: PhoneInputProps) {
  // Checked when the person leaves the field, and again (as rendered) when the country changes; typing clears it.
  const [checked, setChecked] = useState(false);
  const dial = dialCodeOfCountry(country);
  const message = checked && value.trim() ? mobileProblem(value, country) : null;
  const problem = message && translateMessage ? translateMessage(message) : message;

  return (
    <TextInput
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      {...props}
      value={value}
      leftSection={dial ? <span data-testid={testId ? `${testId}-dial` : undefined}>{dial}</span> : undefined}
      leftSectionWidth={dial ? 12 + dial.length * 9 : undefined}
      onChange={(event) => {
        setChecked(false);
        onChange(keepPhoneCharacters(event.currentTarget.value));
      }}
      onBlur={(event: FocusEvent<HTMLInputElement>) => {
        setChecked(true);
        onBlur?.(event);
      }}
      error={error || problem || undefined}
      data-testid={testId}
    />
  );
}
