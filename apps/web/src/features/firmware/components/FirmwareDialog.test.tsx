import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FIRMWARE_MAX_BYTES, FIRMWARE_MESSAGES, type TFirmware } from '@sc/shared/firmware';
import { mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { FirmwareDialog } from './FirmwareDialog.tsx';

const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });
const firmware: TFirmware = {
  id: 4,
  version: 'v2.14',
  path: 'firmware/0123456789abcdef_1764000000000_v2_14.ibe',
  url: '/api/v1/firmware/4/download/',
  checksum: 'a'.repeat(64),
  size: 17_000,
  created: '2026-01-02T10:00:00Z',
};

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const ibe = (name: string, text: string) => new File([text], name, { type: 'application/octet-stream' });

function renderCreate(replies: Parameters<typeof mockFetch>[0] = {}) {
  const onClose = vi.fn();
  const fetchMock = mockFetch({ 'GET /api/v1/firmware/': { body: page([]) }, ...replies });
  renderWithProviders(<FirmwareDialog opened onClose={onClose} />);
  return { onClose, fetchMock, user: userEvent.setup({ applyAccept: false }) };
}

describe('FirmwareDialog: Create Firmware', () => {
  it('keeps version, path and Create disabled until a file is chosen', () => {
    renderCreate();
    expect(screen.getByText(FIRMWARE_MESSAGES.createTitle)).toBeInTheDocument();
    expect(screen.getByTestId('firmware-version')).toBeDisabled();
    expect(screen.getByTestId('firmware-path')).toBeDisabled();
    expect(screen.getByTestId('firmware-submit')).toBeDisabled();
    expect(fileInput()).toHaveAttribute('accept', '.ibe');
  });

  it("reads the version from the file's first line, checks it is new, and creates with the file", async () => {
    const { user, onClose, fetchMock } = renderCreate({
      'POST /api/v1/firmware/': { status: 201, body: { ...firmware, version: 'v3.2', detail: FIRMWARE_MESSAGES.created } },
    });
    const file = ibe('release.ibe', 'v3.2\n# image\n00ff\n');
    await user.upload(fileInput(), file);
    await waitFor(() => expect(screen.getByTestId('firmware-version')).toHaveValue('v3.2'));
    expect(screen.getByTestId('firmware-version')).toBeEnabled();
    expect(screen.getByTestId('firmware-path')).toHaveValue('firmware/release.ibe');
    const lookup = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/v1/firmware/?'));
    expect(String(lookup?.[0])).toContain('version=v3.2');
    await waitFor(() => expect(screen.getByTestId('firmware-submit')).toBeEnabled());
    await user.click(screen.getByTestId('firmware-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    const form = post?.[1]?.body as FormData;
    expect(form.get('version')).toBe('v3.2');
    expect((form.get('file') as File).name).toBe('release.ibe');
  });

  it("clears the file with 'file format invalid' when the first line holds no version above 0", async () => {
    const { user, fetchMock } = renderCreate();
    await user.upload(fileInput(), ibe('bad.ibe', 'v0.0\nbody\n'));
    expect(await screen.findByText(FIRMWARE_MESSAGES.formatInvalid)).toBeInTheDocument();
    expect(screen.getByTestId('firmware-version')).toBeDisabled();
    expect(screen.getByTestId('firmware-submit')).toBeDisabled();
    await user.upload(fileInput(), ibe('words.ibe', 'firmware two\n'));
    expect(await screen.findByText(FIRMWARE_MESSAGES.formatInvalid)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('empties the native input of a refused file, so the same file picked again is read again (issue 23.23)', async () => {
    const { user } = renderCreate();
    const file = ibe('release.ibe', 'v0\n');
    await user.upload(fileInput(), file);
    expect(await screen.findByText(FIRMWARE_MESSAGES.formatInvalid)).toBeInTheDocument();
    expect(fileInput().files).toHaveLength(0);
    expect(fileInput()).toHaveValue('');
  });

  it("refuses another type, a file over 2 MB and an unreadable (binary) file", async () => {
    const { user, fetchMock } = renderCreate();
    await user.upload(fileInput(), ibe('firmware.bin', 'v3.0\n'));
    expect(await screen.findByText(FIRMWARE_MESSAGES.wrongType)).toBeInTheDocument();
    await user.upload(fileInput(), new File(['v3.0\n', new Uint8Array(FIRMWARE_MAX_BYTES)], 'big.ibe'));
    expect(await screen.findByText(FIRMWARE_MESSAGES.tooLarge)).toBeInTheDocument();
    await user.upload(fileInput(), new File([new Uint8Array([0x76, 0x33, 0x0a, 0x00, 0xff])], 'binary.ibe'));
    expect(await screen.findByText(FIRMWARE_MESSAGES.notAccepted)).toBeInTheDocument();
    expect(screen.getByTestId('firmware-submit')).toBeDisabled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows 'already exists' on the version for a known version and does not create", async () => {
    const { user, fetchMock } = renderCreate({ 'GET /api/v1/firmware/': { body: page([firmware]) } });
    await user.upload(fileInput(), ibe('again.ibe', 'v2.14\n'));
    expect(await screen.findByText(FIRMWARE_MESSAGES.alreadyExists)).toBeInTheDocument();
    expect(screen.getByTestId('firmware-submit')).toBeDisabled();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it("puts the server's 'already exists' on the version and other errors in the form error area", async () => {
    const { user, onClose } = renderCreate({
      'POST /api/v1/firmware/': { status: 400, body: { version: [FIRMWARE_MESSAGES.alreadyExists], non_field_errors: ['Storage is full.'] } },
    });
    await user.upload(fileInput(), ibe('race.ibe', 'v4.0\n'));
    await waitFor(() => expect(screen.getByTestId('firmware-submit')).toBeEnabled());
    await user.click(screen.getByTestId('firmware-submit'));
    expect(await screen.findByText(FIRMWARE_MESSAGES.alreadyExists)).toBeInTheDocument();
    expect(screen.getByTestId('firmware-form-errors')).toHaveTextContent('Storage is full.');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('FirmwareDialog: an upload that cannot be sent', () => {
  it("says 'file not accepted' on the file when the server cannot be reached", async () => {
    const { user, onClose } = renderCreate();
    await user.upload(fileInput(), ibe('offline.ibe', 'v5.0\n'));
    await waitFor(() => expect(screen.getByTestId('firmware-submit')).toBeEnabled());
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await user.click(screen.getByTestId('firmware-submit'));
    expect(await screen.findByText(FIRMWARE_MESSAGES.notAccepted)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('FirmwareDialog: Firmware Details', () => {
  it('shows the version, path and checksum read-only with a Download button', async () => {
    mockFetch({ 'GET /api/v1/firmware/4/': { body: firmware } });
    renderWithProviders(<FirmwareDialog opened firmwareId={4} onClose={vi.fn()} />);
    expect(screen.getByText(FIRMWARE_MESSAGES.detailsTitle)).toBeInTheDocument();
    expect(await screen.findByTestId('firmware-checksum')).toHaveValue(firmware.checksum);
    expect(screen.getByTestId('firmware-version')).toHaveValue('v2.14');
    expect(screen.getByTestId('firmware-version')).toHaveAttribute('readonly');
    expect(screen.getByTestId('firmware-path')).toHaveValue(firmware.path);
    expect(screen.getByTestId('firmware-download')).toBeEnabled();
  });
});
