// The user card of the top bar (part 1 §2.3): identity, up to 3 organizations, Create
// Organization, Report Log (ADMIN in API mode), Delete my account, Sign out. Clicking the
// avatar in the card more than twice switches the hidden API mode.
import { Suspense, lazy, useRef, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Avatar,
  Badge,
  Box,
  Button,
  Divider,
  Group,
  Popover,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconBuildingHospital,
  IconChevronDown,
  IconFileAnalytics,
  IconLogout,
  IconMail,
  IconPencil,
  IconPhone,
  IconPlus,
  IconTrash,
  IconUserShare,
} from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { TSessionUser } from '@sc/shared/auth';
import { API_MODE_CLICKS, MENU_ORGANIZATIONS } from '@sc/shared/constants';
import { can } from '@sc/shared/permissions';
import { ROLE_LABELS } from '@sc/shared/roles';
import { signOut } from '../../api/session.ts';
import { useDeleteOwnAccount } from '../../features/account/account.api.ts';
import { canEditOrganization } from '../../features/organizations/organizationAccess.ts';
import { canOpenMenuKey } from '../routeAccess.ts';
import classes from './UserCard.module.css';

// Loaded on first use: only an ADMIN ever opens it, and it brings the data table along.
const ImpersonationModal = lazy(() =>
  import('../../features/impersonation/components/ImpersonationModal.tsx').then((m) => ({
    default: m.ImpersonationModal,
  })),
);

type UserCardProps = {
  user: TSessionUser;
  apiMode: boolean;
  onToggleApiMode: () => void;
};

export const displayName = (user: TSessionUser): string =>
  `${user.first_name} ${user.last_name}`.trim() || user.username || user.email || 'User';

