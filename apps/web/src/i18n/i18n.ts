// One i18next instance for the console (issue 23 item 17): the catalogues of catalogue.ts, English as the fallback
// for a language or a key without words, and the choice of a language among those a page may speak.
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Catalogue } from './catalogue.ts';
import { en } from './locales/en.ts';
import { es } from './locales/es.ts';
import { fr } from './locales/fr.ts';
import { hi } from './locales/hi.ts';
import { sw } from './locales/sw.ts';
import { tl } from './locales/tl.ts';

export const FALLBACK_LANGUAGE = 'en';

/** Every language with a catalogue, by ISO 639-1 code (the Language menu's iso_code). */
export const CATALOGUES: Readonly<Record<string, Catalogue>> = { en, hi, es, fr, sw, tl };
export const hasCatalogue = (iso: string): boolean => Object.hasOwn(CATALOGUES, iso.toLowerCase());

export function createI18n(language = FALLBACK_LANGUAGE): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: Object.keys(CATALOGUES),
    resources: Object.fromEntries(Object.entries(CATALOGUES).map(([iso, catalogue]) => [iso, catalogue])),
    ns: Object.keys(en),
    defaultNS: 'booking',
    // React escapes what it renders; i18next escaping again would show '&amp;' in a clinic's name.
    interpolation: { escapeValue: false },
    // The catalogues are in the bundle: ready before the first render, no flash of keys.
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

/** The console's instance; components read it through react-i18next's useTranslation. */
export const i18n = createI18n();

/**
 * The language a page opens in: the patient's earlier choice if the page still offers it, else the first of the
 * browser's languages (region ignored: 'hi-IN' is 'hi') that the page offers, else English. `offered` holds only
 * languages with a catalogue.
 */
export function pickLanguage(
  offered: readonly string[],
  browser: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
  stored?: string | null,
): string {
  const ok = new Set(offered.map((iso) => iso.toLowerCase()));
  if (stored && ok.has(stored.toLowerCase())) return stored.toLowerCase();
  for (const tag of browser) {
    const base = tag.split('-')[0]?.toLowerCase() ?? '';
    if (ok.has(base)) return base;
  }
  return FALLBACK_LANGUAGE;
}

/** A BCP 47 tag for Intl: the language with the organization's country ('hi-IN', 'es-MX'), or the language alone. */
export function localeTag(iso: string, country: string | null | undefined): string {
  const tag = country ? `${iso}-${country.toUpperCase()}` : iso;
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0 ? tag : iso;
  } catch {
    return iso;
  }
}
