// Part 1 §8: any 401 opens 'Expired User Session'; after 3 s local storage is cleared and the
// user goes to the login page, which says why and returns to this page after sign-in (issue 23.11).
import { useEffect, useState } from 'react';
import { Loader, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import { SESSION_EXPIRED_REDIRECT_MS } from '@sc/shared/constants';
import { browser } from '../api/browser.ts';
import { onSessionExpired } from '../api/client.ts';
import { clearStorage } from '../api/storage.ts';
import { loginUrl } from '../app/returnPath.ts';

export function SessionExpiredDialog() {
  const [opened, setOpened] = useState(false);

  useEffect(() => onSessionExpired(() => setOpened(true)), []);

  useEffect(() => {
    if (!opened) return;
    const timer = setTimeout(() => {
      clearStorage();
      const { pathname, search, hash } = window.location;
      browser.assign(loginUrl(pathname + search + hash, true));
    }, SESSION_EXPIRED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [opened]);

  // Built from Modal's parts: a dialog without a visible title still needs a name (axe: aria-dialog-name), and
  // only Modal.Content puts it on the element with role="dialog".
  return (
    <Modal.Root
      opened={opened}
      onClose={() => undefined}
      closeOnClickOutside={false}
      closeOnEscape={false}
      size="sm"
      centered
    >
      <Modal.Overlay />
      <Modal.Content aria-label={AUTH_MESSAGES.sessionExpired} radius="lg">
        <Modal.Body>
          <Stack align="center" gap="sm" py="md" data-testid="session-expired-dialog">
            <ThemeIcon size={56} radius="xl" variant="light" color="orange">
              <IconClockExclamation size={28} />
            </ThemeIcon>
            <Text fw={650} fz="lg" ta="center">
              {AUTH_MESSAGES.sessionExpired}
            </Text>
            <Text c="dimmed" ta="center" size="sm">
              Your session has ended. Taking you to the login page…
            </Text>
            <Loader size="sm" type="dots" />
          </Stack>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
