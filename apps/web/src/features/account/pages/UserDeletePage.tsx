// Technicians' page in the console (part 3 "Delete My account"): one button with a confirm.
import { Button, Paper, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useDeleteOwnAccount } from '../account.api.ts';

export function UserDeletePage() {
  const deleteAccount = useDeleteOwnAccount();
  return (
    <>
      <PageHeader title="Delete my account" />
      <Paper withBorder p="xl" maw={560}>
        <Stack gap="md" align="flex-start">
          <Text>
            Technicians use the screening apps on their devices; this console only lets you delete your
            account.
          </Text>
          <Text size="sm" c="dimmed">
            Deleting your account signs you out everywhere and removes your personal details. The scans and
            patients you recorded stay with your organization.
          </Text>
          <Button
            color="red"
            leftSection={<IconTrash size={18} />}
            loading={deleteAccount.isPending}
            onClick={() => void deleteAccount.start()}
            data-testid="delete-account"
          >
            Delete my account
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
