// The re-certification Filter dropdown (part 2 §2.10): an organization autocomplete (5 choices per search, part 2
// §7) and 'Clear all filters', with a badge on the button counting the active filters.
import { useState } from 'react';
import { Button, Indicator, Popover, Stack } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { useEscapeToClose } from '../../../components/list/useEscapeToClose.ts';

type ReCertificationFilterProps = {
  organization: { id: number; name?: string } | null;
  onChange: (organization: { id: number; name: string } | null) => void;
};

export function ReCertificationFilter({ organization, onChange }: ReCertificationFilterProps) {
  const active = organization === null ? 0 : 1;
  const [opened, setOpened] = useState(false);
  useEscapeToClose(opened, () => setOpened(false));
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      shadow="md"
      width={300}
      trapFocus={false}
      closeOnEscape
    >
      {/* The badge counts the active filters; the button (not the badge) carries the popover's ARIA attributes. */}
      <Indicator label={active} size={16} disabled={active === 0} data-testid="recert-filter-badge">
        <Popover.Target>
          <Button
            variant="default"
            leftSection={<IconFilter size={16} />}
            aria-label={active ? `Filter, ${active} active` : 'Filter'}
            onClick={() => setOpened((o) => !o)}
            data-testid="recert-filter-button"
          >
            Filter
          </Button>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown maw="calc(100vw - 24px)">
        <Stack gap="sm" data-testid="recert-filter-panel">
          <OrganizationPicker
            value={organization?.id ?? null}
            valueLabel={organization?.name}
            withAsterisk={false}
            limit={5}
            withinPortal={false}
            onChange={(id, picked) => onChange(id === null ? null : { id, name: picked?.name ?? organization?.name ?? '' })}
            testId="recert-organization-filter"
          />
          <Button variant="subtle" color="red" disabled={active === 0} onClick={() => onChange(null)} data-testid="recert-filter-clear">
            Clear all filters
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
