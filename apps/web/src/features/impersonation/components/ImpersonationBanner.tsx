// The 'Impersonation Mode' banner at the top of the shell (part 1 §4): who is seen, the spec's 'As seen By' switch
// (on; switching it off ends the impersonation) and a plain 'Stop impersonating' button doing the same. Both
// reload as the real user.
import { useState } from 'react';
import { Box, Button, Loader, Switch, Text } from '@mantine/core';
import { IconEye, IconLogout2 } from '@tabler/icons-react';
import type { TSessionUser } from '@sc/shared/auth';
import { ROLE_LABELS } from '@sc/shared/roles';
import { endImpersonation } from '../impersonation.api.ts';
import classes from './ImpersonationBanner.module.css';

/** Two rows on a phone, one from sm up (the shell adds this to its header height). */
export const IMPERSONATION_BANNER_HEIGHT = { base: 64, sm: 40 } as const;

type ImpersonationBannerProps = { user: TSessionUser };

export function ImpersonationBanner({ user }: ImpersonationBannerProps) {
  const [ending, setEnding] = useState(false);
  const name = `${user.first_name} ${user.last_name}`.trim() || user.username;

  const stop = () => {
    if (ending) return;
    setEnding(true);
    void endImpersonation();
  };

  return (
    <Box
      className={classes.banner}
      h={IMPERSONATION_BANNER_HEIGHT}
      role="region"
      aria-label="Impersonation Mode"
      data-testid="impersonation-banner"
    >
      <div className={classes.mode}>
        <IconEye size={18} aria-hidden />
        <Text fw={700} size="sm">
          Impersonation Mode
        </Text>
      </div>
      <div className={classes.seen}>
        <Switch
          checked={!ending}
          onChange={(e) => {
            if (!e.currentTarget.checked) stop();
          }}
          disabled={ending}
          color="dark"
          size="sm"
          label="As seen By"
          classNames={{ label: classes.switchLabel }}
          data-testid="impersonation-switch"
        />
        <Text
          size="sm"
          fw={600}
          className={classes.name}
          title={`${name} (${ROLE_LABELS[user.user_type]})`}
          data-testid="impersonation-seen-as"
        >
          {name} ({ROLE_LABELS[user.user_type]})
        </Text>
        {user.impersonator?.email && (
          <Text size="xs" visibleFrom="md" className={classes.name}>
            · you are {user.impersonator.email}
          </Text>
        )}
      </div>
      <Button
        className={classes.stop}
        size="compact-sm"
        variant="white"
        color="dark"
        leftSection={ending ? <Loader size={12} color="dark" /> : <IconLogout2 size={14} aria-hidden />}
        onClick={stop}
        disabled={ending}
        data-testid="impersonation-stop"
      >
        Stop impersonating
      </Button>
    </Box>
  );
}
