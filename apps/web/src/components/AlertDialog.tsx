// Alert dialog of part 1 §2.8: success, error or map variant; closes itself after 3 s unless
// told otherwise, in which case it shows a close icon instead. The title is the Modal's own (its h2), so the
// dialog is named by it for screen readers.
import { useEffect, type ReactNode } from 'react';
import { Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { modals } from '@mantine/modals';
import { modalsMounted } from './appHosts.ts';
import { IconCheck, IconMapPin, IconX } from '@tabler/icons-react';
import { ALERT_AUTO_CLOSE_MS } from '@sc/shared/constants';

export type AlertVariant = 'success' | 'error' | 'map';

export type AlertOptions = {
  variant?: AlertVariant;
  title?: string;
  message?: ReactNode;
  /** Extra content (the map of the map variant). */
  children?: ReactNode;
  /** Default true: close after ALERT_AUTO_CLOSE_MS. */
  autoClose?: boolean;
};

type AlertDialogProps = AlertOptions & { opened: boolean; onClose: () => void };

const VARIANT_ICON: Record<AlertVariant, { color: string; icon: ReactNode }> = {
  success: { color: 'teal', icon: <IconCheck size={28} stroke={2.5} /> },
  error: { color: 'red', icon: <IconX size={28} stroke={2.5} /> },
  map: { color: 'blue', icon: <IconMapPin size={28} stroke={2} /> },
};

/** The body under the dialog's title: the variant's icon, the message and any extra content. */
export function AlertBody({ variant = 'success', message, children }: Omit<AlertOptions, 'title'>) {
  const { color, icon } = VARIANT_ICON[variant];
  return (
    <Stack align="center" gap="sm" py="sm" data-testid={`alert-dialog-${variant}`}>
      {variant !== 'map' && (
        <ThemeIcon size={56} radius="xl" variant="light" color={color}>
          {icon}
        </ThemeIcon>
      )}
      {message && (
        <Text ta="center" c="dimmed">
          {message}
        </Text>
      )}
      {children}
    </Stack>
  );
}

export function AlertDialog({
  opened,
  onClose,
  autoClose = true,
  variant = 'success',
  title,
  ...content
}: AlertDialogProps) {
  useEffect(() => {
    if (!opened || !autoClose) return;
    const timer = setTimeout(onClose, ALERT_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [opened, autoClose, onClose]);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      withCloseButton={!autoClose}
      title={title}
      size={variant === 'map' ? 'xl' : 'sm'}
    >
      <AlertBody variant={variant} {...content} />
    </Modal>
  );
}

let alertSequence = 0;

/** Opens an alert through the modals manager; resolves when it closes. */
export async function openAlert({
  autoClose = true,
  variant = 'success',
  title,
  ...content
}: AlertOptions): Promise<void> {
  await modalsMounted();
  return new Promise((resolve) => {
    alertSequence += 1;
    const modalId = `alert-${alertSequence}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    modals.open({
      modalId,
      withCloseButton: !autoClose,
      title,
      size: variant === 'map' ? 'xl' : 'sm',
      children: <AlertBody variant={variant} {...content} />,
      onClose: () => {
        if (timer) clearTimeout(timer);
        resolve();
      },
    });
    if (autoClose) timer = setTimeout(() => modals.close(modalId), ALERT_AUTO_CLOSE_MS);
  });
}
