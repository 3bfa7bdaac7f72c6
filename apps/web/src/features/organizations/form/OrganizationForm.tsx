// The body of the organization dialog: sections of part 1 §2.5 over one @mantine/form validated with the shared
// ZOrganizationInput. Mounted once per opening with its initial values, so auto-copy never fires on load.
import { useRef, useState, type ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Chip,
  Collapse,
  Divider,
  Group,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconChevronRight, IconLanguage } from '@tabler/icons-react';
import { CUSTOMIZED_MESSAGE_MAX, DAYS_OF_WEEK } from '@sc/shared/constants';
import type { TPlace } from '@sc/shared/geocode';
import {
  BOOKINGS_PER_SLOT_MAX,
  CANCEL_BEFORE_MAX_HOURS,
  ORGANIZATION_MESSAGES,
  PRICE_MAX,
  editableOrganizationFields,
} from '@sc/shared/organization-input';
import type { TOrganization } from '@sc/shared/organizations';
import { can } from '@sc/shared/permissions';
import type { TUserType } from '@sc/shared/roles';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { useCountries } from '../../../api/countries.ts';
import { openAlert } from '../../../components/AlertDialog.tsx';
import { NumberField } from '../../../components/NumberField.tsx';
import { CompanyContactSection } from './CompanyContactSection.tsx';
import { ConsentListField } from './ConsentListField.tsx';
import { FlagField } from './FlagField.tsx';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { LanguageSettingDialog } from './LanguageSettingDialog.tsx';
import { OrganizationAddressSection } from './OrganizationAddressSection.tsx';
import { ParentOrganizationPicker } from './ParentOrganizationPicker.tsx';
import { PlaceSearch } from './PlaceSearch.tsx';
import { StoredImageField } from './StoredImageField.tsx';
import {
  CUSTOMIZED_MESSAGE_FIELDS,
  FLAG_FIELDS,
  WEBHOOK_FIELDS,
  autoCopyPatch,
  flattenServerErrors,
  toPayload,
  validateValues,
  type FormErrors,
  type OrganizationFormValues,
} from './organizationFormValues.ts';
import { useLanguageOptions, useSaveOrganization, useSendPreviousScans, useTimezones } from './organizationForm.api.ts';
import { useErrorArea } from '../../../components/useErrorArea.ts';

type OrganizationFormProps = {
  role: TUserType;
  organization?: TOrganization;
  initialValues: OrganizationFormValues;
  fixedParentId?: number;
  onCancel: () => void;
  onSaved: () => void;
};

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Stack gap="sm" data-testid={testId}>
      <Title order={4}>{title}</Title>
      {children}
    </Stack>
  );
}

function CollapsibleSection({
  title,
  opened,
  onToggle,
  children,
  testId,
}: {
  title: string;
  opened: boolean;
  onToggle: () => void;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Stack gap="sm" data-testid={testId}>
      <UnstyledButton onClick={onToggle} aria-expanded={opened} data-testid={`${testId}-toggle`}>
        <Group gap={6}>
          {opened ? <IconChevronDown size={18} /> : <IconChevronRight size={18} />}
          <Title order={4}>{title}</Title>
        </Group>
      </UnstyledButton>
      <Collapse expanded={opened}>
        <Stack gap="sm">{children}</Stack>
      </Collapse>
    </Stack>
  );
}

const hasErrorIn = (errors: FormErrors, fields: readonly string[]) =>
  Object.keys(errors).some((k) => fields.some((f) => k === f || k.startsWith(`${f}.`)));

