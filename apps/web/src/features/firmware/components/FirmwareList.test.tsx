import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FIRMWARE_MESSAGES, type TFirmware } from '@sc/shared/firmware';
import type { TUserType } from '@sc/shared/roles';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { FirmwareList } from './FirmwareList.tsx';

const LIST = '/api/v1/firmware/';
const row = (id: number, version: string): TFirmware => ({
  id,
  version,
  path: `firmware/demo/${version.replace('.', '_')}.ibe`,
  url: `/api/v1/firmware/${id}/download/`,
  checksum: 'b'.repeat(64),
  size: 34_000,
  created: '2026-01-02T10:00:00Z',
});

function setup(role: TUserType, results: TFirmware[], path = '/firmware') {
  const fetchMock = mockFetch({ [`GET ${LIST}`]: { body: { count: results.length, next: null, previous: null, results } } });
  const element = (
    <SessionUserContext.Provider value={makeUser(role)}>
      <FirmwareList title="Firmware" />
    </SessionUserContext.Provider>
  );
  const view = renderRoutes([{ path: '/firmware', element }], path);
  const lastQuery = () => {
    const calls = fetchMock.mock.calls.filter(([url]) => String(url).startsWith(LIST));
    return Object.fromEntries(new URL(String(calls.at(-1)?.[0]), 'http://x').searchParams);
  };
  return { fetchMock, lastQuery, ...view };
}

async function actionsOf(version: string) {
  await userEvent.setup().click(screen.getByRole('button', { name: `Actions for firmware ${version}` }));
  return within(await screen.findByRole('menu')).getAllByRole('menuitem').map((item) => item.textContent);
}

describe('FirmwareList', () => {
  it('shows ID, Version, Path and Created, newest first from the read replica, with Details, Download and Delete for ADMIN', async () => {
    const { lastQuery } = setup('ADMIN', [row(2, 'v2.14'), row(1, 'v2.13')]);
    expect(await screen.findByText('v2.14')).toBeInTheDocument();
    expect(screen.getByText('firmware/demo/v2_13.ibe')).toBeInTheDocument();
    expect(lastQuery()).toEqual({ page: '1', limit: '10', ordering: '-created', using_read_db: 'true' });
    expect(await actionsOf('v2.14')).toEqual(['Details', 'Download', 'Delete']);
  });

  it('offers SUB_ADMIN no Delete', async () => {
    setup('SUB_ADMIN', [row(2, 'v2.14')]);
    await screen.findByText('v2.14');
    expect(await actionsOf('v2.14')).toEqual(['Details', 'Download']);
  });

  it('searches by version and names both empty states', async () => {
    const { lastQuery } = setup('ADMIN', []);
    expect(await screen.findByText(FIRMWARE_MESSAGES.emptyNone)).toBeInTheDocument();
    await userEvent.setup().type(screen.getByPlaceholderText(FIRMWARE_MESSAGES.searchPlaceholder), '2.1');
    await waitFor(() => expect(lastQuery()).toMatchObject({ search: '2.1' }));
    expect(await screen.findByText(FIRMWARE_MESSAGES.emptyFiltered)).toBeInTheDocument();
  });
});
