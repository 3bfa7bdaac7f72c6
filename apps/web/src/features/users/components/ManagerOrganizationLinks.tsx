// A manager's organization links (part 2 §2.3, §4, §7, §8): listed (up to 1000), added one at a time with the
// organization picker, removed one at a time after a confirm. A failed add shows the server's text under the
// picker for 2 seconds.
import { useState } from 'react';
import { ActionIcon, Anchor, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LINK_ERROR_MS } from '@sc/shared/user-labels';
import { USER_MESSAGES } from '@sc/shared/user-input';
import type { TUserDetail, TUserOrganizationLink } from '@sc/shared/users';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { OrganizationPicker, organizationOptionLabel } from '../../../components/OrganizationPicker.tsx';
import { useTimedMessage } from '../../../components/useTimedMessage.ts';
import { useAddOrganizationLink, useRemoveOrganizationLink, useUserOrganizationLinks } from '../users.api.ts';

export function ManagerOrganizationLinks({ user }: { user: TUserDetail }) {
  const links = useUserOrganizationLinks(user.id);
  const add = useAddOrganizationLink();
  const remove = useRemoveOrganizationLink();
  const [organization, setOrganization] = useState<number | null>(null);
  // The picker is remounted after each add, so its box empties.
  const [pickerKey, setPickerKey] = useState(0);
  const addError = useTimedMessage(LINK_ERROR_MS);
  const linked = links.data?.results ?? [];

  const onAdd = async () => {
    if (organization === null) return;
    addError.clear();
    try {
      const saved = await add.mutateAsync({ organization, user: user.id });
      notifications.show({ color: 'teal', message: saved.detail || USER_MESSAGES.linkAdded });
      setOrganization(null);
      setPickerKey((k) => k + 1);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status >= 500)) return;
      addError.show(errorMessage(error));
    }
  };

  const onRemove = async (link: TUserOrganizationLink) => {
    const ok = await confirm({
      message: USER_MESSAGES.removeOrganizationConfirm(link.organization_data.name),
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    try {
      const answer = await remove.mutateAsync(link.id);
      notifications.show({ color: 'teal', message: answer?.detail || USER_MESSAGES.linkRemoved });
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status >= 500))) {
        notifications.show({ color: 'red', message: errorMessage(error) });
      }
    }
  };

  return (
    <Stack gap="sm" data-testid="user-links">
      <Title order={3} size="h5">
        Organizations
      </Title>
      {links.isPending ? (
        <Loader size="xs" />
      ) : linked.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="user-links-empty">
          This manager has no organizations yet.
        </Text>
      ) : (
        <Table verticalSpacing={4} data-testid="user-links-table">
          <Table.Tbody>
            {linked.map((link) => (
              <Table.Tr key={link.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/organization/${link.organization}`} size="sm">
                    {organizationOptionLabel(link.organization_data)}
                  </Anchor>
                </Table.Td>
                <Table.Td w={48}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${link.organization_data.name}`}
                    onClick={() => void onRemove(link)}
                    data-testid={`user-link-remove-${link.organization}`}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <div style={{ flex: 1 }}>
          <OrganizationPicker
            key={pickerKey}
            label="Add an organization"
            withAsterisk={false}
            value={organization}
            excludeIds={linked.map((l) => l.organization)}
            error={addError.message ?? undefined}
            onChange={(id) => setOrganization(id)}
            testId="user-link-picker"
          />
        </div>
        <Button
          mt={25}
          leftSection={<IconPlus size={16} />}
          disabled={organization === null}
          loading={add.isPending}
          onClick={() => void onAdd()}
          data-testid="user-link-add"
        >
          Add
        </Button>
      </Group>
    </Stack>
  );
}
