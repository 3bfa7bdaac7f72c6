import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { bodyOf, makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { renderOrganizationUsers, renderUserRoutes, userPage, userRow } from '../test/userFixtures.tsx';


const LIST = '/api/v1/organization/user/';
const assigned = userRow(11, 'Meera', 'Nair');
const loose = userRow(12, 'Ravi', 'Kumar', { organization: null, organization_data: null, ibe_training_status: 'NOT_STARTED' });
const distributor = userRow(13, 'Dev', 'Shah', { user_type: 'DISTRIBUTOR_ADMIN' });

function setup(role: TUserType = 'ADMIN', path = '/user?all=true', results = [assigned, loose], extra = {}) {
  const fetchMock = mockFetch({
    [`GET ${LIST}`]: { body: userPage(results, results.length ? 31 : 0) },
    'GET /api/v1/organization/': {
      body: { count: 2, next: null, previous: null, results: [{ id: 2, name: 'North Hospital', country: 'India' }, { id: 3, name: 'South Centre', country: null }] },
    },
    ...extra,
  });
  const view = renderUserRoutes(makeUser(role), path);
  const urlQuery = () => Object.fromEntries(new URLSearchParams(view.router.state.location.search));
  return { fetchMock, urlQuery, ...view };
}

async function actionsOf(name: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Actions for ${name}` }));
  const menu = await screen.findByRole('menu');
  return within(menu).getAllByRole('menuitem').map((item) => item.textContent);
}

const headers = () => Array.from(document.querySelectorAll('thead th'), (h) => h.textContent?.trim()).filter(Boolean);

describe('UserList', () => {
  it('is All Users with ?all: the §2.2 columns with Organization linking to it, the total, read from the replica', async () => {
    const { fetchMock } = setup();
    expect(await screen.findByText('Meera Nair')).toBeInTheDocument();
    expect(screen.getByTestId('page-title')).toHaveTextContent('All Users');
    expect(headers()).toEqual(['Name', 'Mobile', 'E-mail', 'User Type', 'IBE Training Status', 'Organization', 'Created', 'ID', 'Actions']);
    expect(screen.getByRole('link', { name: 'North Hospital' })).toHaveAttribute('href', '/organization/2');
    expect(screen.getByText('Unassigned')).toBeInTheDocument();
    expect(screen.getByText('Not started')).toBeInTheDocument();
    expect(screen.getAllByText('Technician')).toHaveLength(2);
    expect(screen.getByTestId('list-total')).toHaveTextContent('31 items');
    expect(screen.getByPlaceholderText('Search by name, mobile no, email')).toBeInTheDocument();
    expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-created', using_read_db: 'true' });
  });

  it('is Unassigned Users with ?unassign: is_unassigned=true and no Organization column', async () => {
    const { fetchMock } = setup('ADMIN', '/user?unassign=true', [loose]);
    expect(await screen.findByText('Ravi Kumar')).toBeInTheDocument();
    expect(screen.getByTestId('page-title')).toHaveTextContent('Unassigned Users');
    expect(headers()).not.toContain('Organization');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ is_unassigned: 'true' });
  });

  it('sends search, the period on created and the Name ordering (first_name), keeping the view flag in the URL', async () => {
    const user = userEvent.setup();
    const { fetchMock, urlQuery } = setup();
    await screen.findByText('Meera Nair');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All Time', 'Last 30 Days', 'Custom Range']);
    await user.type(screen.getByTestId('list-search'), 'meera');
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ search: 'meera' }));
    await user.click(screen.getByRole('tab', { name: 'Last 30 Days' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toHaveProperty('created_after'));
    expect(lastQuery(fetchMock, LIST)).toHaveProperty('created_before');
    await user.click(screen.getByText('Name'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ ordering: 'first_name' }));
    expect(urlQuery()).toMatchObject({ all: 'true', search: 'meera', period: '30', ordering: 'first_name' });
  });

  it('inside an organization: no title, no period tabs, no Organization column, filtered by organization_id', async () => {
    const fetchMock = mockFetch({ [`GET ${LIST}`]: { body: userPage([assigned]) } });
    renderOrganizationUsers(makeUser('ADMIN'), { id: 2, name: 'North Hospital', can_create_organization: false });
    expect(await screen.findByText('Meera Nair')).toBeInTheDocument();
    expect(screen.queryByTestId('page-title')).not.toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(headers()).not.toContain('Organization');
    expect(screen.getByTestId('user-create')).toBeInTheDocument();
    expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-created', organization_id: '2', using_read_db: 'true' });
  });

  it('says "No users yet!" without a filter', async () => {
    setup('ADMIN', '/user?all=true', []);
    expect(await screen.findByText('No users yet!')).toBeInTheDocument();
  });

  it('says "No users found!" when a search is active', async () => {
    setup('ADMIN', '/user?all=true&search=zzz', []);
    expect(await screen.findByText('No users found!')).toBeInTheDocument();
  });

  it.each<[TUserType, string[], string[], string[]]>([
    ['ADMIN', ['Details', 'Unassign', 'Transfer'], ['Details', 'Assign'], ['Details', 'Unassign', 'Transfer']],
    ['SUB_ADMIN', ['Details', 'Unassign', 'Transfer'], ['Details', 'Assign'], ['Details', 'Unassign', 'Transfer']],
    ['DISTRIBUTOR_ADMIN', ['Details', 'Unassign', 'Transfer'], ['Details', 'Assign'], ['Details', 'Unassign', 'Transfer']],
    ['MANAGER', ['Details', 'Unassign', 'Transfer'], ['Details', 'Assign'], ['Details']],
    ['ORG_ADMIN', ['Details'], ['Details'], ['Details']],
  ])('offers a %s the row actions of part 2 §6', async (role, onAssigned, onLoose, onDistributor) => {
    setup(role, '/user?all=true', [assigned, loose, distributor]);
    await screen.findByText('Meera Nair');
    expect(await actionsOf('Meera Nair')).toEqual(onAssigned);
    await userEvent.setup().keyboard('{Escape}');
    expect(await actionsOf('Ravi Kumar')).toEqual(onLoose);
    await userEvent.setup().keyboard('{Escape}');
    expect(await actionsOf('Dev Shah')).toEqual(onDistributor);
  });

  it('asks before unassigning, then patches organization null and announces the §8 message', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('MANAGER', '/user?all=true', [assigned], {
      'PATCH /api/v1/organization/user/11/': { body: { ...assigned, organization: null, detail: USER_MESSAGES.unassigned } },
    });
    await screen.findByText('Meera Nair');
    await user.click(screen.getByRole('button', { name: 'Actions for Meera Nair' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Unassign' }));
    expect(await screen.findByText(USER_MESSAGES.unassignConfirm('Meera Nair'))).toBeInTheDocument();
    const listCalls = fetchMock.mock.calls.filter(([u]) => String(u).startsWith(LIST)).length;
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(USER_MESSAGES.unassigned)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH /api/v1/organization/user/11/')).toEqual({ organization: null });
    // The list reloads after the change.
    await waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => String(u).startsWith(LIST)).length).toBeGreaterThan(listCalls));
  });

  it('does not unassign when the confirm is cancelled', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('ADMIN', '/user?all=true', [assigned]);
    await screen.findByText('Meera Nair');
    await user.click(screen.getByRole('button', { name: 'Actions for Meera Nair' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Unassign' }));
    await user.click(await screen.findByTestId('confirm-dialog-cancel'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('transfers: Transfer stays disabled until an organization is chosen, the current one is not offered', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('SUB_ADMIN', '/user?all=true', [assigned], {
      'PATCH /api/v1/organization/user/11/': { body: { ...assigned, organization: 3, detail: USER_MESSAGES.transferred } },
    });
    await screen.findByText('Meera Nair');
    await user.click(screen.getByRole('button', { name: 'Actions for Meera Nair' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Transfer' }));
    expect(await screen.findByText('Transfer User')).toBeInTheDocument();
    expect(screen.getByTestId('user-transfer-submit')).toBeDisabled();
    await user.type(screen.getByTestId('user-transfer-organization'), 'o');
    await screen.findByRole('option', { name: 'South Centre' });
    expect(screen.queryByRole('option', { name: 'North Hospital (India)' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'South Centre' }));
    expect(screen.getByTestId('user-transfer-submit')).toBeEnabled();
    await user.click(screen.getByTestId('user-transfer-submit'));
    expect(await screen.findByText(USER_MESSAGES.transferred)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH /api/v1/organization/user/11/')).toEqual({ organization: 3 });
  });

  it('opens the user dialog read-only from Details', async () => {
    const user = userEvent.setup();
    setup('ADMIN', '/user?all=true', [assigned], {
      'GET /api/v1/organization/user/11/': { body: { ...assigned, pin_reset_request: false } },
    });
    await screen.findByText('Meera Nair');
    await user.click(screen.getByRole('button', { name: 'Actions for Meera Nair' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Details' }));
    expect(await screen.findByText('User Details')).toBeInTheDocument();
    expect(await screen.findByTestId('user-details')).toHaveTextContent('meera@example.org');
  });
});
