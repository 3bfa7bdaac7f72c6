import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from '@sc/shared/bookings';
import { CATALOGUES, createI18n, pickLanguage } from './i18n.ts';
import { en } from './locales/en.ts';

/** Every leaf key of a catalogue, dotted ('booking.statuses.NEW'). */
const keysOf = (value: object, prefix = ''): string[] =>
  Object.entries(value).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keysOf(v as object, `${prefix}${k}.`),
  );

describe('message catalogues (issue 23 item 17)', () => {
  it.each(Object.keys(CATALOGUES))(
    '%s has every key of English, each with words and its placeholders',
    (iso) => {
      const catalogue = CATALOGUES[iso]!;
      expect(keysOf(catalogue).sort()).toEqual(keysOf(en).sort());
      const text = (c: object, key: string) =>
        key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], c) as string;
      for (const key of keysOf(en)) {
        expect(text(catalogue, key).trim(), key).not.toBe('');
        const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
        expect(holes(text(catalogue, key)), `${iso} ${key}`).toEqual(holes(text(en, key)));
      }
    },
  );

  it('names every booking status in every language', () => {
    for (const catalogue of Object.values(CATALOGUES)) {
      for (const status of BOOKING_STATUSES) expect(catalogue.booking.statuses[status]).toMatch(/\S/);
    }
  });

  it('falls back to English for a language without a catalogue', () => {
    const i18n = createI18n('yo');
    expect(i18n.t('chooseDay', { ns: 'booking' })).toBe('Choose a day');
    expect(createI18n('hi').t('chooseDay', { ns: 'booking' })).toBe('दिन चुनें');
  });
});

describe('pickLanguage', () => {
  it('takes the stored choice if offered, else the first offered browser language, else English', () => {
    expect(pickLanguage(['en', 'hi'], ['hi-IN', 'en'], null)).toBe('hi');
    expect(pickLanguage(['en', 'hi'], ['hi-IN'], 'en')).toBe('en');
    expect(pickLanguage(['en', 'es'], ['fr-FR', 'ES'], 'hi')).toBe('es');
    expect(pickLanguage(['en', 'sw'], ['yo-NG'], null)).toBe('en');
    expect(pickLanguage(['en'], [], null)).toBe('en');
  });
});
