// The sign-in screen's country picker, loaded when the user first acts on the page: Mantine's searchable Select
// (combobox, popover, floating-ui, scroll area) is about 37 kB brotli, a sixth of the sign-in screen's download on a
// slow link, and most users keep the country it offers (issue 24). Until then a read-only field shows the chosen
// country where the picker will be, so nothing moves; a click or Tab into it loads the picker, which then opens
// (click) or takes the focus (keyboard).
import { Suspense, lazy, useCallback, useState, type ComponentProps } from 'react';
import { TextInput } from '@mantine/core';
import { IconSelector } from '@tabler/icons-react';
import { DEFAULT_COUNTRY, countryLabel, useCountries } from '../api/countries.ts';
import type { CountryDialCodePicker as Picker } from './CountryDialCodePicker.tsx';
import { useFirstInteraction } from './firstInteraction.ts';

const CountryDialCodePicker = lazy(() =>
  import('./CountryDialCodePicker.tsx').then((m) => ({ default: m.CountryDialCodePicker })),
);

type Props = ComponentProps<typeof Picker> & { 'data-testid'?: string };
type Arrival = 'idle' | 'quiet' | 'focus' | 'open';

function PickerStandIn({
  value,
  w,
  testId,
  onAct,
}: Pick<Props, 'value' | 'w'> & { testId?: string; onAct: (how: Arrival) => void }) {
  const { data: countries } = useCountries();
  const country =
    countries?.find((c) => c.code.toUpperCase() === value) ??
    (value === DEFAULT_COUNTRY.code ? DEFAULT_COUNTRY : undefined);
  return (
    <TextInput
      label="Country"
      w={w}
      readOnly
      data-testid={testId}
      value={country ? countryLabel(country) : ''}
      placeholder="Search country"
      rightSection={<IconSelector size={16} stroke={1.5} />}
      rightSectionPointerEvents="none"
      onPointerDown={() => onAct('open')}
      onFocus={() => onAct('focus')}
    />
  );
}

export function LazyCountryDialCodePicker(props: Props) {
  const [arrival, setArrival] = useState<Arrival>('idle');

  // Any key or pointer on the page: the user is here, the picker may come.
  const arrive = useCallback(() => setArrival((a) => (a === 'idle' ? 'quiet' : a)), []);
  useFirstInteraction(arrive, arrival === 'idle');

  const standIn = (
    <PickerStandIn
      value={props.value}
      w={props.w}
      testId={props['data-testid']}
      onAct={(how) => setArrival((a) => (a === 'open' ? a : how))}
    />
  );
  if (arrival === 'idle') return standIn;
  return (
    <Suspense fallback={standIn}>
      <CountryDialCodePicker
        {...props}
        autoFocus={arrival !== 'quiet'}
        defaultDropdownOpened={arrival === 'open'}
      />
    </Suspense>
  );
}
