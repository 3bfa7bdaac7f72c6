// Fixtures of the device tests: a device row, a page of them, and the device list page inside a user's context.
import type { ReactNode } from 'react';
import type { TSessionUser } from '@sc/shared/auth';
import type { TDevice } from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { renderRoutes } from '../../../test/render.tsx';
import { DeviceListPage } from '../pages/DeviceListPage.tsx';

export function deviceRow(id: number, serial: string, overrides: Partial<TDevice> = {}): TDevice {
  return {
    id,
    serial_number: serial,
    name: null,
    scan_count: 4,
    last_sync_date: '2026-01-10T09:30:00Z',
    created: '2026-01-05T09:30:00Z',
    organization: 2,
    organization_name: 'North Hospital',
    organization_device_id: 100 + id,
    hardware_version: '3.0',
    software_version: '2.14.0',
    latest_firmware: 'v2.14',
    is_firmware_outdated: false,
    is_silent: false,
    ...overrides,
  };
}

export const devicePage = (results: TDevice[], count = results.length): TPaginated<TDevice> => ({
  count,
  next: null,
  previous: null,
  results,
});

export function renderDeviceRoutes(user: TSessionUser, path: string) {
  const withUser = (element: ReactNode) => <SessionUserContext.Provider value={user}>{element}</SessionUserContext.Provider>;
  return renderRoutes([{ path: '/device', element: withUser(<DeviceListPage />) }], path);
}
