// A searchable language picker (search on the server after 500 ms, part 1 §9). Languages in `excludeIso` are not
// offered; when the search finds only those, the picker says 'Language already selected', and when it finds
// nothing 'Language not in the list' (part 1 §5).
import { useMemo, useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@sc/shared/constants';
import type { TLanguage } from '@sc/shared/languages';
import { MESSAGES } from '@sc/shared/validation';
import { useLanguageOptions } from './organizationForm.api.ts';

type LanguageSelectProps = {
  /** iso_code of the chosen language. */
  value: string | null;
  /** Its name, shown before the search answers. */
  valueName?: string;
  /** iso codes already chosen elsewhere: not offered, 'Language already selected'. */
  excludeIso: readonly string[];
  /** iso codes never offered (English, the base): 'Language not in the list'. */
  hiddenIso?: readonly string[];
  error?: string;
  label?: string;
  testId?: string;
  /** Height of the option list in px (the tutorial language setting: 300, part 3 §2); Mantine's default otherwise. */
  maxDropdownHeight?: number;
  onChange: (language: TLanguage | null) => void;
};

export function LanguageSelect({
  value,
  valueName,
  excludeIso,
  hiddenIso = [],
  error,
  label = 'Language',
  testId,
  maxDropdownHeight,
  onChange,
}: LanguageSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // While the box shows the chosen name, list everything rather than that one name.
  const term = value && debounced === valueName ? '' : debounced;
  const languages = useLanguageOptions(term);
  const excluded = useMemo(() => new Set(excludeIso.map((c) => c.toLowerCase())), [excludeIso]);

  const hidden = useMemo(() => new Set(hiddenIso.map((c) => c.toLowerCase())), [hiddenIso]);
  const found = (languages.data?.results ?? []).filter((l) => !hidden.has(l.iso_code.toLowerCase()));
  const offered = found.filter((l) => l.iso_code.toLowerCase() === value?.toLowerCase() || !excluded.has(l.iso_code.toLowerCase()));
  const options = new Map<string, string>();
  if (value) options.set(value, valueName ?? value);
  for (const l of offered) options.set(l.iso_code, l.name);
  const data = [...options].map(([v, name]) => ({ value: v, label: name }));

  const onlyExcluded = found.length > 0 && offered.every((l) => l.iso_code.toLowerCase() === value?.toLowerCase());
  const nothingFound = languages.isFetching
    ? 'Searching…'
    : onlyExcluded
      ? MESSAGES.languageAlreadySelected
      : MESSAGES.languageNotInList;

  return (
    <Select
      label={label}
      placeholder="Search language"
      searchable
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched name or iso code; hide the chosen option while searching for another.
      filter={({ options, search: s }) =>
        s && s !== valueName ? options.filter((o) => 'value' in o && o.value !== value) : options
      }
      nothingFoundMessage={nothingFound}
      maxDropdownHeight={maxDropdownHeight}
      rightSection={languages.isFetching ? <Loader size="xs" /> : undefined}
      allowDeselect={false}
      error={error}
      onChange={(iso) => onChange(found.find((l) => l.iso_code === iso) ?? null)}
      data-testid={testId}
    />
  );
}
