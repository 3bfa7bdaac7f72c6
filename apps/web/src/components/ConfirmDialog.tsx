// Confirm dialog of part 1 §2.8 with configurable labels (defaults Confirm and Cancel), as a
// controlled component and as a promise-based `confirm()` for event handlers.
import type { ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { modalsMounted } from './appHosts.ts';

export type ConfirmOptions = {
  title?: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions. */
  danger?: boolean;
};

type ConfirmDialogProps = ConfirmOptions & {
  opened: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

const DEFAULT_TITLE = 'Please confirm';

export function ConfirmDialog({
  opened,
  loading,
  onConfirm,
  onCancel,
  title = DEFAULT_TITLE,
  message,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  danger,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} size="sm">
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} data-testid="confirm-dialog-cancel">
          {cancelLabel}
        </Button>
        <Button color={danger ? 'red' : undefined} loading={loading} onClick={onConfirm} data-testid="confirm-dialog-confirm">
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

/** Resolves true when the user confirms, false when they cancel or dismiss the dialog. */
export async function confirm({
  title = DEFAULT_TITLE,
  message,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  danger,
}: ConfirmOptions): Promise<boolean> {
  await modalsMounted();
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title,
      size: 'sm',
      children: <Text size="sm">{message}</Text>,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: { color: danger ? 'red' : undefined, 'data-testid': 'confirm-dialog-confirm' } as Record<string, unknown>,
      cancelProps: { 'data-testid': 'confirm-dialog-cancel' } as Record<string, unknown>,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      // Dismissing (Escape, backdrop, close icon) counts as cancel; a settled promise ignores it.
      onClose: () => resolve(false),
    });
  });
}
