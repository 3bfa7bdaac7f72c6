// The sign-in screen's country picker, loaded just after the form: Mantine's searchable Select (combobox, popover,
// floating-ui, scroll area) is about 30 kB brotli, an eighth of the sign-in screen's download on a slow link
// (issue 24). Until it arrives, a read-only field shows the chosen country where the picker will be, so nothing moves.
import { Suspense, lazy, type ComponentProps } from 'react';
import { TextInput } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { DEFAULT_COUNTRY, countryLabel, useCountries } from '../api/countries.ts';
import type { CountryDialCodePicker as Picker } from './CountryDialCodePicker.tsx';

const CountryDialCodePicker = lazy(() =>
  import('./CountryDialCodePicker.tsx').then((m) => ({ default: m.CountryDialCodePicker })),
);

type Props = ComponentProps<typeof Picker>;

function PickerStandIn({ value, w }: Pick<Props, 'value' | 'w'>) {
  const { data: countries } = useCountries();
  const country =
    countries?.find((c) => c.code.toUpperCase() === value) ??
    (value === DEFAULT_COUNTRY.code ? DEFAULT_COUNTRY : undefined);
  return (
    <TextInput
      label="Country"
      w={w}
      readOnly
      value={country ? countryLabel(country) : ''}
      placeholder="Search country"
      rightSection={<IconChevronDown size={16} stroke={1.5} />}
      rightSectionPointerEvents="none"
    />
  );
}

export function LazyCountryDialCodePicker(props: Props) {
  return (
    <Suspense fallback={<PickerStandIn value={props.value} w={props.w} />}>
      <CountryDialCodePicker {...props} />
    </Suspense>
  );
}
