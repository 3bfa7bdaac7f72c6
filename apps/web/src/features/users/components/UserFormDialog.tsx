// Add, Details and Edit user (part 2 §2.3): a new user opens in create mode; an existing one opens read-only and moves
// to edit by the Edit button. A user the API does not show this caller (404) gets the Unauthorized access panel.
import { Alert, Loader, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLock } from '@tabler/icons-react';
import { BREAKPOINTS } from '@sc/shared/constants';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { ApiError, errorMessage } from '../../../api/client.ts';
import type { PickedOrganization } from '../../../components/OrganizationPicker.tsx';
import { useUser } from '../users.api.ts';
import { UserDetails } from './UserDetails.tsx';
import { UserForm } from './UserForm.tsx';

export type UserFormMode = 'create' | 'details' | 'edit';

/** What the dialog shows; the parent holds it, so the Edit button can change it (and the title). */
export type UserFormView = { mode: UserFormMode; userId?: number };

type UserFormDialogProps = {
  opened: boolean;
  view: UserFormView;
  /** The organization page the list is embedded in: a new user starts in it. */
  organization?: PickedOrganization;
  onViewChange: (view: UserFormView) => void;
  onClose: (saved: boolean) => void;
};

const TITLES: Record<UserFormMode, string> = { create: 'Add User', details: 'User Details', edit: 'Edit User' };
const PHONE_QUERY = `(max-width: ${BREAKPOINTS.xs}px)`;

export function UserFormDialog({ opened, view, organization, onViewChange, onClose }: UserFormDialogProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={TITLES[view.mode]}
      size="xl"
      fullScreen={phone}
      data-testid="user-form-dialog"
    >
      {/* Remounted for each view, so a form starts from the user it shows. */}
      {opened && (
        <UserFormBody
          key={`${view.mode}-${view.userId ?? 'new'}`}
          view={view}
          organization={organization}
          onViewChange={onViewChange}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function UserFormBody({ view, organization, onViewChange, onClose }: Omit<UserFormDialogProps, 'opened'>) {
  const { mode, userId } = view;
  const user = useUser(mode === 'create' ? undefined : userId);

  if (mode === 'create') return <UserForm organization={organization} onClose={onClose} />;
  if (user.isError && user.error instanceof ApiError && user.error.status === 404) return <UnauthorizedAccess />;
  if (user.isPending) return <Loader size="sm" data-testid="user-form-loading" />;
  if (!user.data) return <Alert color="red">{errorMessage(user.error)}</Alert>;
  return mode === 'details' ? (
    <UserDetails user={user.data} onEdit={() => onViewChange({ mode: 'edit', userId })} onClose={() => onClose(false)} />
  ) : (
    <UserForm user={user.data} onClose={onClose} />
  );
}

/** Part 2 §2.3, §8: a user get that answers 404. */
function UnauthorizedAccess() {
  return (
    <Stack align="center" gap="sm" py="lg" data-testid="user-unauthorized">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        <IconLock size={28} />
      </ThemeIcon>
      <Title order={3}>{USER_MESSAGES.unauthorizedAccessTitle}</Title>
      <Text c="dimmed" ta="center" maw={420}>
        {USER_MESSAGES.notInOrganization}
      </Text>
    </Stack>
  );
}
