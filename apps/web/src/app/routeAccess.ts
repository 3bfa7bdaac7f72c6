// Which roles may open a console route: the roles of its menu entry (part 1 §6). A role with no
// menu entry for a route is sent to its landing page.
import { MENU, type MenuItem } from '@sc/shared/permissions';
import type { TUserType } from '@sc/shared/roles';

function findMenuItem(items: readonly MenuItem[], key: string): MenuItem | undefined {
  for (const item of items) {
    if (item.key === key) return item;
    const child = item.children && findMenuItem(item.children, key);
    if (child) return child;
  }
  return undefined;
}

export function rolesForMenuKey(key: string): readonly TUserType[] {
  const item = findMenuItem(MENU, key);
  if (!item) throw new Error(`Unknown menu key: ${key}`);
  return item.roles;
}

/** The label of a menu entry: also the title of its page, so the two never disagree. */
export function menuLabel(key: string): string {
  const item = findMenuItem(MENU, key);
  if (!item) throw new Error(`Unknown menu key: ${key}`);
  return item.label;
}

export const canOpenMenuKey = (role: TUserType, key: string): boolean => rolesForMenuKey(key).includes(role);

/** Menu key guarding a route; a function when the query string decides (user?unassign). */
export type RouteMenuKey = string | ((search: URLSearchParams) => string);

export const resolveMenuKey = (key: RouteMenuKey, search: URLSearchParams): string =>
  typeof key === 'function' ? key(search) : key;

/** True when the menu entry's path (with its query flags) is the current location. */
export function isMenuPathActive(path: string, pathname: string, search: URLSearchParams): boolean {
  const [itemPath = '', itemQuery = ''] = path.split('?');
  const samePath = pathname === itemPath || pathname.startsWith(`${itemPath}/`);
  if (!samePath) return false;
  for (const [key, value] of new URLSearchParams(itemQuery)) {
    if (search.get(key) !== value) return false;
  }
  return true;
}