export function OrganizationForm({ role, organization, initialValues, fixedParentId, onCancel, onSaved }: OrganizationFormProps) {
  const editing = organization !== undefined;
  const editable = editableOrganizationFields(role);
  const isPlatformAdmin = can(role, 'organization.chooseParent');
  const showParentPicker = editable.parent && fixedParentId === undefined;

  const save = useSaveOrganization(organization?.id);
  const previousScans = useSendPreviousScans();
  const errorArea = useErrorArea();
  const [customizedOpen, setCustomizedOpen] = useState(Boolean(initialValues.customized_message || initialValues.customized_message_qr_path));
  const [webhookOpen, setWebhookOpen] = useState(Boolean(initialValues.webhook_url));
  const [languageOpen, setLanguageOpen] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const form = useForm<OrganizationFormValues>({
    mode: 'controlled',
    initialValues,
    validate: (values) => validateValues(values, role, fixedParentId),
    onValuesChange: (values, previous) => {
      const patch = autoCopyPatch(previous, values);
      if (Object.keys(patch).length > 0) form.setFieldValue('company_info', { ...values.company_info, ...patch });
    },
  });
  const v = form.values;
  const booking = v.is_booking_enabled;
  const errors = form.errors as FormErrors;
  const err = (path: string) => (errors[path] as ReactNode) ?? undefined;

  const { data: countries } = useCountries();
  const timezones = useTimezones();
  // Languages are few: load them once and search in the browser.
  const languages = useLanguageOptions('', 1000);

  const currencyOptions = [...new Set((countries ?? []).map((c) => c.currency_code).filter((c): c is string => Boolean(c)))]
    .sort()
    .map((c) => ({ value: c, label: c }));
  const languageOptions = (languages.data?.results ?? []).map((l) => ({ value: String(l.id), label: l.name }));
  if (v.language !== null && !languageOptions.some((o) => o.value === String(v.language))) {
    languageOptions.unshift({ value: String(v.language), label: `Language ${v.language}` });
  }

  /** Opens the sections holding errors and scrolls to the first invalid field (part 1 §5). */
  const revealErrors = (list: FormErrors) => {
    if (hasErrorIn(list, CUSTOMIZED_MESSAGE_FIELDS)) setCustomizedOpen(true);
    if (hasErrorIn(list, WEBHOOK_FIELDS)) setWebhookOpen(true);
    // After the sections have opened and the errors rendered.
    setTimeout(() => {
      const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-error="true"]');
      if (first) {
        first.scrollIntoView({ behavior: 'smooth', block: 'center' });
        first.focus({ preventScroll: true });
      }
    }, 50);
  };

  const choosePlace = (place: TPlace) => {
    const country = countries?.find((c) => c.code === place.country_code);
    form.setValues({
      name: place.name || v.name,
      address_1: place.address_1,
      address_2: place.address_2,
      address_3: place.address_3,
      state: place.state,
      country: country?.name ?? place.country,
      country_code: place.country_code,
      zipcode: place.zipcode,
      latitude: place.latitude,
      longitude: place.longitude,
    });
  };

  const submit = async (values: OrganizationFormValues) => {
    errorArea.clear();
    try {
      await save.mutateAsync(toPayload(values, role, fixedParentId));
      void openAlert({ variant: 'success', title: editing ? ORGANIZATION_MESSAGES.updated : ORGANIZATION_MESSAGES.created });
      onSaved();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const fields = flattenServerErrors(error.body);
        form.setErrors(fields);
        errorArea.show(fieldErrorList(error.body));
        revealErrors(fields);
      } else {
        errorArea.show([{ title: 'Error', text: errorMessage(error) }]);
      }
    }
  };

  const sendPreviousScans = async () => {
    if (!organization) return;
    try {
      const answer = await previousScans.mutateAsync(organization.id);
      notifications.show({ color: 'teal', message: answer.detail });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) errorArea.show(fieldErrorList(error.body));
      else errorArea.show([{ title: 'Webhook', text: errorMessage(error) }]);
    }
  };

  const localizeErrors = Object.entries(errors).filter(([k]) => k.startsWith('localize'));
  const localizeNames = Object.entries(v.localize).map(([iso, l]) => l.name || iso);
  const messageLength = v.customized_message.length;

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={form.onSubmit(
        (values) => void submit(values),
        (list) => revealErrors(list as FormErrors),
      )}
      data-testid="org-form"
    >
      <Stack gap="xl">
        <Section title="Basic info" testId="org-section-basic">
          <PlaceSearch onSelect={choosePlace} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Organization name" withAsterisk {...form.getInputProps('name')} data-testid="org-name" />
            {showParentPicker && (
              <ParentOrganizationPicker
                value={v.parent}
                excludeId={organization?.id}
                error={err('parent') as string | undefined}
                onChange={(id) => {
                  form.setFieldValue('parent', id);
                  // A sub-organization cannot be a distributor (part 1 §4).
                  if (id !== null) form.setFieldValue('can_create_organization', false);
                }}
              />
            )}
            <Select
              label="Tutorial language"
              searchable
              data={languageOptions}
              value={v.language === null ? null : String(v.language)}
              onChange={(id) => form.setFieldValue('language', id ? Number(id) : null)}
              nothingFoundMessage="Language not in the list"
              error={err('language')}
              data-testid="org-language"
            />
            <Select
              label="Timezone"
              searchable
              limit={100}
              data={timezones.data ?? [v.timezone]}
              value={v.timezone}
              allowDeselect={false}
              onChange={(tz) => tz && form.setFieldValue('timezone', tz)}
              nothingFoundMessage="No time zone found"
              error={err('timezone')}
              data-testid="org-timezone"
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" verticalSpacing="sm" mt="xs">
            <FlagField
              label="Distributor (can create sub-organizations)"
              checked={v.can_create_organization}
              editable={editable.can_create_organization}
              // A sub-organization cannot become a distributor; one that already is may still be switched off.
              disabled={(fixedParentId ?? v.parent) !== null && !v.can_create_organization}
              onChange={(checked) => form.setFieldValue('can_create_organization', checked)}
              testId="org-distributor"
            />
            {FLAG_FIELDS.map(({ key, label }) => (
              <FlagField
                key={key}
                label={label}
                checked={v[key]}
                editable={key in editable ? editable[key as keyof typeof editable] : true}
                onChange={(checked) => form.setFieldValue(key, checked)}
                testId={`org-flag-${key}`}
              />
            ))}
            {/* Booking mode is switched by ADMIN and SUB_ADMIN; others see it read-only. */}
            {(isPlatformAdmin || booking) && (
              <FlagField
                label="Booking mode"
                checked={booking}
                editable={isPlatformAdmin}
                onChange={(checked) => form.setFieldValue('is_booking_enabled', checked)}
                testId="org-booking"
              />
            )}
          </SimpleGrid>
          {isPlatformAdmin && (
            <Text size="xs" c="dimmed" data-testid="org-distributor-notice">
              {(v.parent !== null || fixedParentId !== undefined) && !v.can_create_organization
                ? 'A sub-organization cannot be a distributor: the Distributor flag is off.'
                : 'A distributor can create sub-organizations and their users.'}
            </Text>
          )}
          {booking && (
            <Stack gap="sm" data-testid="org-booking-fields">
              <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="md">
                <NumberField
                  label="Price"
                  min={0}
                  max={PRICE_MAX / 100}
                  decimalScale={2}
                  {...form.getInputProps('price')}
                  data-testid="org-price"
                />
                <Select label="Currency" searchable data={currencyOptions} {...form.getInputProps('currency')} data-testid="org-currency" />
                <NumberField
                  label="Total bookings per slot"
                  min={1}
                  max={BOOKINGS_PER_SLOT_MAX}
                  integer
                  {...form.getInputProps('total_bookings_per_slot')}
                  data-testid="org-bookings-per-slot"
                />
                <NumberField
                  label="Can be cancelled before (hours)"
                  min={0}
                  max={CANCEL_BEFORE_MAX_HOURS}
                  integer
                  {...form.getInputProps('can_be_cancel_before')}
                  data-testid="org-cancel-before"
                />
              </SimpleGrid>
              <Switch
                label="Allow offline payment"
                {...form.getInputProps('allow_offline_payment', { type: 'checkbox' })}
                data-testid="org-offline-payment"
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Available days
                </Text>
                <Chip.Group
                  multiple
                  value={v.available_days.map(String)}
                  onChange={(days) => form.setFieldValue('available_days', days.map(Number).sort((a, b) => a - b))}
                >
                  <Group gap="xs">
                    {DAYS_OF_WEEK.map((day, id) => (
                      <Chip key={day} value={String(id)} size="sm" data-testid={`org-day-${day}`}>
                        {day}
                      </Chip>
                    ))}
                  </Group>
                </Chip.Group>
                {err('available_days') && (
                  <Text size="xs" c="red">
                    {err('available_days')}
                  </Text>
                )}
              </Stack>
            </Stack>
          )}
        </Section>

        <Divider />
        <OrganizationAddressSection form={form} countries={countries} err={err} />

        <Divider />
        <CompanyContactSection form={form} booking={booking} err={err} />

        {!booking && (
          <>
            <Divider />
            <Section title="Consent Form" testId="org-section-consent">
              <Group justify="space-between" align="center">
                <Group gap={6}>
                  <Text size="sm" c="dimmed">
                    English (base)
                  </Text>
                  {localizeNames.map((name) => (
                    <Badge key={name} variant="light" size="sm">
                      {name}
                    </Badge>
                  ))}
                </Group>
                <Button
                  variant="light"
                  leftSection={<IconLanguage size={16} />}
                  onClick={() => setLanguageOpen(true)}
                  data-testid="org-language-setting"
                >
                  Language setting
                </Button>
              </Group>
              <ConsentListField
                label="Breast consent (English)"
                items={v.ibe_consent_form}
                errorOf={(i) => errors[`ibe_consent_form.${i}`] as string | undefined}
                onChange={(items) => form.setFieldValue('ibe_consent_form', items)}
                testId="org-consent"
              />
              {(errors.ibe_consent_form || localizeErrors.length > 0) && (
                <Stack gap={2} data-testid="org-localize-errors">
                  {errors.ibe_consent_form && (
                    <Text size="xs" c="red">
                      {errors.ibe_consent_form}
                    </Text>
                  )}
                  {localizeErrors.map(([key, text]) => (
                    <Text key={key} size="xs" c="red">
                      {key.replace(/_/g, ' ')}: {text}
                    </Text>
                  ))}
                </Stack>
              )}
            </Section>

            <Divider />
            <CollapsibleSection
              title="Customized Message"
              opened={customizedOpen}
              onToggle={() => setCustomizedOpen((o) => !o)}
              testId="org-section-customized"
            >
              <Textarea
                label="Message"
                autosize
                minRows={3}
                maxRows={10}
                {...form.getInputProps('customized_message')}
                data-testid="org-customized-message"
              />
              <Group justify="space-between">
                <Text size="xs" c={messageLength > CUSTOMIZED_MESSAGE_MAX ? 'red' : 'dimmed'} data-testid="org-customized-count">
                  {messageLength}/{CUSTOMIZED_MESSAGE_MAX}
                </Text>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => form.setFieldValue('customized_message', '')}
                  data-testid="org-customized-clear"
                >
                  Clear
                </Anchor>
              </Group>
              <StoredImageField
                label="QR code image"
                path={v.customized_message_qr_path}
                folder="customized"
                error={err('customized_message_qr_path') as string | undefined}
                onChange={(path) => form.setFieldValue('customized_message_qr_path', path)}
                testId="org-qr"
              />
            </CollapsibleSection>

            <Divider />
            <CollapsibleSection title="Webhook" opened={webhookOpen} onToggle={() => setWebhookOpen((o) => !o)} testId="org-section-webhook">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <TextInput label="URL" placeholder="https://" {...form.getInputProps('webhook_url')} data-testid="org-webhook-url" />
                <PasswordInput label="Auth token" {...form.getInputProps('webhook_auth_token')} data-testid="org-webhook-token" />
              </SimpleGrid>
              <Group justify="space-between">
                <Switch label="On" {...form.getInputProps('webhook_switch', { type: 'checkbox' })} data-testid="org-webhook-switch" />
                {/* Only for a saved organization whose saved webhook is on (part 1 §2.5). */}
                {organization?.webhook_switch && (
                  <Button
                    variant="light"
                    loading={previousScans.isPending}
                    onClick={() => void sendPreviousScans()}
                    data-testid="org-send-previous-scans"
                  >
                    Send previous scans
                  </Button>
                )}
              </Group>
            </CollapsibleSection>
          </>
        )}

        <FormErrorArea errors={errorArea.errors} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-testid="org-form-cancel">
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="org-form-submit">
            Submit
          </Button>
        </Group>
      </Stack>

      <LanguageSettingDialog
        opened={languageOpen}
        onClose={() => setLanguageOpen(false)}
        organizationId={organization?.id}
        value={v.localize}
        onChange={(localize) => form.setFieldValue('localize', localize)}
      />
    </form>
  );
}
