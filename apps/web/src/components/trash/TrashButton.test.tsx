import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TSessionUser } from '@sc/shared/auth';
import type { TUserType } from '@sc/shared/roles';
import { TRASH_MESSAGES, type TTrashArea, type TTrashEntry } from '@sc/shared/trash';
import { SessionUserContext } from '../../app/SessionUserContext.tsx';
import { makeUser, mockFetch, renderWithProviders } from '../../test/render.tsx';
import { TrashButton } from './TrashButton.tsx';

const entry: TTrashEntry = {
  id: 41,
  area: 'patients',
  target_type: 'patient',
  target_id: 9,
  label: 'Meera Nair',
  organization_id: 2,
  deleted_by: { id: 1, name: 'Anjali Rao' },
  deleted_at: '2026-11-28T04:30:00Z',
  purge_after: '2026-12-28T04:30:00Z',
  counts: { patients: 1, scans: 3, follow_up_entries: 2 },
};

function setup(role: TUserType, area: TTrashArea = 'patients', restoreStatus = 200) {
  const fetchMock = mockFetch({
    [`GET /api/v1/trash/${area}/`]: { body: { count: 1, next: null, previous: null, results: [entry] } },
    'POST /api/v1/trash/41/restore/':
      restoreStatus === 200
        ? { body: { detail: TRASH_MESSAGES.restored, target_type: 'patient', target_id: 9 } }
        : { status: restoreStatus, body: { non_field_errors: [TRASH_MESSAGES.organizationGone] } },
  });
  const user: TSessionUser = makeUser(role);
  renderWithProviders(
    <SessionUserContext.Provider value={user}>
      <TrashButton area={area} />
    </SessionUserContext.Provider>,
  );
  return fetchMock;
}

describe('TrashButton', () => {
  it('is offered only to the roles that may delete in the area', () => {
    setup('SUB_ADMIN', 'patients');
    expect(screen.queryByRole('button', { name: 'Trash' })).not.toBeInTheDocument();
  });

  it('lists the deleted records with who, when and the purge date, and restores one after the confirm', async () => {
    const fetchMock = setup('ADMIN');
    await userEvent.click(screen.getByRole('button', { name: 'Trash' }));
    const dialog = await screen.findByRole('dialog', { name: TRASH_MESSAGES.title('patients') });
    const row = await within(dialog).findByTestId('trash-row');
    expect(row).toHaveTextContent('Meera Nair');
    expect(row).toHaveTextContent('Anjali Rao');
    expect(row).toHaveTextContent('3 scans');
    expect(row).not.toHaveTextContent('entries');
    expect(row).toHaveTextContent('28 Dec 2026');
    await userEvent.click(within(row).getByRole('button', { name: 'Restore Meera Nair' }));
    expect(await screen.findByText(TRASH_MESSAGES.restoreConfirm('Meera Nair'))).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url, init]) => String(url).includes('/trash/41/restore/') && init?.method === 'POST')).toBe(true),
    );
    expect(await screen.findByText(TRASH_MESSAGES.restored)).toBeInTheDocument();
  });

  it('shows why a restore was refused', async () => {
    setup('ADMIN', 'patients', 400);
    await userEvent.click(screen.getByRole('button', { name: 'Trash' }));
    const row = await screen.findByTestId('trash-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Restore Meera Nair' }));
    await userEvent.click(await screen.findByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(TRASH_MESSAGES.organizationGone)).toBeInTheDocument();
  });
});
