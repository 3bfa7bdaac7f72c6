// The 'Expired User Session' dialog (part 1 §8), shown by SessionExpiredDialog when a request answers 401.
import { Loader, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { AUTH_MESSAGES } from '@sc/shared/auth';

export function SessionExpiredModal() {
  // Built from Modal's parts: a dialog without a visible title still needs a name (axe: aria-dialog-name), and
  // only Modal.Content puts it on the element with role="dialog".
  return (
    <Modal.Root
      opened
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
