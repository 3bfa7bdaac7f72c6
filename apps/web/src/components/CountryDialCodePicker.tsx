// Searchable country dial-code picker ('India (+91)'), value = ISO code. Used by the login
// page and by every form with a mobile number.
import { useMemo } from 'react';
import { Select, type SelectProps } from '@mantine/core';
import type { TCountry } from '@sc/shared/list';
import { DEFAULT_COUNTRY, countryLabel, useCountries } from '../api/countries.ts';

type CountryDialCodePickerProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: string | null;
  onChange: (code: string | null, country: TCountry | undefined) => void;
};

export function CountryDialCodePicker({ value, onChange, ...props }: CountryDialCodePickerProps) {
  const { data: countries } = useCountries();

  const byCode = useMemo(() => {
    const map = new Map<string, TCountry>([[DEFAULT_COUNTRY.code, DEFAULT_COUNTRY]]);
    for (const c of countries ?? []) if (c.code && c.dial_code) map.set(c.code.toUpperCase(), c);
    return map;
  }, [countries]);

  const data = useMemo(
    () =>
      [...byCode.entries()]
        .map(([code, c]) => ({ value: code, label: countryLabel(c) }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [byCode],
  );

  return (
    <Select
      label="Country"
      placeholder="Search country"
      searchable
      nothingFoundMessage="No country found"
      maxDropdownHeight={280}
      allowDeselect={false}
      {...props}
      data={data}
      value={value}
      onChange={(code) => onChange(code, code ? byCode.get(code) : undefined)}
    />
  );
}
