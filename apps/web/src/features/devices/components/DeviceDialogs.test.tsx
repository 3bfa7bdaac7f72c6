import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DEVICE_MESSAGES, type TDevice } from '@sc/shared/devices';
import type { TUserType } from '@sc/shared/roles';
import { MESSAGES } from '@sc/shared/validation';
import { bodyOf, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { devicePage, deviceRow } from '../test/deviceFixtures.tsx';
import { DeviceFormDialog, type DeviceFormView } from './DeviceFormDialog.tsx';
import { DeviceLinkDialog, type DeviceLinkMode } from './DeviceLinkDialog.tsx';

const existing = deviceRow(5, 'IBE225036');

function FormHarness({ role, initial, onClose }: { role: TUserType; initial: DeviceFormView; onClose: (saved: boolean) => void }) {
  const [view, setView] = useState(initial);
  return <DeviceFormDialog opened role={role} view={view} onViewChange={setView} onClose={onClose} />;
}

function renderForm(role: TUserType, initial: DeviceFormView, replies: Parameters<typeof mockFetch>[0] = {}) {
  const fetchMock = mockFetch({ 'GET /api/v1/device/5/': { body: existing }, ...replies });
  const onClose = vi.fn();
  renderWithProviders(<FormHarness role={role} initial={initial} onClose={onClose} />);
  return { fetchMock, onClose };
}

describe('DeviceFormDialog', () => {
  it('requires the serial number and sends nothing without it', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderForm('ADMIN', { mode: 'create' });
    await user.click(screen.getByTestId('device-submit'));
    expect(await screen.findByText(MESSAGES.required)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('looks the serial up first and creates a new device with the §8 message', async () => {
    const user = userEvent.setup();
    const { fetchMock, onClose } = renderForm('MANAGER', { mode: 'create' }, {
      'GET /api/v1/device/': { body: devicePage([]) },
      'POST /api/v1/device/': { status: 201, body: { ...deviceRow(9, 'IBE-NEW'), detail: DEVICE_MESSAGES.created } },
    });
    await user.type(screen.getByTestId('device-serial'), ' IBE-NEW ');
    await user.click(screen.getByTestId('device-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    const lookup = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost').searchParams;
    expect(lookup.get('serial_number')).toBe('IBE-NEW');
    expect(bodyOf(fetchMock, 'POST /api/v1/device/')).toEqual({ serial_number: 'IBE-NEW' });
    expect(await screen.findByText(DEVICE_MESSAGES.created)).toBeInTheDocument();
  });

  it('opens the existing device in the edit dialog when the lookup finds its serial (ADMIN)', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderForm('ADMIN', { mode: 'create' }, { 'GET /api/v1/device/': { body: devicePage([existing]) } });
    await user.type(screen.getByTestId('device-serial'), 'ibe225036');
    await user.click(screen.getByTestId('device-submit'));
    expect(await screen.findByText('Edit Device')).toBeInTheDocument();
    expect(await screen.findByTestId('device-form-notice')).toHaveTextContent('A device with serial number IBE225036 already exists.');
    expect(await screen.findByTestId('device-serial')).toHaveValue('IBE225036');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('shows a MANAGER the found device read-only, its Edit button disabled', async () => {
    const user = userEvent.setup();
    renderForm('MANAGER', { mode: 'create' }, { 'GET /api/v1/device/': { body: devicePage([existing]) } });
    await user.type(screen.getByTestId('device-serial'), 'IBE225036');
    await user.click(screen.getByTestId('device-submit'));
    expect(await screen.findByTestId('device-details')).toHaveTextContent('IBE225036');
    expect(screen.getByTestId('device-edit')).toBeDisabled();
  });

  it('lets ADMIN edit from the details and shows a duplicate serial on the field', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderForm('ADMIN', { mode: 'details', deviceId: 5 }, {
      'PUT /api/v1/device/5/': { status: 400, body: { serial_number: [DEVICE_MESSAGES.duplicateSerial] } },
    });
    expect(await screen.findByTestId('device-details')).toHaveTextContent('North Hospital');
    await user.click(screen.getByTestId('device-edit'));
    const input = await screen.findByTestId('device-serial');
    await user.clear(input);
    await user.type(input, 'IBE221001');
    await user.click(screen.getByTestId('device-submit'));
    expect(await screen.findByText(DEVICE_MESSAGES.duplicateSerial)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT /api/v1/device/5/')).toEqual({ serial_number: 'IBE221001' });
  });
});

function renderLink(device: TDevice, mode: DeviceLinkMode, replies: Parameters<typeof mockFetch>[0]) {
  const fetchMock = mockFetch({
    'GET /api/v1/organization/': {
      body: { count: 2, next: null, previous: null, results: [{ id: 2, name: 'North Hospital', country: 'India' }, { id: 3, name: 'South Centre', country: null }] },
    },
    ...replies,
  });
  const onClose = vi.fn();
  renderWithProviders(<DeviceLinkDialog opened device={device} mode={mode} onClose={onClose} />);
  return { fetchMock, onClose };
}

async function pickOrganization(name: string) {
  const user = userEvent.setup();
  await user.type(screen.getByTestId('device-organization-picker'), 'o');
  await user.click(await screen.findByRole('option', { name }));
}

describe('DeviceLinkDialog', () => {
  const loose = deviceRow(7, 'IBE221050', { organization: null, organization_name: null, organization_device_id: null });

  it('requires an organization ("Select an organization")', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderLink(loose, 'link', {});
    await user.click(screen.getByTestId('device-link-submit'));
    expect(await screen.findByText(MESSAGES.selectOrganization)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('links an unlinked device with a POST of organization and device', async () => {
    const user = userEvent.setup();
    const { fetchMock, onClose } = renderLink(loose, 'link', {
      'POST /api/v1/organization/device/': { status: 201, body: { detail: DEVICE_MESSAGES.linked } },
    });
    await pickOrganization('South Centre');
    await user.click(screen.getByTestId('device-link-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/organization/device/')).toEqual({ organization: 3, device: 7 });
    expect(await screen.findByText(DEVICE_MESSAGES.linked)).toBeInTheDocument();
  });

  it('transfers with a PATCH of the active link, never offering the current organization', async () => {
    const user = userEvent.setup();
    const { fetchMock, onClose } = renderLink(deviceRow(1, 'IBE221001'), 'transfer', {
      'PATCH /api/v1/organization/device/101/': { body: { detail: DEVICE_MESSAGES.linked } },
    });
    await user.type(screen.getByTestId('device-organization-picker'), 'o');
    await screen.findByRole('option', { name: 'South Centre' });
    expect(screen.queryByRole('option', { name: 'North Hospital (India)' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'South Centre' }));
    await user.click(screen.getByTestId('device-link-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'PATCH /api/v1/organization/device/101/')).toEqual({ organization: 3 });
  });

  it('shows the API’s organization error on the field', async () => {
    const user = userEvent.setup();
    renderLink(loose, 'link', {
      'POST /api/v1/organization/device/': { status: 400, body: { organization: ['Invalid pk "3" - object does not exist.'] } },
    });
    await pickOrganization('South Centre');
    await user.click(screen.getByTestId('device-link-submit'));
    expect(await screen.findByText('Invalid pk "3" - object does not exist.')).toBeInTheDocument();
  });
});
