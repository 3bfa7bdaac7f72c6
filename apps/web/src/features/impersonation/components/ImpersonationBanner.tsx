// The 'Impersonation Mode' banner at the top of the shell (part 1 §4): who is seen, and an 'As seen By' switch
// that is on; switching it off ends the impersonation and reloads as the real user.
import { useState } from 'react';
import { Group, Loader, Switch, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { TSessionUser } from '@sc/shared/auth';
import { ROLE_LABELS } from '@sc/shared/roles';
import { endImpersonation } from '../impersonation.api.ts';

export const IMPERSONATION_BANNER_HEIGHT = 40;

type ImpersonationBannerProps = { user: TSessionUser };

export function ImpersonationBanner({ user }: ImpersonationBannerProps) {
  const [ending, setEnding] = useState(false);
  const name = `${user.first_name} ${user.last_name}`.trim() || user.username;

  const stop = () => {
    setEnding(true);
    void endImpersonation();
  };

  return (
    <Group
      h={IMPERSONATION_BANNER_HEIGHT}
      px="md"
      gap="md"
      justify="center"
      wrap="nowrap"
      bg="orange.6"
      c="white"
      role="status"
      data-testid="impersonation-banner"
    >
      <Group gap={6} wrap="nowrap">
        <IconEye size={18} />
        <Text fw={700} size="sm">
          Impersonation Mode
        </Text>
      </Group>
      <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
        <Switch
          checked={!ending}
          onChange={(e) => {
            if (!e.currentTarget.checked) stop();
          }}
          disabled={ending}
          color="dark"
          size="sm"
          label="As seen By"
          aria-label="As seen By"
          styles={{ label: { color: 'white', fontWeight: 500 } }}
          data-testid="impersonation-switch"
        />
        <Text size="sm" fw={600} truncate data-testid="impersonation-seen-as">
          {name} ({ROLE_LABELS[user.user_type]})
        </Text>
        {user.impersonator?.email && (
          <Text size="xs" visibleFrom="sm" style={{ opacity: 0.85 }} truncate>
            · you are {user.impersonator.email}
          </Text>
        )}
        {ending && <Loader size="xs" color="white" />}
      </Group>
    </Group>
  );
}
