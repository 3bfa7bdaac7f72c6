import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FILE_MESSAGES } from '@sc/shared/files';
import { mockFetch, renderWithProviders } from '../test/render.tsx';
import { FileUploadButton } from './FileUploadButton.tsx';

vi.setConfig({ testTimeout: 30_000 });

// jsdom decodes no image: a stand-in that loads (with a size) or fails, as a browser would for the file picked.
let decodes = true;
let size = { width: 400, height: 300 };
class FakeImage extends EventTarget {
  naturalWidth = 0;
  naturalHeight = 0;
  width = 0;
  height = 0;
  set src(_: string) {
    setTimeout(() => {
      if (decodes) {
        this.naturalWidth = this.width = size.width;
        this.naturalHeight = this.height = size.height;
        this.dispatchEvent(new Event('load'));
      } else this.dispatchEvent(new Event('error'));
    }, 0);
  }
}

beforeEach(() => {
  decodes = true;
  size = { width: 400, height: 300 };
  vi.stubGlobal('Image', FakeImage);
  URL.createObjectURL = vi.fn(() => 'blob:picked');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

function setup() {
  const fetchMock = mockFetch({});
  const onUploaded = vi.fn();
  const view = renderWithProviders(
    <FileUploadButton folder="companylogo" accept={['png', 'jpg', 'jpeg', 'webp']} crop onUploaded={onUploaded} data-testid="logo">
      Upload logo
    </FileUploadButton>,
  );
  const input = view.container.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { fetchMock, onUploaded, input };
}

const png = (name = 'logo.png') => new File(['%PDF-1.4 not an image'], name, { type: 'image/png' });

describe('FileUploadButton with crop', () => {
  it('says a file that is no image is not one, and opens no cropper (issue 23.6)', async () => {
    decodes = false;
    const user = userEvent.setup();
    const { fetchMock, input } = setup();
    await user.upload(input, png());
    expect(await screen.findByTestId('logo-error')).toHaveTextContent(FILE_MESSAGES.invalidImage);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:picked');
  });

  it('refuses an image too large to decode safely, with its size', async () => {
    size = { width: 20_000, height: 100 };
    const user = userEvent.setup();
    const { input } = setup();
    await user.upload(input, png());
    expect(await screen.findByTestId('logo-error')).toHaveTextContent(FILE_MESSAGES.imageDimensionsTooLarge(20_000, 100));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the cropper on a real image', async () => {
    const user = userEvent.setup();
    const { input } = setup();
    await user.upload(input, png());
    expect(await screen.findByRole('dialog', { name: 'Crop image' })).toBeInTheDocument();
    expect(screen.queryByTestId('logo-error')).not.toBeInTheDocument();
  });

  it('empties the native input after each pick, so the same file picked again is checked again (issue 23.23)', async () => {
    decodes = false;
    const user = userEvent.setup();
    const { input } = setup();
    await user.upload(input, png());
    await screen.findByTestId('logo-error');
    expect(input.files).toHaveLength(0);
    decodes = true;
    await user.upload(input, png());
    expect(await screen.findByRole('dialog', { name: 'Crop image' })).toBeInTheDocument();
  });
});
