import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { fullOrganization, lastQuery, orgRow, page, renderOrganizationRoutes } from '../test/organizationFixtures.tsx';

vi.mock('../form/OrganizationFormDialog.tsx', async () => {
  const fake = await import('../test/FakeOrganizationFormDialog.tsx');
  return { OrganizationFormDialog: fake.FakeOrganizationFormDialog };
});

const LIST = '/api/v1/organization/';

function setup(role: TUserType, path: string, canCreate = true) {
  const fetchMock = mockFetch({
    'GET /api/v1/organization/2/': { body: fullOrganization({ can_create_organization: canCreate }) },
    [`GET ${LIST}`]: { body: page([orgRow(9, 'Child Clinic', { parent: 2 })]) },
  });
  const view = renderOrganizationRoutes(makeUser(role), path);
  return { fetchMock, ...view };
}

// The page's own tab list (an embedded list brings its period tabs too).
const tabNames = () => within(screen.getAllByRole('tablist')[0]!).getAllByRole('tab').map((t) => t.textContent);

describe('OrganizationDetailPage', () => {
  it('shows the name, the Distributor badge and opens on Sub-Organization for an ADMIN', async () => {
    const { fetchMock } = setup('ADMIN', '/organization/2');
    expect(await screen.findByRole('heading', { level: 1, name: 'North Hospital' })).toBeInTheDocument();
    expect(screen.getByTestId('organization-distributor-badge')).toHaveTextContent('Distributor');
    expect(tabNames()).toEqual(['Sub-Organization', 'Users', 'Devices', 'Breast Scans', 'Patients', 'Cervical Exams', 'ORCA Exams', 'Bookings', 'Follow-up', 'Webhook', 'History']);
    expect(screen.getByRole('tab', { name: 'Sub-Organization' })).toHaveAttribute('aria-selected', 'true');
    // The embedded list: the organization's children, no title, no filter dropdown.
    expect(await screen.findByText('Child Clinic')).toBeInTheDocument();
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ parent: '2' });
    expect(screen.queryByRole('heading', { name: 'Organization' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Organization type' })).not.toBeInTheDocument();
    expect(screen.getByTestId('organization-add')).toBeInTheDocument();
  });

  it('lets a MANAGER add a sub-organization under the organization', async () => {
    const user = userEvent.setup();
    setup('MANAGER', '/organization/2');
    await screen.findByText('Child Clinic');
    await user.click(screen.getByTestId('organization-add'));
    expect(screen.getByTestId('fake-org-form')).toHaveAttribute('data-parent-id', '2');
  });

  it.each<TUserType>(['ORG_ADMIN', 'DISTRIBUTOR_ADMIN'])(
    'hides Sub-Organization from a %s and opens on Users',
    async (role) => {
      setup(role, '/organization/2');
      await screen.findByRole('heading', { level: 1, name: 'North Hospital' });
      expect(tabNames()).not.toContain('Sub-Organization');
      expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
    },
  );

  it('shows a CERVAICAL_REVIEWER (who may not read users or devices) neither tab, and opens on the first tab shown', async () => {
    setup('CERVAICAL_REVIEWER', '/organization/2');
    await screen.findByRole('heading', { level: 1, name: 'North Hospital' });
    expect(tabNames()).not.toContain('Sub-Organization');
    expect(tabNames()).not.toContain('Users');
    expect(tabNames()).not.toContain('Devices');
    // Issue 27: the History tab is the audit trail's, for AUDIT_ROLES only.
    expect(tabNames()).not.toContain('History');
    expect(screen.getAllByRole('tab')[0]).toHaveAttribute('aria-selected', 'true');
  });

  it('hides Sub-Organization on an organization that cannot create organizations', async () => {
    setup('ADMIN', '/organization/2', false);
    await screen.findByRole('heading', { level: 1, name: 'North Hospital' });
    expect(screen.queryByTestId('organization-distributor-badge')).not.toBeInTheDocument();
    expect(tabNames()[0]).toBe('Users');
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
  });

  it('keeps the open tab in the URL', async () => {
    const user = userEvent.setup();
    const { router } = setup('ADMIN', '/organization/2?tab=scans');
    await screen.findByRole('heading', { level: 1, name: 'North Hospital' });
    expect(screen.getByRole('tab', { name: 'Breast Scans' })).toHaveAttribute('aria-selected', 'true');
    expect(within(screen.getByRole('tabpanel')).getByTestId('scan-list')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Patients' }));
    expect(router.state.location.search).toBe('?tab=patients');
  });

  it('opens the edit dialog from ?edit=true and drops the flag on close', async () => {
    const user = userEvent.setup();
    const { router } = setup('ADMIN', '/organization/2?edit=true');
    expect(await screen.findByTestId('fake-org-form')).toHaveAttribute('data-organization-id', '2');
    await user.click(screen.getByRole('button', { name: 'Cancel form' }));
    expect(router.state.location.search).toBe('');
    await user.click(screen.getByTestId('organization-edit'));
    expect(screen.getByTestId('fake-org-form')).toBeInTheDocument();
  });

  it('shows no Edit button to a CERVAICAL_REVIEWER', async () => {
    setup('CERVAICAL_REVIEWER', '/organization/2?edit=true');
    await screen.findByRole('heading', { level: 1, name: 'North Hospital' });
    expect(screen.queryByTestId('organization-edit')).not.toBeInTheDocument();
    expect(screen.queryByTestId('fake-org-form')).not.toBeInTheDocument();
  });

  it('shows a not-found panel for an organization outside the scope', async () => {
    mockFetch({});
    renderOrganizationRoutes(makeUser('ORG_ADMIN'), '/organization/77');
    expect(await screen.findByTestId('organization-not-found')).toHaveTextContent('Organization not found');
  });

  it('shows the not-found panel for an id that is not a number, without asking the API', async () => {
    const fetchMock = mockFetch({});
    renderOrganizationRoutes(makeUser('ADMIN'), '/organization/abc');
    expect(await screen.findByTestId('organization-not-found')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).not.toHaveBeenCalled());
  });
});
