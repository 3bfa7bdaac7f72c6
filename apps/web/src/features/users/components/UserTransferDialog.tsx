// Transfer User (part 2 §2.3, §5, §8): an organization picker; Transfer stays disabled until one is chosen; the
// answer's 'User Transferred Successfully' is announced and the list reloads.
import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { USER_MESSAGES } from '@sc/shared/user-input';
import type { TOrganizationUser } from '@sc/shared/users';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { usePatchUser } from '../users.api.ts';
import { fullName } from '../userAccess.ts';

type UserTransferDialogProps = {
  opened: boolean;
  user: TOrganizationUser | null;
  onClose: (saved: boolean) => void;
};

export function UserTransferDialog({ opened, user, onClose }: UserTransferDialogProps) {
  return (
    <Modal opened={opened} onClose={() => onClose(false)} title="Transfer User" size="md" data-testid="user-transfer-dialog">
      {opened && user && <UserTransferForm key={user.id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function UserTransferForm({ user, onClose }: { user: TOrganizationUser; onClose: (saved: boolean) => void }) {
  const transfer = usePatchUser();
  const [organization, setOrganization] = useState<number | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (organization === null) return;
    setFormError(null);
    try {
      const saved = await transfer.mutateAsync({ id: user.id, patch: { organization } });
      notifications.show({ color: 'teal', message: saved.detail || USER_MESSAGES.transferred });
      onClose(true);
    } catch (error) {
      // 403 and 5xx are announced by the client.
      if (error instanceof ApiError && (error.status === 403 || error.status >= 500)) return;
      const orgErrors = error instanceof ApiError ? error.body.organization : undefined;
      if (Array.isArray(orgErrors) && typeof orgErrors[0] === 'string') {
        setFieldError(orgErrors[0]);
        return;
      }
      const fields = error instanceof ApiError ? fieldErrorList(error.body) : [];
      setFormError(fields.length ? fields.map((f) => f.text).join(' ') : errorMessage(error));
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="user-transfer-form">
      <Stack gap="md">
        {formError && (
          <Alert color="red" variant="light" data-testid="user-transfer-error">
            {formError}
          </Alert>
        )}
        <Text size="sm">
          <b>{fullName(user)}</b>
          {user.organization_data ? <> — now with {user.organization_data.name}</> : null}
        </Text>
        <OrganizationPicker
          value={organization}
          excludeIds={[user.organization]}
          error={fieldError}
          testId="user-transfer-organization"
          onChange={(id) => {
            setOrganization(id);
            setFieldError(undefined);
          }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onClose(false)} disabled={transfer.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={transfer.isPending} disabled={organization === null} data-testid="user-transfer-submit">
            Transfer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
