// An organization's follow-up settings (issue 26), the Follow-up tab of its page: the days allowed in each active
// state, the daily digest of overdue cases, the patient reminder SMS and its text per language (placeholders
// listed, a counter to FOLLOW_UP_SMS_TEXT_MAX). Checked with the shared schema; the API's field errors show on
// their fields. GET/PUT organization/{id}/follow-up-settings/.
import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  ACTIVE_FOLLOW_UP_STATUSES,
  FOLLOW_UP_DUE_DAYS_MAX,
  FOLLOW_UP_DUE_DAYS_MIN,
  FOLLOW_UP_DUE_FIELDS,
  FOLLOW_UP_DUE_FIELD_LABELS,
  FOLLOW_UP_MESSAGES,
  FOLLOW_UP_SMS_PLACEHOLDERS,
  FOLLOW_UP_SMS_TEXT_MAX,
  ZFollowUpSettingsInput,
  type TFollowUpSettings,
  type TFollowUpSettingsInput,
} from '@sc/shared/follow-up';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { NumberField } from '../../../components/NumberField.tsx';
import { QueryDetail } from '../../../components/QueryDetail.tsx';
import { useLanguages } from '../../languages/languages.api.ts';
import { useFollowUpSettings, useSaveFollowUpSettings } from '../follow-up.api.ts';
import { apiFieldErrors } from './followUpForm.ts';

type DueField = (typeof FOLLOW_UP_DUE_FIELDS)[keyof typeof FOLLOW_UP_DUE_FIELDS];
type Values = Omit<TFollowUpSettingsInput, DueField> & Record<DueField, number | string>;

/** field → message of the settings as the shared schema checks them ('sms_texts.en' for one text). */
export function settingsErrors(values: Values): Record<string, string> {
  const parsed = ZFollowUpSettingsInput.safeParse(values);
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.map(String).join('.') || 'non_field_errors';
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

export function FollowUpSettingsPanel({ organizationId }: { organizationId: number }) {
  return (
    <QueryDetail query={useFollowUpSettings(organizationId)}>
      {(settings) => <FollowUpSettingsForm key={JSON.stringify(settings)} organizationId={organizationId} settings={settings} />}
    </QueryDetail>
  );
}

export function FollowUpSettingsForm({
  organizationId,
  settings,
}: {
  organizationId: number;
  settings: TFollowUpSettings;
}) {
  const save = useSaveFollowUpSettings(organizationId);
  const languages = useLanguages({ page: 1, limit: 100, ordering: 'name' });
  const [values, setValues] = useState<Values>({
    contact_days: settings.contact_days,
    referral_days: settings.referral_days,
    seen_days: settings.seen_days,
    outcome_days: settings.outcome_days,
    digest_enabled: settings.digest_enabled,
    sms_enabled: settings.sms_enabled,
    sms_texts: { ...settings.sms_texts },
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const patch = (p: Partial<Values>, clear: string[]) => {
    setValues((v) => ({ ...v, ...p }));
    setErrors((e) =>
      Object.fromEntries(
        Object.entries(e).filter(([k]) => !clear.some((c) => k === c || k.startsWith(`${c}.`))),
      ),
    );
  };
  const languageName = (code: string) =>
    languages.data?.results.find((l) => l.iso_code.toLowerCase() === code)?.name ?? code;
  const addable = (languages.data?.results ?? [])
    .map((l) => ({ value: l.iso_code.toLowerCase(), label: l.name }))
    .filter((l) => !(l.value in values.sms_texts));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = settingsErrors(values);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    try {
      await save.mutateAsync(ZFollowUpSettingsInput.parse(values));
      notifications.show({ color: 'teal', message: FOLLOW_UP_MESSAGES.settingsSaved });
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else if (!(
        error instanceof ApiError &&
        (error.status === 401 || error.status === 403 || error.status >= 500)
      )) {
        setErrors({ non_field_errors: errorMessage(error) });
      }
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={submit} noValidate data-testid="follow-up-settings-form">
        <Stack gap="md">
          <Title order={4}>Follow-up</Title>
          {errors.non_field_errors && (
            <Alert color="red" variant="light">
              {errors.non_field_errors}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            {ACTIVE_FOLLOW_UP_STATUSES.map((status) => {
              const field = FOLLOW_UP_DUE_FIELDS[status];
              return (
                <NumberField
                  key={field}
                  integer
                  min={FOLLOW_UP_DUE_DAYS_MIN}
                  max={FOLLOW_UP_DUE_DAYS_MAX}
                  label={FOLLOW_UP_DUE_FIELD_LABELS[field]}
                  value={values[field]}
                  onChange={(v) => patch({ [field]: v === '' ? '' : Number(v) } as Partial<Values>, [field])}
                  error={errors[field]}
                  data-testid={`follow-up-${field.replace(/_/g, '-')}`}
                />
              );
            })}
          </SimpleGrid>
          <Switch
            label="E-mail a daily digest of overdue cases to the organization's users"
            checked={values.digest_enabled}
            onChange={(e) => patch({ digest_enabled: e.currentTarget.checked }, ['digest_enabled'])}
            data-testid="follow-up-digest-enabled"
          />
          <Switch
            label="Send reminder SMS to patients who consented, in their consent language"
            checked={values.sms_enabled}
            onChange={(e) => patch({ sms_enabled: e.currentTarget.checked }, ['sms_enabled', 'sms_texts'])}
            data-testid="follow-up-sms-enabled"
          />
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              Reminder text
            </Text>
            <Text size="xs" c="dimmed">
              Placeholders: {FOLLOW_UP_SMS_PLACEHOLDERS.join(', ')}. Never the finding: nothing else of the
              patient is sent.
            </Text>
            {errors.sms_texts && (
              <Text size="sm" c="red" data-testid="follow-up-sms-texts-error">
                {errors.sms_texts}
              </Text>
            )}
            {Object.entries(values.sms_texts).map(([code, text]) => (
              <Textarea
                key={code}
                label={`${languageName(code)} (${code})`}
                autosize
                minRows={2}
                value={text}
                onChange={(e) =>
                  patch({ sms_texts: { ...values.sms_texts, [code]: e.currentTarget.value } }, [
                    `sms_texts.${code}`,
                    'sms_texts',
                  ])
                }
                error={errors[`sms_texts.${code}`]}
                description={`${[...text].length} / ${FOLLOW_UP_SMS_TEXT_MAX}`}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                data-testid={`follow-up-sms-text-${code}`}
              />
            ))}
            <Select
              placeholder="Add a language"
              aria-label="Add a language"
              data={addable}
              value={null}
              searchable
              onChange={(code) => code && patch({ sms_texts: { ...values.sms_texts, [code]: '' } }, [])}
              w={{ base: '100%', sm: 240 }}
              data-testid="follow-up-sms-add-language"
            />
          </Stack>
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} data-testid="follow-up-settings-submit">
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
