// Language row → API shape (architecture §7b: name, iso_code, is_tutorial_available, app_version; part 1 §3 adds
// ibe_consent_form).
import type { TLanguage } from '@sc/shared/languages';
import type { LanguageRow } from './languages.queries.ts';

export function presentLanguage(row: LanguageRow): TLanguage {
  return {
    id: row.id,
    name: row.name,
    iso_code: row.isoCode,
    is_tutorial_available: row.isTutorialAvailable,
    app_version: row.appVersionId,
    ibe_consent_form: row.ibeConsentForm,
  };
}
