import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AUDIT_ROLES } from '@sc/shared/audit';
import { FOLLOW_UP_ROLES } from '@sc/shared/follow-up';
import { USER_TYPES, type TUserType } from '@sc/shared/roles';
import { renderRoutes } from '../../test/render.tsx';
import { NavMenu } from './NavMenu.tsx';

function renderMenu(role: TUserType, path = '/dashboard', apiMode = false) {
  return renderRoutes([{ path: '*', element: <NavMenu role={role} apiMode={apiMode} /> }], path);
}

describe('NavMenu', () => {
  it('shows the administrative entries to an ADMIN', () => {
    renderMenu('ADMIN');
    for (const label of [
      'Dashboard',
      'Organization',
      'Scans',
      'Devices',
      'Users',
      'Patients',
      'Languages',
      'Tutorials',
      'Release Notes',
      'Booking',
      'Scan Report',
    ]) {
      expect(screen.getByText(label)).toBeInTheDocument();
    }
    expect(screen.queryByText('Report Log')).not.toBeInTheDocument();
  });

  it('hides the administrative entries from an ORG_ADMIN', () => {
    renderMenu('ORG_ADMIN');
    for (const label of ['Dashboard', 'Organization', 'All Users', 'Scan Report']) {
      expect(screen.getByText(label)).toBeInTheDocument();
    }
    for (const label of [
      'Scans',
      'Devices',
      'Patients',
      'Languages',
      'Tutorials',
      'Release Notes',
      'Booking',
      'Report Log',
    ]) {
      expect(screen.queryByText(label)).not.toBeInTheDocument();
    }
  });

  it('gives a MANAGER All Devices alone and an ORG_ADMIN All Users alone, without a one-entry group', () => {
    const { unmount } = renderMenu('MANAGER');
    expect(screen.queryByTestId('nav-devices')).not.toBeInTheDocument();
    expect(screen.getByTestId('nav-device')).toHaveAttribute('href', '/device');
    expect(screen.getByText('All Devices')).toBeInTheDocument();
    unmount();
    renderMenu('ORG_ADMIN');
    expect(screen.queryByTestId('nav-users')).not.toBeInTheDocument();
    expect(screen.getByTestId('nav-user-all')).toHaveAttribute('href', '/user?all=true');
  });

  it('shows Report Log to an ADMIN in API mode only', () => {
    renderMenu('ADMIN', '/dashboard', true);
    expect(screen.getByText('Report Log')).toBeInTheDocument();
  });

  it('opens the group of the current page and marks its entry active', async () => {
    const user = userEvent.setup();
    renderMenu('ADMIN', '/user?unassign=true');
    expect(screen.getByTestId('nav-user-unassign')).toHaveAttribute('data-active', 'true');
    expect(screen.getByTestId('nav-user-all')).not.toHaveAttribute('data-active');
    await user.click(screen.getByTestId('nav-devices'));
    expect(screen.getByTestId('nav-firmware')).toHaveAttribute('href', '/firmware');
  });

  it('spells every label one way: Cervical and ORCA, never the API spelling Cervaical or OrCA', async () => {
    const user = userEvent.setup();
    renderMenu('ADMIN', '/dashboard', true);
    for (const group of ['nav-scans', 'nav-release-notes']) await user.click(screen.getByTestId(group));
    const text = screen.getByTestId('nav-menu').textContent ?? '';
    expect(text).toContain('Cervical Exams');
    expect(text).toContain('ORCA Exams');
    expect(text).not.toMatch(/Cervaical|OrCA/);
  });

  it('gives a CERVAICAL_REVIEWER Organization and Cervical only, as top-level entries', () => {
    renderMenu('CERVAICAL_REVIEWER', '/cervaical');
    expect(screen.getByText('Organization')).toBeInTheDocument();
    // A group left with one entry is that entry: no Scans group holding only Cervical.
    expect(screen.queryByTestId('nav-scans')).not.toBeInTheDocument();
    expect(screen.getByTestId('nav-cervaical')).toHaveAttribute('href', '/cervaical');
    expect(screen.getByTestId('nav-cervaical')).toHaveTextContent('Cervical Exams');
    expect(screen.getByTestId('nav-cervaical')).toHaveAttribute('data-active', 'true');
    expect(screen.queryByTestId('nav-scan')).not.toBeInTheDocument();
    expect(screen.queryByText('Dashboard')).not.toBeInTheDocument();
  });

  it('gives Follow-up to the roles that follow up patients (FOLLOW_UP_ROLES) and no other', () => {
    for (const role of USER_TYPES) {
      const { unmount } = renderMenu(role);
      const entry = screen.queryByTestId('nav-follow-up');
      if (FOLLOW_UP_ROLES.includes(role)) expect(entry).toHaveAttribute('href', '/follow-up');
      else expect(entry).not.toBeInTheDocument();
      unmount();
    }
  });

  it('gives Audit trail to AUDIT_ROLES and no other', () => {
    for (const role of USER_TYPES) {
      const { unmount } = renderMenu(role);
      const entry = screen.queryByTestId('nav-audit');
      if (AUDIT_ROLES.includes(role)) expect(entry).toHaveAttribute('href', '/audit');
      else expect(entry).not.toBeInTheDocument();
      unmount();
    }
  });
});
