// The maps autocomplete of Basic info (part 1 §2.5): GET geocode/?q= after 100 ms, from the first character;
// choosing a place hands its fields to the form. When the geocoder is down the field says so and the address is
// typed by hand.
import { useState } from 'react';
import { Autocomplete, Loader } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMapSearch } from '@tabler/icons-react';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS } from '@sc/shared/constants';
import { GEOCODE_MESSAGES, type TPlace } from '@sc/shared/geocode';
import { useGeocode } from './organizationForm.api.ts';

export function PlaceSearch({ onSelect }: { onSelect: (place: TPlace) => void }) {
  const [value, setValue] = useState('');
  const [q] = useDebouncedValue(value.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const query = q.length >= AUTOCOMPLETE_MIN_CHARS ? q : '';
  const geocode = useGeocode(query);
  const places = query ? (geocode.data?.results ?? []) : [];
  const unavailable = query !== '' && geocode.isError;

  // The label is the option; a repeated label (rare) is offered once.
  const data = [...new Set(places.map((p) => p.label))];

  return (
    <Autocomplete
      label="Search organization or address"
      placeholder="Start typing a name or an address"
      leftSection={<IconMapSearch size={16} />}
      rightSection={geocode.isFetching ? <Loader size="xs" /> : null}
      value={value}
      onChange={setValue}
      data={data}
      filter={({ options }) => options}
      onOptionSubmit={(label) => {
        const place = places.find((p) => p.label === label);
        if (place) onSelect(place);
      }}
      description={unavailable ? GEOCODE_MESSAGES.unavailableHint : undefined}
      styles={unavailable ? { description: { color: 'var(--mantine-color-orange-7)' } } : undefined}
      data-testid="org-place-search"
    />
  );
}
