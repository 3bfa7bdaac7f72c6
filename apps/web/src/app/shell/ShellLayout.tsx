// The authenticated shell (part 1 §2.3): top bar with burger, product name and user card, the
// role's menu on the left; the menu collapses below md (i.e. at the spec's sm breakpoint).
import '../consoleStyles.ts';
import { useEffect } from 'react';
import {
  AppShell,
  Burger,
  Button,
  Center,
  Group,
  Loader,
  Progress,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import { IconActivityHeartbeat, IconAlertTriangle } from '@tabler/icons-react';
import { Link, Outlet, useNavigation } from 'react-router';
import { menuFor } from '@sc/shared/permissions';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useCurrentUser } from '../../api/session.ts';
import { API_MODE_KEY } from '../../api/storage.ts';
import {
  IMPERSONATION_BANNER_HEIGHT,
  ImpersonationBanner,
} from '../../features/impersonation/components/ImpersonationBanner.tsx';
import { SessionUserContext } from '../SessionUserContext.tsx';
import { NavMenu } from './NavMenu.tsx';
import { UserCard } from './UserCard.tsx';
import { useRecordDashboardPath } from './useRecordDashboardPath.ts';
import { wantAppHosts } from '../../components/appHosts.ts';

export function ShellLayout() {
  // Its dialogs and notices: loaded as it opens, not with the sign-in screens.
  useEffect(() => wantAppHosts(), []);
  const userQuery = useCurrentUser();
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const [desktopOpened, { toggle: toggleDesktop }] = useDisclosure(true);
  const [apiMode, setApiMode] = useLocalStorage<boolean>({ key: API_MODE_KEY, defaultValue: false });
  const navigation = useNavigation();
  useRecordDashboardPath(userQuery.data);

  if (userQuery.isPending) {
    return (
      <Center h="100vh" data-testid="shell-loading">
        <Loader />
      </Center>
    );
  }
  if (userQuery.isError) {
    // A 401 is handled by the 'Expired User Session' dialog; show a quiet loader meanwhile.
    if (userQuery.error instanceof ApiError && userQuery.error.status === 401) {
      return (
        <Center h="100vh">
          <Loader />
        </Center>
      );
    }
    return (
      <Center h="100vh">
        <Stack align="center" gap="sm">
          <ThemeIcon size={48} radius="xl" color="red" variant="light">
            <IconAlertTriangle />
          </ThemeIcon>
          <Text>{errorMessage(userQuery.error)}</Text>
          <Button variant="light" onClick={() => void userQuery.refetch()}>
            Try again
          </Button>
        </Stack>
      </Center>
    );
  }

  const user = userQuery.data;
  const hasMenu = menuFor(user.user_type, apiMode).length > 0;
  // While an ADMIN impersonates, the banner sits above the top bar (part 1 §4).
  const banner = user.is_impersonated ? IMPERSONATION_BANNER_HEIGHT : { base: 0, sm: 0 };
  const headerHeight = { base: 60 + banner.base, sm: 60 + banner.sm };

  return (
    <SessionUserContext.Provider value={user}>
      <AppShell
        header={{ height: headerHeight }}
        navbar={
          hasMenu
            ? { width: 260, breakpoint: 'md', collapsed: { mobile: !mobileOpened, desktop: !desktopOpened } }
            : undefined
        }
        padding={{ base: 'md', md: 'xl' }}
      >
        <AppShell.Header withBorder>
          {navigation.state === 'loading' && (
            <Progress value={100} animated size={2} radius={0} pos="absolute" top={0} left={0} right={0} />
          )}
          {user.is_impersonated && <ImpersonationBanner user={user} />}
          <Group h={60} px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              {hasMenu && (
                <>
                  <Burger
                    opened={mobileOpened}
                    onClick={toggleMobile}
                    hiddenFrom="md"
                    size="sm"
                    aria-label="Toggle menu"
                    data-testid="burger"
                  />
                  <Burger
                    opened={desktopOpened}
                    onClick={toggleDesktop}
                    visibleFrom="md"
                    size="sm"
                    aria-label="Toggle menu"
                  />
                </>
              )}
              <UnstyledButton component={Link} to="/" aria-label="Screening Console home">
                <Group gap={10} wrap="nowrap">
                  <ThemeIcon size={32} radius="md">
                    <IconActivityHeartbeat size={20} />
                  </ThemeIcon>
                  <Text fw={700} fz="lg" visibleFrom="xs" data-testid="product-name">
                    Screening Console
                  </Text>
                </Group>
              </UnstyledButton>
            </Group>
            <UserCard user={user} apiMode={apiMode} onToggleApiMode={() => setApiMode((on) => !on)} />
          </Group>
        </AppShell.Header>

        {hasMenu && (
          <AppShell.Navbar p="sm">
            <AppShell.Section grow component={ScrollArea}>
              <NavMenu role={user.user_type} apiMode={apiMode} onNavigate={closeMobile} />
            </AppShell.Section>
          </AppShell.Navbar>
        )}

        <AppShell.Main bg="gray.0">
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </SessionUserContext.Provider>
  );
}
