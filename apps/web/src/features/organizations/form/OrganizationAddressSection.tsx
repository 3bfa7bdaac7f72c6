// The organization's own address (part 1 §2.5 "Address"): country (required: an organization is never shown
// without one), state, address lines, city and zipcode. Its name and address are copied into the company
// contact below while that still holds the earlier values (part 1 §4).
import type { ReactNode } from 'react';
import { Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { TCountry } from '@sc/shared/list';
import type { OrganizationFormValues } from './organizationFormValues.ts';

type OrganizationAddressSectionProps = {
  form: UseFormReturnType<OrganizationFormValues>;
  countries: readonly TCountry[] | undefined;
  err: (path: string) => ReactNode;
};

export function OrganizationAddressSection({ form, countries, err }: OrganizationAddressSectionProps) {
  const v = form.getValues();
  const countryOptions = (countries ?? []).map((c) => ({ value: c.code, label: c.name }));
  // A stored country the list does not hold (an older record) stays selectable.
  if (v.country_code && !countryOptions.some((o) => o.value === v.country_code)) {
    countryOptions.unshift({ value: v.country_code, label: v.country || v.country_code });
  }
  return (
    <Stack gap="sm" data-testid="org-section-address">
      <Stack gap={2}>
        <Title order={4}>Organization address</Title>
        <Text size="xs" c="dimmed">
          Where the organization is: shown in the organization list and on its page.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        <Select
          label="Country"
          withAsterisk
          searchable
          clearable
          data={countryOptions}
          value={v.country_code || null}
          onChange={(code) => {
            const country = countries?.find((c) => c.code === code);
            form.setValues({ country_code: code ?? '', country: country?.name ?? '' });
          }}
          error={err('country') ?? err('country_code')}
          nothingFoundMessage="No country found"
          data-testid="org-country"
        />
        <TextInput label="State" {...form.getInputProps('state')} data-testid="org-state" />
        <TextInput label="Address line 1" {...form.getInputProps('address_1')} data-testid="org-address-1" />
        <TextInput label="Address line 2" {...form.getInputProps('address_2')} data-testid="org-address-2" />
        <TextInput label="City" {...form.getInputProps('address_3')} data-testid="org-address-3" />
        <TextInput label="Zipcode" {...form.getInputProps('zipcode')} data-testid="org-zipcode" />
      </SimpleGrid>
    </Stack>
  );
}
