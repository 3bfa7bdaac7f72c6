// The patient form's follow-up reminder consent (issue 26): whether the patient agreed to reminder SMS, and the
// language she gave it in, chosen from the Languages list (its iso codes, lower case as the API keeps them).
import { Checkbox, Select } from '@mantine/core';
import { useLanguages } from '../../languages/languages.api.ts';

export function PatientConsentFields({
  consent,
  language,
  onConsentChange,
  onLanguageChange,
  errors,
}: {
  consent: boolean;
  language: string | null;
  onConsentChange: (consent: boolean) => void;
  onLanguageChange: (language: string | null) => void;
  errors: { reminder_consent?: string; consent_language?: string };
}) {
  const languages = useLanguages({ page: 1, limit: 100, ordering: 'name' });
  const data = (languages.data?.results ?? []).map((l) => ({
    value: l.iso_code.toLowerCase(),
    label: l.name,
  }));
  if (language && !data.some((o) => o.value === language)) data.push({ value: language, label: language });
  return (
    <>
      <Checkbox
        label="Reminder SMS consent"
        description="The patient agreed to follow-up reminders by SMS (never the finding)."
        checked={consent}
        onChange={(e) => onConsentChange(e.currentTarget.checked)}
        error={errors.reminder_consent}
        mt="md"
        data-testid="patient-reminder-consent"
      />
      <Select
        label="Consent language"
        placeholder="Choose a language"
        clearable
        searchable
        data={data}
        value={language}
        onChange={onLanguageChange}
        error={errors.consent_language}
        comboboxProps={{ withinPortal: true }}
        data-testid="patient-consent-language"
      />
    </>
  );
}
