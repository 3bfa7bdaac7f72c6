import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { REFERENCE_MESSAGES } from '@sc/shared/references';
import { bodyOf, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { page, reference } from '../test/organizationFixtures.tsx';
import { ReferenceListDialog } from './ReferenceListDialog.tsx';

const LIST = 'GET /api/v1/organization/reference/';

function renderDialog() {
  return renderWithProviders(<ReferenceListDialog opened organization={{ id: 2, name: 'North Hospital' }} onClose={() => {}} />);
}

describe('ReferenceListDialog', () => {
  it('lists references with their status and says so when there are none', async () => {
    mockFetch({ [LIST]: { body: page([reference(1, 'Camp A'), reference(2, 'Radio', false)]) } });
    renderDialog();
    expect(await screen.findByText('Camp A')).toBeInTheDocument();
    expect(screen.getByTestId('reference-status-1')).toHaveTextContent('Active');
    expect(screen.getByTestId('reference-status-2')).toHaveTextContent('Inactive');
    expect(screen.getByText('Reference name')).toBeInTheDocument();
    expect(screen.getByText('Status')).toBeInTheDocument();
  });

  it('shows "No reference added" for an organization without references', async () => {
    mockFetch({ [LIST]: { body: page([]) } });
    renderDialog();
    expect(await screen.findByText('No reference added')).toBeInTheDocument();
  });

  it('switches a reference off and confirms it', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [LIST]: { body: page([reference(1, 'Camp A')]) },
      'PATCH /api/v1/organization/reference/1/': {
        body: { ...reference(1, 'Camp A', false), detail: REFERENCE_MESSAGES.inactivated },
      },
    });
    renderDialog();
    await user.click(await screen.findByRole('switch', { name: 'Active: Camp A' }));
    expect(await screen.findByText('Reference inactivated Successfully')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH /api/v1/organization/reference/1/')).toEqual({ is_active: false });
  });

  it('switches a reference on and confirms it', async () => {
    const user = userEvent.setup();
    mockFetch({
      [LIST]: { body: page([reference(1, 'Camp A', false)]) },
      'PATCH /api/v1/organization/reference/1/': { body: { ...reference(1, 'Camp A'), detail: REFERENCE_MESSAGES.activated } },
    });
    renderDialog();
    await user.click(await screen.findByRole('switch', { name: 'Active: Camp A' }));
    expect(await screen.findByText('Reference activated Successfully')).toBeInTheDocument();
  });

  it('deletes a reference only after the confirm', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [LIST]: { body: page([reference(1, 'Camp A')]) },
      'DELETE /api/v1/organization/reference/1/': { body: { detail: REFERENCE_MESSAGES.deleted } },
    });
    renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Delete Camp A' }));
    await user.click(await screen.findByTestId('confirm-dialog-cancel'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Camp A' }));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText('Reference deleted Successfully')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });

  it('validates the name with the shared rule before adding', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [LIST]: { body: page([]) },
      'POST /api/v1/organization/reference/': { status: 201, body: { ...reference(5, 'Camp B'), detail: REFERENCE_MESSAGES.created } },
    });
    renderDialog();
    await user.click(await screen.findByTestId('reference-add'));
    const form = await screen.findByTestId('reference-form');
    await user.type(within(form).getByLabelText(/Reference name/), 'Camp 😀');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(await within(form).findByText('Only alphabets, numbers and special characters are allowed.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.clear(within(form).getByLabelText(/Reference name/));
    await user.type(within(form).getByLabelText(/Reference name/), ' Camp B ');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Reference added Successfully')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/v1/organization/reference/')).toEqual({ name: 'Camp B', is_active: true, organization: 2 });
    await waitFor(() => expect(screen.queryByTestId('reference-form')).not.toBeInTheDocument());
  });

  it('shows a server field error on the name', async () => {
    const user = userEvent.setup();
    mockFetch({
      [LIST]: { body: page([reference(1, 'Camp A')]) },
      'PATCH /api/v1/organization/reference/1/': { status: 400, body: { name: [REFERENCE_MESSAGES.duplicate] } },
    });
    renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Edit Camp A' }));
    const form = await screen.findByTestId('reference-form');
    expect(within(form).getByLabelText(/Reference name/)).toHaveValue('Camp A');
    await user.type(within(form).getByLabelText(/Reference name/), ' 2');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('A reference with this name already exists.')).toBeInTheDocument();
  });
});
