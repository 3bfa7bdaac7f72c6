// The user form's mobile number (part 2 §5): digits only, paste blocked (and dropping text), so the number is typed
// as the country's national number; the country picker beside it gives the dial code.
import type { ClipboardEvent, DragEvent } from 'react';
import { TextInput } from '@mantine/core';

/** The national part of a stored mobile ('+91-9876543210' → '9876543210'); '' for none. */
export const nationalPart = (stored: string | null | undefined): string => {
  if (!stored) return '';
  const dash = stored.indexOf('-');
  return (dash >= 0 ? stored.slice(dash + 1) : stored).replace(/\D/g, '');
};

type MobileNumberInputProps = {
  label: string;
  value: string;
  onChange: (digits: string) => void;
  error?: string;
  disabled?: boolean;
  testId?: string;
};

const block = (event: ClipboardEvent | DragEvent) => event.preventDefault();

export function MobileNumberInput({ label, value, onChange, error, disabled, testId }: MobileNumberInputProps) {
  return (
    <TextInput
      label={label}
      inputMode="numeric"
      autoComplete="tel-national"
      value={value}
      disabled={disabled}
      error={error}
      onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, ''))}
      onPaste={block}
      onDrop={block}
      data-testid={testId}
    />
  );
}
