// Part 1 §8: any 401 opens 'Expired User Session'; after 3 s local storage is cleared and the
// user goes to the login page.
import { useEffect, useState } from 'react';
import { Loader, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import { SESSION_EXPIRED_REDIRECT_MS } from '@sc/shared/constants';
import { browser } from '../api/browser.ts';
import { onSessionExpired } from '../api/client.ts';
import { clearStorage } from '../api/storage.ts';

export function SessionExpiredDialog() {
  const [opened, setOpened] = useState(false);

  useEffect(() => onSessionExpired(() => setOpened(true)), []);

  useEffect(() => {
    if (!opened) return;
    const timer = setTimeout(() => {
      clearStorage();
      browser.assign('/login');
    }, SESSION_EXPIRED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [opened]);

  return (
    <Modal
      opened={opened}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      size="sm"
      aria-labelledby="session-expired-title"
    >
      <Stack align="center" gap="sm" py="sm" data-testid="session-expired-dialog">
        <ThemeIcon size={56} radius="xl" variant="light" color="orange">
          <IconClockExclamation size={28} />
        </ThemeIcon>
        <Title order={3} id="session-expired-title">
          {AUTH_MESSAGES.sessionExpired}
        </Title>
        <Text c="dimmed" ta="center" size="sm">
          Your session has ended. Taking you to the login page…
        </Text>
        <Loader size="sm" type="dots" />
      </Stack>
    </Modal>
  );
}
