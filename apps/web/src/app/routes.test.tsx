import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { menuFor } from '@sc/shared/permissions';
import type { TUserType } from '@sc/shared/roles';
import { TOKEN_KEY } from '../api/storage.ts';
import { makeUser, mockFetch, renderRoutes } from '../test/render.tsx';
import { appRoutes } from './routes.tsx';

function signedInAs(role: TUserType, path: string) {
  localStorage.setItem(TOKEN_KEY, 'session-1');
  mockFetch({ 'GET /api/v1/user/': { body: makeUser(role) }, 'GET /api/v1/country/': { body: [] } });
  return renderRoutes(appRoutes, path);
}

describe('routes and guards', () => {
  it('sends a visitor without a token to the login page', async () => {
    mockFetch({ 'GET /api/v1/country/': { body: [] } });
    const { router } = renderRoutes(appRoutes, '/dashboard');
    expect(await screen.findByTestId('login-mobile-view')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('redirects the empty path to the dashboard', async () => {
    const { router } = signedInAs('ADMIN', '/');
    // The dashboard is a lazy page with tables and a chart: its first import may take a while on a busy machine
    // (the wait's budget is the setup's, test/setup.ts).
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it.each<[TUserType, string, string, string]>([
    ['ADMIN', '/login', '/scan', 'Breast Scans'],
    ['ORG_ADMIN', '/login', '/dashboard', 'Dashboard'],
    ['MANAGER', '/dashboard', '/organization', 'Organization'],
    ['CERVAICAL_REVIEWER', '/', '/cervaical', 'Cervical Exams'],
    ['TECHNICIAN', '/dashboard', '/user-delete', 'Delete my account'],
    ['ADMIN', '/user-delete', '/dashboard', 'Dashboard'],
    ['ORG_ADMIN', '/language', '/dashboard', 'Dashboard'],
    ['ORG_ADMIN', '/user?unassign=true', '/dashboard', 'Dashboard'],
    ['ORG_ADMIN', '/user?all=true', '/user', 'All Users'],
    ['SUB_ADMIN', '/app-version?ibe=true', '/dashboard', 'Dashboard'],
    ['ADMIN', '/app-version?orca=true', '/app-version', 'Release Notes – ORCA'],
    ['ADMIN', '/tutorial/module/content?id=3', '/tutorial/module/content', 'Tutorials – Content'],
  ])('a %s opening %s lands on %s', async (role, from, to, title) => {
    const { router } = signedInAs(role, from);
    // Pages are lazy: the first import of a large one (the organization list) may take a while on a busy machine.
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(to);
  });

  // Every entry of the ADMIN's menu (all of them, API mode on): the page it opens is titled as the entry reads,
  // or as its group and entry for Release Notes (docs/decisions.md, "Labels").
  const entries = menuFor('ADMIN', true).flatMap((item) =>
    item.children
      ? item.children.map((child) => ({
          path: child.path!,
          title: item.key === 'release-notes' ? `${item.label} – ${child.label}` : child.label,
        }))
      : [{ path: item.path!, title: item.label }],
  );
  it.each(entries)('titles the page at $path as its menu entry: $title', async ({ path, title }) => {
    localStorage.setItem('api_mode', 'true');
    signedInAs('ADMIN', path);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(title);
  });

  it('shows a not-found page for an unknown path', async () => {
    signedInAs('ADMIN', '/no-such-page');
    expect(await screen.findByTestId('not-found')).toHaveTextContent('Page not found');
  });

  it('shows the user card with identity, organizations and role actions', async () => {
    const user = userEvent.setup();
    signedInAs('ADMIN', '/dashboard');
    // Named by the words it shows, then what it is (WCAG label-in-name).
    expect(await screen.findByRole('button', { name: 'Asha Rao Super Admin User menu' })).toBe(
      screen.getByTestId('user-card'),
    );
    await user.click(await screen.findByTestId('user-card'));
    expect(screen.getByTestId('user-card-email')).toHaveTextContent('asha@example.org');
    expect(screen.getByTestId('user-card-role')).toHaveTextContent('Super Admin');
    expect(screen.getByTestId('user-card-mobile')).toHaveTextContent('+91-9876543210');
    // At most 3 organizations.
    expect(screen.getByText('City Clinic')).toBeInTheDocument();
    expect(screen.getByText('South Centre')).toBeInTheDocument();
    expect(screen.queryByText('East Unit')).not.toBeInTheDocument();
    expect(screen.getByTestId('user-card-create-organization')).toBeInTheDocument();
    expect(screen.getByTestId('user-card-delete-account')).toBeInTheDocument();
    expect(screen.getByTestId('sign-out')).toBeInTheDocument();
    expect(screen.queryByTestId('user-card-report-log')).not.toBeInTheDocument();
  });

  it('opens an organization and its edit form from the user card', async () => {
    const user = userEvent.setup();
    const { router } = signedInAs('ADMIN', '/dashboard');
    await user.click(await screen.findByTestId('user-card'));
    await user.click(screen.getByRole('button', { name: 'Edit North Hospital' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Organization' })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/organization/2?edit=true');
  });

  it('turns on the hidden API mode after three clicks on the avatar, showing Report Log to an ADMIN', async () => {
    const user = userEvent.setup();
    signedInAs('ADMIN', '/dashboard');
    await user.click(await screen.findByTestId('user-card'));
    expect(screen.queryByTestId('nav-report-log')).not.toBeInTheDocument();
    const avatar = screen.getByTestId('user-card-avatar');
    await user.click(avatar);
    await user.click(avatar);
    expect(screen.queryByTestId('user-card-report-log')).not.toBeInTheDocument();
    await user.click(avatar);
    expect(screen.getByTestId('user-card-report-log')).toBeInTheDocument();
    expect(screen.getByTestId('nav-report-log')).toBeInTheDocument();
    expect(localStorage.getItem('api_mode')).toBe('true');
  });

  it('hides Create Organization and Delete my account where the role may not use them', async () => {
    const user = userEvent.setup();
    signedInAs('ORG_ADMIN', '/dashboard');
    await user.click(await screen.findByTestId('user-card'));
    expect(screen.getByTestId('user-card-role')).toHaveTextContent('ORG Admin');
    expect(screen.queryByTestId('user-card-create-organization')).not.toBeInTheDocument();
    expect(screen.getByTestId('user-card-delete-account')).toBeInTheDocument();
  });
});
