// Deleting one's own account (part 3 §4, architecture §7b): confirm, DELETE, sign-out call (failure
// ignored), 'User Deleted Successfully', then clear local storage and reload after 1.5 s.
import { useMutation } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import { ACCOUNT_DELETE_RELOAD_MS } from '@sc/shared/constants';
import { browser } from '../../api/browser.ts';
import { ApiError, api, errorMessage } from '../../api/client.ts';
import { clearStorage } from '../../api/storage.ts';
import { openAlert } from '../../components/AlertDialog.tsx';
import { confirm } from '../../components/ConfirmDialog.tsx';

async function deleteOwnAccount(): Promise<void> {
  await api.delete('user/delete/me/');
  try {
    await api.post('user/logout/', undefined, { handleErrors: false });
  } catch {
    // The deletion already ended the session; the page still reloads signed out.
  }
}

export function useDeleteOwnAccount() {
  const mutation = useMutation({ mutationFn: deleteOwnAccount });

  const start = async (): Promise<void> => {
    const confirmed = await confirm({ message: AUTH_MESSAGES.deleteAccountConfirm, danger: true });
    if (!confirmed) return;
    try {
      await mutation.mutateAsync();
    } catch (e) {
      // 401/403/5xx are already reported by the client.
      if (e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status >= 500)) return;
      notifications.show({ color: 'red', title: 'Account not deleted', message: errorMessage(e) });
      return;
    }
    void openAlert({ variant: 'success', title: AUTH_MESSAGES.accountDeleted });
    setTimeout(() => {
      clearStorage();
      browser.reload();
    }, ACCOUNT_DELETE_RELOAD_MS);
  };

  return { start, isPending: mutation.isPending };
}
