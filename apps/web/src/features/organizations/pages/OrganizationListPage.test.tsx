import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery, orgRow, page, renderOrganizationRoutes } from '../test/organizationFixtures.tsx';

vi.mock('../form/OrganizationFormDialog.tsx', async () => {
  const fake = await import('../test/FakeOrganizationFormDialog.tsx');
  return { OrganizationFormDialog: fake.FakeOrganizationFormDialog };
});

const LIST = '/api/v1/organization/';
const rows = [orgRow(2, 'North Hospital', { can_create_organization: true }), orgRow(3, 'South Centre', { country: null, country_data: null })];

function setup(role: TUserType = 'ADMIN', path = '/organization', results = rows, userOverrides = {}) {
  const fetchMock = mockFetch({ [`GET ${LIST}`]: { body: page(results, results.length ? 42 : 0) } });
  const view = renderOrganizationRoutes(makeUser(role, userOverrides), path);
  const urlQuery = () => Object.fromEntries(new URLSearchParams(view.router.state.location.search));
  return { fetchMock, urlQuery, ...view };
}

describe('OrganizationListPage', () => {
  it('lists organizations with a Distributor badge, the creation date and the total, read from the read replica', async () => {
    const { fetchMock } = setup();
    expect(await screen.findByText('North Hospital')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Organization' })).toBeInTheDocument();
    expect(screen.getByTestId('distributor-badge-2')).toHaveTextContent('Distributor');
    expect(screen.queryByTestId('distributor-badge-3')).not.toBeInTheDocument();
    expect(screen.getAllByText(dayjs('2026-01-05T09:30:00Z').format(DATE_DISPLAY_FORMAT))).toHaveLength(2);
    expect(screen.getByTestId('list-total')).toHaveTextContent('42 items');
    expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-created', using_read_db: 'true' });
  });

  it("shows the country list's name of country_data (part 2 §3), the stored text only without it, and a dash without either", async () => {
    const kenya = { name: 'Kenya', dial_code: '+254', code: 'KE', currency_code: 'KES' };
    setup('ADMIN', '/organization', [
      orgRow(4, 'Typed Lower', { country: 'kenya', country_data: kenya }),
      orgRow(5, 'Unknown Place', { country: 'Atlantis', country_data: null }),
      orgRow(6, 'Nowhere', { country: null, country_data: null }),
    ]);
    const row = async (name: string) => (await screen.findByText(name)).closest('tr')!;
    expect(within(await row('Typed Lower')).getByText('Kenya')).toBeInTheDocument();
    expect(within(await row('Typed Lower')).queryByText('kenya')).not.toBeInTheDocument();
    expect(within(await row('Unknown Place')).getByText('Atlantis')).toBeInTheDocument();
    expect(within(await row('Nowhere')).getAllByText('—').length).toBeGreaterThan(0);
  });

  it('sends the filter dropdown choice to the API and keeps it in the URL', async () => {
    const user = userEvent.setup();
    const { fetchMock, urlQuery } = setup('ADMIN', '/organization?page=3');
    await screen.findByText('North Hospital');
    await user.click(screen.getByRole('combobox', { name: 'Organization type' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All Organizations',
      'Stand-alone Organizations',
      'Distributors',
      'Sub-organizations',
    ]);
    await user.click(screen.getByRole('option', { name: 'Distributors' }));
    expect(urlQuery()).toEqual({ filter: 'distributor' });
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ can_create_organization: 'true', page: '1' }));

    await user.click(screen.getByRole('combobox', { name: 'Organization type' }));
    await user.click(screen.getByRole('option', { name: 'Stand-alone Organizations' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ sub_organisation: 'false' }));
    await user.click(screen.getByRole('combobox', { name: 'Organization type' }));
    await user.click(screen.getByRole('option', { name: 'Sub-organizations' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ sub_organisation: 'true' }));
  });

  it('restores search, filter, period and paging from a shared URL', async () => {
    const { fetchMock } = setup(
      'ADMIN',
      '/organization?search=north&filter=sub&period=custom_range&from=2026-01-02&to=2026-01-09&page=2&limit=20&ordering=name',
    );
    await screen.findByText('North Hospital');
    expect(screen.getByPlaceholderText('Search by organization name and address')).toHaveValue('north');
    expect(screen.getByTestId('period-tab-custom_range')).toHaveTextContent('02 Jan 2026 – 09 Jan 2026');
    expect(lastQuery(fetchMock, LIST)).toEqual({
      search: 'north',
      sub_organisation: 'true',
      created_after: '2026-01-02',
      created_before: '2026-01-09',
      page: '2',
      limit: '20',
      ordering: 'name',
      using_read_db: 'true',
    });
  });

  it('searches after the debounce and filters by Last 30 Days on the creation date', async () => {
    const user = userEvent.setup();
    const { fetchMock, urlQuery } = setup();
    await screen.findByText('North Hospital');
    await user.type(screen.getByPlaceholderText('Search by organization name and address'), 'clinic');
    await waitFor(() => expect(urlQuery()).toEqual({ search: 'clinic' }));
    await user.click(screen.getByRole('tab', { name: 'Last 30 Days' }));
    expect(urlQuery()).toEqual({ search: 'clinic', period: '30' });
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toHaveProperty('created_after'));
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ search: 'clinic' });
    expect(lastQuery(fetchMock, LIST)).toHaveProperty('created_before');
  });

  it('sorts by a column through the ordering parameter', async () => {
    const user = userEvent.setup();
    const { fetchMock, urlQuery } = setup();
    await screen.findByText('North Hospital');
    await user.click(screen.getByText('Name'));
    expect(urlQuery()).toEqual({ ordering: 'name' });
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ ordering: 'name' }));
  });

  it('says "No organizations yet!" without a filter', async () => {
    setup('ADMIN', '/organization', []);
    expect(await screen.findByText('No organizations yet!')).toBeInTheDocument();
  });

  it('says "No organizations found!" with a filter active', async () => {
    setup('ADMIN', '/organization?search=zzz', []);
    expect(await screen.findByText('No organizations found!')).toBeInTheDocument();
  });

  it.each<[string, TUserType, Record<string, unknown>, boolean]>([
    ['ADMIN', 'ADMIN', {}, true],
    ['DISTRIBUTOR_ADMIN', 'DISTRIBUTOR_ADMIN', {}, true],
    ['ORG_ADMIN of a distributor', 'ORG_ADMIN', { organization_data: { id: 1, name: 'City Clinic', can_create_organization: true } }, true],
    ['ORG_ADMIN of a plain organization', 'ORG_ADMIN', {}, false],
    ['SUB_ADMIN', 'SUB_ADMIN', {}, true],
    ['MANAGER (not embedded)', 'MANAGER', {}, false],
    ['CERVAICAL_REVIEWER', 'CERVAICAL_REVIEWER', {}, false],
  ])('shows the Add button to a %s: %s', async (_label, role, overrides, shown) => {
    setup(role, '/organization', rows, overrides);
    await screen.findByText('North Hospital');
    expect(Boolean(screen.queryByTestId('organization-add'))).toBe(shown);
  });

  it.each<[TUserType, boolean]>([
    ['ADMIN', true],
    ['SUB_ADMIN', true],
    ['ORG_ADMIN', true],
    ['DISTRIBUTOR_ADMIN', false],
    ['MANAGER', false],
  ])('offers the Reference action to a %s: %s', async (role, shown) => {
    const user = userEvent.setup();
    setup(role);
    await screen.findByText('North Hospital');
    await user.click(screen.getByRole('button', { name: 'Actions for North Hospital' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Details' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
    expect(Boolean(within(menu).queryByRole('menuitem', { name: 'Reference' }))).toBe(shown);
  });

  it('hides the filter dropdown from a role whose scope is one organization', async () => {
    setup('ORG_ADMIN', '/organization', rows, { organizations_count: 1 });
    await screen.findByText('North Hospital');
    expect(screen.queryByRole('combobox', { name: 'Organization type' })).not.toBeInTheDocument();
  });

  it('shows the filter dropdown to a manager whose scope holds several organizations', async () => {
    setup('MANAGER', '/organization', rows, { organizations_count: 5 });
    await screen.findByText('North Hospital');
    expect(screen.getByRole('combobox', { name: 'Organization type' })).toBeInTheDocument();
  });

  it('opens the create dialog from ?create=true and reloads the list after a save', async () => {
    const user = userEvent.setup();
    const { fetchMock, urlQuery } = setup('ADMIN', '/organization?create=true');
    const dialog = await screen.findByTestId('fake-org-form');
    expect(dialog).toHaveTextContent('Create Organization');
    await screen.findByText('North Hospital');
    const before = fetchMock.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Save form' }));
    expect(screen.queryByTestId('fake-org-form')).not.toBeInTheDocument();
    expect(urlQuery()).toEqual({});
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(before));
  });

  it('creates under an ORG_ADMIN’s own distributor organization', async () => {
    const user = userEvent.setup();
    setup('ORG_ADMIN', '/organization', rows, { organization_data: { id: 1, name: 'City Clinic', can_create_organization: true } });
    await screen.findByText('North Hospital');
    await user.click(screen.getByTestId('organization-add'));
    expect(screen.getByTestId('fake-org-form')).toHaveAttribute('data-parent-id', '1');
  });

  it.each<TUserType>(['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN'])(
    'opens the create dialog for a %s from the user card’s Create Organization link',
    async (role) => {
      setup(role, '/organization?create=true');
      expect(await screen.findByTestId('fake-org-form')).toHaveTextContent('Create Organization');
    },
  );

  it('lets a SUB_ADMIN open the create dialog with Add, choosing the parent in the form', async () => {
    const user = userEvent.setup();
    const { urlQuery } = setup('SUB_ADMIN');
    await screen.findByText('North Hospital');
    await user.click(screen.getByTestId('organization-add'));
    expect(screen.getByTestId('fake-org-form')).toHaveAttribute('data-parent-id', '');
    expect(urlQuery()).toEqual({ create: 'true' });
  });

  it('ignores ?create=true for a role without the Add button', async () => {
    setup('MANAGER', '/organization?create=true');
    await screen.findByText('North Hospital');
    expect(screen.queryByTestId('fake-org-form')).not.toBeInTheDocument();
  });

  it('opens Edit with the organization and Details on its page', async () => {
    const user = userEvent.setup();
    const { router } = setup();
    await screen.findByText('North Hospital');
    await user.click(screen.getByRole('button', { name: 'Actions for South Centre' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    expect(screen.getByTestId('fake-org-form')).toHaveAttribute('data-organization-id', '3');
    await user.click(screen.getByRole('button', { name: 'Cancel form' }));
    await user.click(screen.getByRole('button', { name: 'Actions for South Centre' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Details' }));
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/organization/3');
  });

  it('opens the reference dialog of a row', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [`GET ${LIST}`]: { body: page(rows) },
      'GET /api/v1/organization/reference/': { body: page([]) },
    });
    renderOrganizationRoutes(makeUser('ADMIN'), '/organization');
    await user.click(await screen.findByRole('button', { name: 'Actions for North Hospital' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Reference' }));
    expect(await screen.findByText('No reference added')).toBeInTheDocument();
    expect(lastQuery(fetchMock, '/api/v1/organization/reference/')).toMatchObject({ organization: '2' });
  });

  it('opens the language setting dialog of a row for a role that edits organizations', async () => {
    const user = userEvent.setup();
    mockFetch({ [`GET ${LIST}`]: { body: page(rows) } });
    renderOrganizationRoutes(makeUser('ADMIN'), '/organization');
    await user.click(await screen.findByRole('button', { name: 'Actions for North Hospital' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Language setting' }));
    expect(await screen.findByTestId('language-setting-dialog')).toBeInTheDocument();
  });

  it('offers a CERVAICAL_REVIEWER Details only', async () => {
    const user = userEvent.setup();
    mockFetch({ [`GET ${LIST}`]: { body: page(rows) } });
    renderOrganizationRoutes(makeUser('CERVAICAL_REVIEWER'), '/organization');
    await user.click(await screen.findByRole('button', { name: 'Actions for North Hospital' }));
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).toEqual(['Details']);
  });
});
