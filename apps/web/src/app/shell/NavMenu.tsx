// Left navigation from the shared menu table (`menuFor`, part 1 §6): groups collapse, the entry
// of the current location is active.
import type { ReactNode } from 'react';
import { NavLink, Stack } from '@mantine/core';
import {
  IconBook2,
  IconBuildingHospital,
  IconCalendarEvent,
  IconChartBar,
  IconClipboardHeart,
  IconDeviceTablet,
  IconFileAnalytics,
  IconHistory,
  IconLanguage,
  IconLayoutDashboard,
  IconListDetails,
  IconNotes,
  IconScan,
  IconUserHeart,
  IconUsers,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { menuFor, type MenuItem } from '@sc/shared/permissions';
import type { TUserType } from '@sc/shared/roles';
import { isMenuPathActive } from '../routeAccess.ts';

const ICONS: Record<string, ReactNode> = {
  dashboard: <IconLayoutDashboard size={20} stroke={1.6} />,
  organization: <IconBuildingHospital size={20} stroke={1.6} />,
  scans: <IconScan size={20} stroke={1.6} />,
  devices: <IconDeviceTablet size={20} stroke={1.6} />,
  users: <IconUsers size={20} stroke={1.6} />,
  patient: <IconUserHeart size={20} stroke={1.6} />,
  'follow-up': <IconClipboardHeart size={20} stroke={1.6} />,
  audit: <IconHistory size={20} stroke={1.6} />,
  language: <IconLanguage size={20} stroke={1.6} />,
  tutorial: <IconBook2 size={20} stroke={1.6} />,
  'release-notes': <IconNotes size={20} stroke={1.6} />,
  booking: <IconCalendarEvent size={20} stroke={1.6} />,
  report: <IconChartBar size={20} stroke={1.6} />,
  'report-log': <IconFileAnalytics size={20} stroke={1.6} />,
};

/**
 * A group left with one entry for this role is that entry, at the top level with the group's icon
 * (MANAGER's "All Devices only", ORG_ADMIN's "All Users", the reviewer's Cervical; part 1 §6).
 */
export function flattenSingleChild(item: MenuItem): MenuItem & { iconKey: string } {
  const only = item.children?.length === 1 ? item.children[0] : undefined;
  return only ? { ...only, children: undefined, iconKey: item.key } : { ...item, iconKey: item.key };
}

type NavMenuProps = {
  role: TUserType;
  apiMode: boolean;
  /** Called after a link is followed (closes the menu on small screens). */
  onNavigate?: () => void;
};

export function NavMenu({ role, apiMode, onNavigate }: NavMenuProps) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const isActive = (item: MenuItem) => item.path !== undefined && isMenuPathActive(item.path, location.pathname, search);

  return (
    <Stack gap={4} component="nav" aria-label="Main menu" data-testid="nav-menu">
      {menuFor(role, apiMode).map(flattenSingleChild).map((item) =>
        item.children ? (
          <NavLink
            key={item.key}
            label={item.label}
            leftSection={ICONS[item.key] ?? <IconListDetails size={20} stroke={1.6} />}
            defaultOpened={item.children.some(isActive)}
            childrenOffset={34}
            data-testid={`nav-${item.key}`}
          >
            {item.children.map((child) => (
              <NavLink
                key={child.key}
                component={Link}
                to={child.path ?? '/'}
                label={child.label}
                active={isActive(child)}
                onClick={onNavigate}
                data-testid={`nav-${child.key}`}
              />
            ))}
          </NavLink>
        ) : (
          <NavLink
            key={item.key}
            component={Link}
            to={item.path ?? '/'}
            label={item.label}
            leftSection={ICONS[item.iconKey] ?? <IconListDetails size={20} stroke={1.6} />}
            active={isActive(item)}
            onClick={onNavigate}
            data-testid={`nav-${item.key}`}
          />
        ),
      )}
    </Stack>
  );
}
