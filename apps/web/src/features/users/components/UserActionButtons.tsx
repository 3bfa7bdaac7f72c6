// Edit, Reset Pin, Reset Password and Certify (part 2 §2.3, §6, §7, §8), each behind its confirm and each shown only where
// the shared rule allows it: Reset Password only for a user with an e-mail, Certify only by an admin for a user who
// can be certified (not CERTIFIED, a certifiable type, in an organization).
import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCertificate, IconKey, IconMailForward, IconPencil } from '@tabler/icons-react';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { canCertify, canResetPassword, canResetPin } from '@sc/shared/user-permissions';
import type { TUserDetail } from '@sc/shared/users';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { useCertifyUser, useResetPassword, useResetPin } from '../users.api.ts';
import { actorOf, fullName } from '../userAccess.ts';

/** Errors the client has not announced already (it shows 403 and 5xx itself; 401 opens the session dialog). */
function announceError(error: unknown) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status >= 500)) return;
  notifications.show({ color: 'red', message: errorMessage(error) });
}

type UserActionButtonsProps = {
  user: TUserDetail;
  /** The Edit button, for roles that edit users (it tells a user above the caller 'Access denied…'). */
  onEdit?: () => void;
};

export function UserActionButtons({ user, onEdit }: UserActionButtonsProps) {
  const actor = actorOf(useSessionUser());
  const resetPin = useResetPin();
  const resetPassword = useResetPassword();
  const certify = useCertifyUser();

  const mayResetPin = canResetPin(actor, user);
  const mayResetPassword = canResetPassword(actor, user);
  const mayCertify = canCertify(actor, user);
  if (!onEdit && !mayResetPin && !mayResetPassword && !mayCertify) return null;

  const onResetPin = async () => {
    if (!(await confirm({ message: USER_MESSAGES.resetPinConfirm, confirmLabel: 'Reset Pin' }))) return;
    try {
      const answer = await resetPin.mutateAsync(user.id);
      notifications.show({ color: 'teal', message: answer.detail || USER_MESSAGES.pinReset });
    } catch (error) {
      announceError(error);
    }
  };

  const onResetPassword = async () => {
    if (!(await confirm({ message: USER_MESSAGES.resetPasswordConfirm, confirmLabel: 'Send link' }))) return;
    try {
      const answer = await resetPassword.mutateAsync(user.id);
      notifications.show({ color: 'teal', message: answer.detail || USER_MESSAGES.passwordLinkSent(answer.email), autoClose: 10_000 });
    } catch (error) {
      announceError(error);
    }
  };

  const onCertify = async () => {
    if (!(await confirm({ message: USER_MESSAGES.certifyConfirm(fullName(user)), confirmLabel: 'Certify' }))) return;
    try {
      const answer = await certify.mutateAsync(user.id);
      notifications.show({ color: 'teal', message: answer.detail || USER_MESSAGES.certified });
    } catch (error) {
      announceError(error);
    }
  };

  return (
    <Group gap="sm" data-testid="user-actions">
      {onEdit && (
        <Button leftSection={<IconPencil size={16} />} onClick={onEdit} data-testid="user-edit">
          Edit
        </Button>
      )}
      {mayResetPin && (
        <Button variant="light" leftSection={<IconKey size={16} />} loading={resetPin.isPending} onClick={() => void onResetPin()} data-testid="user-reset-pin">
          Reset Pin
        </Button>
      )}
      {mayResetPassword && (
        <Button
          variant="light"
          leftSection={<IconMailForward size={16} />}
          loading={resetPassword.isPending}
          onClick={() => void onResetPassword()}
          data-testid="user-reset-password"
        >
          Reset Password
        </Button>
      )}
      {mayCertify && (
        <Button leftSection={<IconCertificate size={16} />} loading={certify.isPending} onClick={() => void onCertify()} data-testid="user-certify">
          Certify
        </Button>
      )}
    </Group>
  );
}
