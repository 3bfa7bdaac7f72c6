import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEVICE_MESSAGES } from '@sc/shared/devices';
import type { TUserType } from '@sc/shared/roles';
import { bodyOf, makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { devicePage, deviceRow, renderDeviceRoutes } from '../test/deviceFixtures.tsx';

const LIST = '/api/v1/device/';
const linked = deviceRow(1, 'IBE221001', { is_silent: true, is_firmware_outdated: true, software_version: '2.9.0' });
const unlinked = deviceRow(2, 'IBE221008', { organization: null, organization_name: null, organization_device_id: null, last_sync_date: null });

function setup(role: TUserType = 'ADMIN', path = '/device', results = [linked, unlinked], extra = {}) {
  const fetchMock = mockFetch({ [`GET ${LIST}`]: { body: devicePage(results, results.length ? 23 : 0) }, ...extra });
  const view = renderDeviceRoutes(makeUser(role), path);
  const urlQuery = () => Object.fromEntries(new URLSearchParams(view.router.state.location.search));
  return { fetchMock, urlQuery, ...view };
}

async function actionsOf(serial: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Actions for ${serial}` }));
  const menu = await screen.findByRole('menu');
  return within(menu).getAllByRole('menuitem').map((item) => item.textContent);
}

describe('DeviceList', () => {
  it('shows the §2.4 columns with the organization link, fleet-health badges and the total, from the read replica', async () => {
    const { fetchMock } = setup();
    expect(await screen.findByText('IBE221001')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'North Hospital' })).toHaveAttribute('href', '/organization/2');
    expect(screen.getByText('Not linked')).toBeInTheDocument();
    expect(screen.getByTestId('device-silent-1')).toHaveTextContent('Silent');
    expect(screen.getByTestId('device-outdated-1')).toHaveTextContent('Out of date');
    expect(screen.queryByTestId('device-silent-2')).not.toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    expect(screen.getByTestId('list-total')).toHaveTextContent('23 items');
    expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-created', using_read_db: 'true' });
  });

  it('sends the link filter and the silent filter, and offers the six time tabs', async () => {
    const user = userEvent.setup();
    const { fetchMock, urlQuery } = setup();
    await screen.findByText('IBE221001');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toHaveLength(6);
    await user.click(screen.getByRole('combobox', { name: 'Device link filter' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All Devices', 'Un-linked', 'Linked']);
    await user.click(screen.getByRole('option', { name: 'Un-linked' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ unlinked: 'true' }));
    await user.click(screen.getByTestId('device-silent-filter'));
    expect(urlQuery()).toEqual({ link: 'unlinked', silent: 'true' });
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ unlinked: 'true', silent: 'true' }));
    await user.click(screen.getByRole('tab', { name: 'Yesterday' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ day: 'yesterday' }));
  });

  it('says "No devices yet!" without a filter', async () => {
    setup('ADMIN', '/device', []);
    expect(await screen.findByText('No devices yet!')).toBeInTheDocument();
  });

  it('says "No devices found!" when a search is active', async () => {
    setup('ADMIN', '/device?search=zzz', []);
    expect(await screen.findByText('No devices found!')).toBeInTheDocument();
  });

  it.each<[TUserType, string[], string[]]>([
    ['ADMIN', ['Details', 'Unassign', 'Transfer'], ['Details', 'Link Organization']],
    ['MANAGER', ['Details', 'Unassign', 'Transfer'], ['Details', 'Link Organization']],
    ['DISTRIBUTOR_ADMIN', ['Details', 'Transfer'], ['Details']],
    ['ORG_ADMIN', ['Details'], ['Details']],
  ])('offers a %s the row actions of part 2 §6', async (role, onLinked, onUnlinked) => {
    setup(role);
    await screen.findByText('IBE221001');
    expect(await actionsOf('IBE221001')).toEqual(onLinked);
    await userEvent.setup().keyboard('{Escape}');
    expect(await actionsOf('IBE221008')).toEqual(onUnlinked);
  });

  it.each<[TUserType, boolean, boolean]>([
    ['ADMIN', true, true],
    ['SUB_ADMIN', true, true],
    ['MANAGER', true, false],
    ['DISTRIBUTOR_ADMIN', false, false],
    ['ORG_ADMIN', false, false],
  ])('shows Create and Download CSV to a %s: %s, %s', async (role, create, csv) => {
    setup(role);
    await screen.findByText('IBE221001');
    expect(Boolean(screen.queryByTestId('device-create'))).toBe(create);
    expect(Boolean(screen.queryByTestId('device-csv'))).toBe(csv);
  });

  it('asks before unassigning, then patches the link with organization null and announces the §8 message', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('SUB_ADMIN', '/device', [linked], {
      'PATCH /api/v1/organization/device/101/': { body: { detail: DEVICE_MESSAGES.unassigned } },
    });
    await screen.findByText('IBE221001');
    await user.click(screen.getByRole('button', { name: 'Actions for IBE221001' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Unassign' }));
    expect(await screen.findByText('Are you sure you want to unassign IBE221001?')).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(DEVICE_MESSAGES.unassigned)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH /api/v1/organization/device/101/')).toEqual({ organization: null });
  });

  it('does not unassign when the confirm is cancelled', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('ADMIN', '/device', [linked]);
    await screen.findByText('IBE221001');
    await user.click(screen.getByRole('button', { name: 'Actions for IBE221001' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Unassign' }));
    await user.click(await screen.findByTestId('confirm-dialog-cancel'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });
});