export function UserCard({ user, apiMode, onToggleApiMode }: UserCardProps) {
  const [opened, setOpened] = useState(false);
  const [impersonationOpened, setImpersonationOpened] = useState(false);
  const clicks = useRef(0);
  const navigate = useNavigate();
  const deleteAccount = useDeleteOwnAccount();
  const name = displayName(user);
  const initial = name.charAt(0).toUpperCase();
  const role = user.user_type;
  const showOrganizations = canOpenMenuKey(role, 'organization');
  // The pencil opens the edit dialog; a role that cannot edit (the cervical reviewer) does not get a dead button.
  const mayEdit = canEditOrganization(role);

  const close = () => {
    clicks.current = 0;
    setOpened(false);
  };
  const goTo = (path: string) => {
    close();
    void navigate(path);
  };
  const countAvatarClick = () => {
    clicks.current += 1;
    if (clicks.current >= API_MODE_CLICKS) {
      clicks.current = 0;
      onToggleApiMode();
    }
  };

  return (
    <>
      <Popover
        opened={opened}
        onChange={(o) => (o ? setOpened(true) : close())}
        position="bottom-end"
        width={320}
        shadow="lg"
        radius="lg"
        withinPortal
        transitionProps={{ transition: 'pop-top-right', duration: 150 }}
      >
        <Popover.Target>
          <UnstyledButton
            className={classes.target}
            onClick={() => (opened ? close() : setOpened(true))}
            aria-expanded={opened}
            data-testid="user-card"
          >
            {/* Named by what it shows (name and role from sm up) plus 'User menu': a screen reader hears the
                visible words, as WCAG's label-in-name asks. */}
            <Group gap="sm" wrap="nowrap">
              <Avatar color="clinic" radius="xl" variant="filled" aria-hidden>
                {initial}
              </Avatar>
              <Box visibleFrom="sm" style={{ lineHeight: 1.2 }}>
                <Text size="sm" fw={600} lineClamp={1}>
                  {name}
                </Text>
                <Text size="xs" c="dimmed">
                  {ROLE_LABELS[role]}
                </Text>
              </Box>
              <IconChevronDown size={16} stroke={1.8} aria-hidden />
              <VisuallyHidden>User menu</VisuallyHidden>
            </Group>
          </UnstyledButton>
        </Popover.Target>

        <Popover.Dropdown p={0} data-testid="user-card-dropdown">
          <Group gap="md" p="md" wrap="nowrap" align="flex-start">
            <Avatar
              color="clinic"
              radius="xl"
              size="lg"
              variant="filled"
              onClick={countAvatarClick}
              data-testid="user-card-avatar"
              style={{ cursor: 'default', userSelect: 'none' }}
            >
              {initial}
            </Avatar>
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Text fw={600} lineClamp={1} data-testid="user-card-name">
                {name}
              </Text>
              <Badge variant="light" size="sm" data-testid="user-card-role">
                {ROLE_LABELS[role]}
              </Badge>
              {user.email && (
                <Group gap={6} wrap="nowrap">
                  <IconMail size={14} stroke={1.6} />
                  <Text size="xs" c="dimmed" truncate data-testid="user-card-email">
                    {user.email}
                  </Text>
                </Group>
              )}
              {user.mobile && (
                <Group gap={6} wrap="nowrap">
                  <IconPhone size={14} stroke={1.6} />
                  <Text size="xs" c="dimmed" data-testid="user-card-mobile">
                    {user.mobile}
                  </Text>
                </Group>
              )}
            </Stack>
          </Group>

          {showOrganizations && (
            <>
              <Divider />
              <Stack gap={2} p="xs" data-testid="user-card-organizations">
                <Group justify="space-between" px="xs" pt={4}>
                  <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                    Organizations
                  </Text>
                  <Anchor
                    size="xs"
                    component="button"
                    type="button"
                    onClick={() => goTo('/organization')}
                    data-testid="user-card-see-all"
                  >
                    See All
                  </Anchor>
                </Group>
                {user.organizations.slice(0, MENU_ORGANIZATIONS).map((org) => (
                  <Group key={org.id} gap={4} wrap="nowrap" className={classes.orgRow}>
                    <UnstyledButton
                      className={classes.orgName}
                      onClick={() => goTo(`/organization/${org.id}`)}
                    >
                      <Group gap={8} wrap="nowrap">
                        <IconBuildingHospital size={16} stroke={1.6} />
                        <Text size="sm" truncate>
                          {org.name}
                        </Text>
                      </Group>
                    </UnstyledButton>
                    {mayEdit && (
                      <Tooltip label="Edit organization" openDelay={400}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={`Edit ${org.name}`}
                          onClick={() => goTo(`/organization/${org.id}?edit=true`)}
                        >
                          <IconPencil size={16} stroke={1.6} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                ))}
              </Stack>
            </>
          )}

          <Divider />
          <Stack gap={4} p="xs">
            {can(role, 'organization.menuCreate') && (
              <Button
                variant="subtle"
                justify="flex-start"
                leftSection={<IconPlus size={16} />}
                onClick={() => goTo('/organization?create=true')}
                data-testid="user-card-create-organization"
              >
                Create Organization
              </Button>
            )}
            {can(role, 'reportLog.view') && apiMode && (
              <Button
                variant="subtle"
                justify="flex-start"
                leftSection={<IconFileAnalytics size={16} />}
                onClick={() => goTo('/report-log')}
                data-testid="user-card-report-log"
              >
                Report Log
              </Button>
            )}
            {can(role, 'user.impersonate') && !user.is_impersonated && (
              <Button
                variant="subtle"
                justify="flex-start"
                leftSection={<IconUserShare size={16} />}
                onClick={() => {
                  close();
                  setImpersonationOpened(true);
                }}
                data-testid="user-card-impersonation"
              >
                Impersonation
              </Button>
            )}
            {/* While impersonating, writes carry the ADMIN's own token: never offer to delete that account. */}
            {role !== 'TECHNICIAN' && !user.is_impersonated && (
              <Button
                variant="subtle"
                color="red"
                justify="flex-start"
                leftSection={<IconTrash size={16} />}
                loading={deleteAccount.isPending}
                onClick={() => {
                  close();
                  void deleteAccount.start();
                }}
                data-testid="user-card-delete-account"
              >
                Delete my account
              </Button>
            )}
            <Button
              variant="subtle"
              color="gray"
              justify="flex-start"
              leftSection={<IconLogout size={16} />}
              onClick={() => void signOut()}
              data-testid="sign-out"
            >
              Sign out
            </Button>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      {impersonationOpened && (
        <Suspense fallback={null}>
          <ImpersonationModal opened onClose={() => setImpersonationOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
