// company_info (part 1 §2.5 "Company Info"): the contact printed on reports, with its own name, phone, e-mail,
// address and logo. Every label says "Company" so it is never mistaken for the organization's address above,
// which fills the empty fields here (part 1 §4). Required outside booking mode.
import type { ReactNode } from 'react';
import { SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { CountryDialCodePicker } from '../../../components/CountryDialCodePicker.tsx';
import { PhoneInput } from '../../../components/PhoneInput.tsx';
import { StoredImageField } from './StoredImageField.tsx';
import type { OrganizationFormValues } from './organizationFormValues.ts';

type CompanyContactSectionProps = {
  form: UseFormReturnType<OrganizationFormValues>;
  booking: boolean;
  err: (path: string) => ReactNode;
};

export function CompanyContactSection({ form, booking, err }: CompanyContactSectionProps) {
  const company = form.getValues().company_info;
  const required = !booking;
  return (
    <Stack gap="sm" data-testid="org-section-company">
      <Stack gap={2}>
        <Title order={4}>Company contact (printed on reports)</Title>
        <Text size="xs" c="dimmed">
          {booking
            ? 'Optional in booking mode.'
            : 'Filled from the organization’s name and address until you change it here.'}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        <TextInput label="Company name" withAsterisk={required} {...form.getInputProps('company_info.name')} data-testid="org-company-name" />
        <CountryDialCodePicker
          label="Company phone country"
          value={company.country_code}
          onChange={(code) => form.setFieldValue('company_info.country_code', code)}
          error={err('company_info.country_code')}
          data-testid="org-company-country-code"
        />
        <PhoneInput
          label="Company mobile number"
          country={company.country_code}
          {...form.getInputProps('company_info.contact_number')}
          value={company.contact_number}
          onChange={(mobile) => form.setFieldValue('company_info.contact_number', mobile)}
          testId="org-company-mobile"
        />
        <TextInput label="Company email" type="email" {...form.getInputProps('company_info.email')} data-testid="org-company-email" />
        <TextInput label="Company address" withAsterisk={required} {...form.getInputProps('company_info.address')} data-testid="org-company-address" />
        <TextInput label="Company city" withAsterisk={required} {...form.getInputProps('company_info.city')} data-testid="org-company-city" />
        <TextInput label="Company state" withAsterisk={required} {...form.getInputProps('company_info.state')} data-testid="org-company-state" />
        <TextInput label="Company zip code" withAsterisk={required} {...form.getInputProps('company_info.zip_code')} data-testid="org-company-zip" />
      </SimpleGrid>
      <StoredImageField
        label="Company logo"
        path={company.profile_image_path}
        folder="companylogo"
        crop
        error={err('company_info.profile_image_path') as string | undefined}
        onChange={(path) => form.setFieldValue('company_info.profile_image_path', path)}
        testId="org-logo"
      />
    </Stack>
  );
}
