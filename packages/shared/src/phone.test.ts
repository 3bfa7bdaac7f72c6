import { describe, expect, it } from 'vitest';
import { keepPhoneCharacters, leadingCallingCode, mobileProblem, phoneSearchForm } from './phone.ts';
import { MESSAGES, parseMobile } from './validation.ts';

describe('one mobile number however typed (issue 23.3)', () => {
  it('reads +91 with spaces, hyphens, brackets or a trunk 0 as the same Indian number', () => {
    for (const typed of [
      '9876543210',
      '+91 98765 43210',
      '+919876543210',
      '98765-43210',
      '(98765) 43210',
      '09876543210',
    ]) {
      expect(parseMobile(typed, 'IN')?.stored, typed).toBe('+91-9876543210');
      expect(mobileProblem(typed, 'IN'), typed).toBeNull();
    }
  });

  it('says so when the typed dial code is another country’s', () => {
    expect(mobileProblem('+44 7911 123456', 'IN')).toBe(
      "This number's dial code (+44) is not the chosen country's (+91). Choose the number’s country, or type it " +
        'without the dial code.',
    );
    expect(mobileProblem('+44 7911 123456', 'GB')).toBeNull();
  });

  it('refuses other wrong numbers with the spec’s message', () => {
    expect(mobileProblem('12345', 'IN')).toBe(MESSAGES.invalidPhone);
    expect(mobileProblem('+91 12345', 'IN')).toBe(MESSAGES.invalidPhone);
    expect(mobileProblem('+1555', 'IN')).toBe(MESSAGES.invalidPhone);
    expect(mobileProblem('98765abc01', 'IN')).toBe(MESSAGES.invalidPhone);
    expect(mobileProblem('9876543210', null)).toBe(MESSAGES.invalidPhone);
  });

  it('keeps digits, separators and one leading + of pasted text', () => {
    expect(keepPhoneCharacters('Tel: +91 98765 43210')).toBe('+91 98765 43210');
    expect(keepPhoneCharacters('+91+98765')).toBe('+9198765');
    expect(keepPhoneCharacters('98765+43210')).toBe('9876543210');
    expect(keepPhoneCharacters('(98765) 43-210.')).toBe('(98765) 43-210.');
  });

  it('finds the calling code at the start of the digits', () => {
    expect(leadingCallingCode('919582814405')).toBe('91');
    expect(leadingCallingCode('14155550123')).toBe('1');
    expect(leadingCallingCode('254712345678')).toBe('254');
    expect(leadingCallingCode('')).toBeNull();
  });
});

describe('phone search form (issue 23.3)', () => {
  it('turns every way of typing a number into a substring of the stored form', () => {
    const stored = '+91-9582814405';
    for (const term of ['+919582814405', '95828 14405', '+91 95828 14405', '+91-95828-14405', '9582814405']) {
      const form = phoneSearchForm(term) ?? term;
      expect(stored.includes(form), `${term} → ${form}`).toBe(true);
    }
    expect(phoneSearchForm('+91 958')).toBe('+91-958');
  });

  it('leaves names, e-mails, short numbers and terms already in their form alone', () => {
    expect(phoneSearchForm('Priya')).toBeNull();
    expect(phoneSearchForm('priya@example.com')).toBeNull();
    expect(phoneSearchForm('12 3')).toBeNull();
    expect(phoneSearchForm('9582814405')).toBeNull();
    expect(phoneSearchForm('+91-9582814405')).toBeNull();
  });
});
