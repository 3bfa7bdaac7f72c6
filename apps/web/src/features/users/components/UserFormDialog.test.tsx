import { useState } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TSessionUser } from '@sc/shared/auth';
import { ROLE_LABELS, type TUserType } from '@sc/shared/roles';
import { USER_MESSAGES } from '@sc/shared/user-input';
import type { TUserDetail } from '@sc/shared/users';
import { MESSAGES } from '@sc/shared/validation';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import type { PickedOrganization } from '../../../components/OrganizationPicker.tsx';
import { bodyOf, makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { userDetail, userRow } from '../test/userFixtures.tsx';
import { UserFormDialog, type UserFormView } from './UserFormDialog.tsx';

const ORGS = {
  count: 2,
  next: null,
  previous: null,
  results: [
    { id: 2, name: 'North Hospital', country: 'India', can_create_organization: true },
    { id: 3, name: 'South Centre', country: null, can_create_organization: false },
  ],
};
const COUNTRIES = [
  { name: 'India', dial_code: '+91', code: 'IN', currency_code: 'INR' },
  { name: 'Kenya', dial_code: '+254', code: 'KE', currency_code: 'KES' },
];
const tech = userDetail(userRow(5, 'Meera', 'Nair'));

function Harness({ session, initial, organization, onClose }: { session: TSessionUser; initial: UserFormView; organization?: PickedOrganization; onClose: (saved: boolean) => void }) {
  const [view, setView] = useState(initial);
  return (
    <SessionUserContext.Provider value={session}>
      <UserFormDialog opened view={view} organization={organization} onViewChange={setView} onClose={onClose} />
    </SessionUserContext.Provider>
  );
}

type Replies = Parameters<typeof mockFetch>[0];

function renderDialog(role: TUserType, initial: UserFormView, replies: Replies = {}, target: TUserDetail = tech, organization?: PickedOrganization) {
  const fetchMock = mockFetch({
    'GET /api/v1/country/': { body: COUNTRIES },
    'GET /api/v1/organization/': { body: ORGS },
    [`GET /api/v1/organization/user/${target.id}/`]: { body: target },
    [`GET /api/v1/organization/user/${target.id}/scan/count/`]: { body: { pre_training: 2, training: 3, practice: 0 } },
    'GET /api/v1/tutorial/module/status/': {
      body: {
        results: [
          { id: 1, name: 'Breast anatomy', completed: true, progress: 100 },
          { id: 2, name: 'Using the device', completed: false, progress: 40 },
        ],
        completed: 1,
        total: 2,
        progress_completed: 50,
      },
    },
    ...replies,
  });
  const onClose = vi.fn();
  const session = makeUser(role, role === 'MANAGER' || role === 'ADMIN' || role === 'SUB_ADMIN' ? { organization: null, organization_data: null } : {});
  renderRoutes([{ path: '/', element: <Harness session={session} initial={initial} organization={organization} onClose={onClose} /> }], '/');
  return { fetchMock, onClose };
}

const sent = (fetchMock: ReturnType<typeof mockFetch>, method: string) => fetchMock.mock.calls.some(([, init]) => init?.method === method);

async function typeOptions() {
  await userEvent.setup().click(screen.getByTestId('user-type'));
  return screen.getAllByRole('option').map((o) => o.textContent);
}

afterEach(() => {
  // Notifications live in a store shared by the tests of this file.
  act(() => notifications.clean());
});

describe('UserFormDialog: create', () => {
  it('starts with country India and user type Technician (part 2 §5 defaults)', async () => {
    renderDialog('ADMIN', { mode: 'create' });
    expect(screen.getByText('Add User')).toBeInTheDocument();
    expect(screen.getByTestId('user-country')).toHaveValue('India (+91)');
    expect(screen.getByTestId('user-type')).toHaveValue(ROLE_LABELS.TECHNICIAN);
  });

  it('shows every message on its field after a submit attempt, and sends nothing', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderDialog('ADMIN', { mode: 'create' });
    expect(screen.queryByText(MESSAGES.emailOrMobile)).not.toBeInTheDocument();
    await user.click(screen.getByTestId('user-submit'));
    expect(await screen.findAllByText(MESSAGES.required)).toHaveLength(2);
    expect(screen.getByTestId('user-first-name')).toHaveAttribute('aria-invalid', 'true');
    // With the names given, the rule on the pair: one of e-mail or mobile, shown on both.
    await user.type(screen.getByTestId('user-first-name'), 'Meera');
    await user.type(screen.getByTestId('user-last-name'), 'Nair');
    await user.click(screen.getByTestId('user-submit'));
    expect(await screen.findAllByText(MESSAGES.emailOrMobile)).toHaveLength(2);
    expect(screen.getByTestId('user-email')).toHaveAttribute('aria-invalid', 'true');
    expect(sent(fetchMock, 'POST')).toBe(false);
  });

  it('checks the e-mail pattern (a 2-to-4-letter ending)', async () => {
    const user = userEvent.setup();
    renderDialog('ADMIN', { mode: 'create' });
    await user.type(screen.getByTestId('user-email'), 'meera@clinic.hospital');
    await user.click(screen.getByTestId('user-submit'));
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeInTheDocument();
  });

  it('takes a pasted +91 number with spaces as typed and sends it (issue 23.3)', async () => {
    const user = userEvent.setup();
    const created = { ...tech, detail: USER_MESSAGES.created, password_link_message: null };
    const { fetchMock } = renderDialog('ADMIN', { mode: 'create' }, {
      'POST /api/v1/organization/user/': { status: 201, body: created },
    });
    await user.type(screen.getByTestId('user-first-name'), 'Meera');
    await user.type(screen.getByTestId('user-last-name'), 'Nair');
    const mobile = screen.getByTestId('user-mobile');
    await user.click(mobile);
    await user.paste('+91 98765 43210');
    expect(mobile).toHaveValue('+91 98765 43210');
    await user.tab();
    expect(screen.queryByText(MESSAGES.invalidPhone)).not.toBeInTheDocument();
    await user.click(screen.getByTestId('user-submit'));
    await waitFor(() => expect(sent(fetchMock, 'POST')).toBe(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/organization/user/')).toMatchObject({
      mobile: '+91 98765 43210',
      mobile_country_code: 'IN',
    });
  });

  it('says a wrong mobile on the field when it is left, before submit', async () => {
    const user = userEvent.setup();
    renderDialog('ADMIN', { mode: 'create' });
    await user.type(screen.getByTestId('user-mobile'), '98765 4321');
    await user.tab();
    expect(await screen.findByText(MESSAGES.invalidPhone)).toBeInTheDocument();
    expect(screen.getByTestId('user-mobile')).toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses a mobile that is not valid for the chosen dial code', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderDialog('ADMIN', { mode: 'create' });
    await user.type(screen.getByTestId('user-first-name'), 'Meera');
    await user.type(screen.getByTestId('user-last-name'), 'Nair');
    await user.type(screen.getByTestId('user-mobile'), '12345');
    await user.click(screen.getByTestId('user-submit'));
    expect(await screen.findByText(MESSAGES.invalidPhone)).toBeInTheDocument();
    expect(sent(fetchMock, 'POST')).toBe(false);
  });

  it.each<TUserType>(['MANAGER', 'DISTRIBUTOR_ADMIN'])('requires an organization from a %s actor ("Select an organization")', async (role) => {
    const user = userEvent.setup();
    const { fetchMock } = renderDialog(role, { mode: 'create' });
    await user.type(screen.getByTestId('user-first-name'), 'Meera');
    await user.type(screen.getByTestId('user-last-name'), 'Nair');
    await user.type(screen.getByTestId('user-email'), 'meera@example.org');
    await user.click(screen.getByTestId('user-submit'));
    expect(await screen.findByText(MESSAGES.selectOrganization)).toBeInTheDocument();
    expect(sent(fetchMock, 'POST')).toBe(false);
  });

  it('does not require an organization from an ADMIN', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderDialog('ADMIN', { mode: 'create' }, {
      'POST /api/v1/organization/user/': { status: 201, body: { ...tech, detail: USER_MESSAGES.created, password_link_message: null } },
    });
    await user.type(screen.getByTestId('user-first-name'), 'Meera');
    await user.type(screen.getByTestId('user-last-name'), 'Nair');
    await user.type(screen.getByTestId('user-mobile'), '9876543210');
    await user.click(screen.getByTestId('user-submit'));
    await waitFor(() => expect(sent(fetchMock, 'POST')).toBe(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/organization/user/')).toEqual({
      first_name: 'Meera',
      last_name: 'Nair',
      user_type: 'TECHNICIAN',
      email: null,
      mobile: '9876543210',
      mobile_country_code: 'IN',
      organization: null,
      is_trainer: false,
      is_available_demo: false,
    });
  });

  it.each<[TUserType, string[]]>([
    ['ADMIN', ['ORG_ADMIN', 'TECHNICIAN', 'MANAGER', 'CERVAICAL_REVIEWER', 'SUB_ADMIN', 'ADMIN']],
    ['SUB_ADMIN', ['ORG_ADMIN', 'TECHNICIAN', 'MANAGER', 'CERVAICAL_REVIEWER']],
    ['MANAGER', ['ORG_ADMIN', 'TECHNICIAN']],
    ['ORG_ADMIN', ['ORG_ADMIN', 'TECHNICIAN']],
  ])('offers a %s the user types of the shared rule (no organization chosen)', async (role, types) => {
    renderDialog(role, { mode: 'create' });
    expect(await typeOptions()).toEqual(types.map((t) => ROLE_LABELS[t as TUserType]));
  });

  it('adds Distributor for a distributor organization, and drops it again for another organization', async () => {
    const user = userEvent.setup();
    renderDialog('DISTRIBUTOR_ADMIN', { mode: 'create' }, {}, tech, { id: 2, name: 'North Hospital', can_create_organization: true });
    expect(await typeOptions()).toEqual(['ORG Admin', 'Technician', 'Distributor']);
    await user.click(screen.getByRole('option', { name: 'Distributor' }));
    await user.click(screen.getByTestId('user-organization'));
    await user.clear(screen.getByTestId('user-organization'));
    await user.type(screen.getByTestId('user-organization'), 'So');
    await user.click(await screen.findByRole('option', { name: 'South Centre' }));
    expect(screen.getByTestId('user-type')).toHaveValue('Technician');
    expect(await typeOptions()).toEqual(['ORG Admin', 'Technician']);
  });

  it('creates in the organization of the page and shows the created and password-link messages', async () => {
    const user = userEvent.setup();
    const link = USER_MESSAGES.passwordLinkSent('meera@example.org');
    const { fetchMock, onClose } = renderDialog(
      'MANAGER',
      { mode: 'create' },
      { 'POST /api/v1/organization/user/': { status: 201, body: { ...tech, detail: USER_MESSAGES.created, password_link_message: link } } },
      tech,
      { id: 3, name: 'South Centre', can_create_organization: false },
    );
    expect(screen.getByTestId('user-organization')).toHaveValue('South Centre');
    await user.type(screen.getByTestId('user-first-name'), 'Meera');
    await user.type(screen.getByTestId('user-last-name'), 'Nair');
    await user.type(screen.getByTestId('user-email'), 'Meera@Example.org');
    // A MANAGER may not set the trainer flags: they are not offered and not sent.
    expect(screen.queryByTestId('user-is-trainer')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('user-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/organization/user/')).toEqual({
      first_name: 'Meera',
      last_name: 'Nair',
      user_type: 'TECHNICIAN',
      email: 'Meera@Example.org',
      mobile: null,
      mobile_country_code: 'IN',
      organization: 3,
    });
    expect(await screen.findByText(USER_MESSAGES.created)).toBeInTheDocument();
    expect(screen.getByText(link)).toBeInTheDocument();
  });

  it('shows the API’s field errors on the fields and in the error area', async () => {
    const user = userEvent.setup();
    renderDialog('ADMIN', { mode: 'create' }, {
      'POST /api/v1/organization/user/': { status: 400, body: { email: [USER_MESSAGES.duplicateEmail] } },
    });
    await user.type(screen.getByTestId('user-first-name'), 'Meera');
    await user.type(screen.getByTestId('user-last-name'), 'Nair');
    await user.type(screen.getByTestId('user-email'), 'meera@example.org');
    await user.click(screen.getByTestId('user-submit'));
    expect(await screen.findByTestId('user-form-errors')).toHaveTextContent(USER_MESSAGES.duplicateEmail);
    expect(screen.getByTestId('user-email')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('UserFormDialog: details and edit', () => {
  it('shows the user read-only with scan counts and tutorial status', async () => {
    renderDialog('ADMIN', { mode: 'details', userId: 5 });
    expect(await screen.findByTestId('user-details')).toHaveTextContent('meera@example.org');
    expect(screen.queryByTestId('user-form')).not.toBeInTheDocument();
    expect(await screen.findByTestId('user-count-pre_training')).toHaveTextContent('2');
    expect(screen.getByTestId('user-count-training')).toHaveTextContent('3');
    expect(screen.getByTestId('user-count-practice')).toHaveTextContent('0');
    expect(await screen.findByTestId('user-tutorials-summary')).toHaveTextContent('1 of 2 completed');
    expect(screen.getByText('50%')).toBeInTheDocument();
    expect(screen.getByText(/Using the device/)).toHaveTextContent('40%');
  });

  it('moves to edit by the Edit button with mobile, e-mail and country locked, and saves with PUT', async () => {
    const user = userEvent.setup();
    const { fetchMock, onClose } = renderDialog('ADMIN', { mode: 'details', userId: 5 }, {
      'PUT /api/v1/organization/user/5/': { body: { ...tech, detail: USER_MESSAGES.updated, password_link_message: null } },
    });
    await user.click(await screen.findByTestId('user-edit'));
    expect(await screen.findByText('Edit User')).toBeInTheDocument();
    expect(screen.getByTestId('user-mobile')).toBeDisabled();
    expect(screen.getByTestId('user-mobile')).toHaveValue('9876500000');
    expect(screen.getByTestId('user-email')).toBeDisabled();
    expect(screen.getByTestId('user-country')).toBeDisabled();
    await user.clear(screen.getByTestId('user-first-name'));
    await user.type(screen.getByTestId('user-first-name'), 'Meenakshi');
    await user.click(screen.getByTestId('user-is-trainer'));
    await user.click(screen.getByTestId('user-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'PUT /api/v1/organization/user/5/')).toEqual({
      first_name: 'Meenakshi',
      last_name: 'Nair',
      user_type: 'TECHNICIAN',
      email: 'meera@example.org',
      mobile: '+91-9876500000',
      mobile_country_code: 'IN',
      organization: 2,
      is_trainer: true,
      is_available_demo: false,
    });
    expect(await screen.findByText(USER_MESSAGES.updated)).toBeInTheDocument();
  });

  it('tells a MANAGER opening Edit on a Distributor user "Access denied for your permission level."', async () => {
    const user = userEvent.setup();
    const target = userDetail(userRow(5, 'Dev', 'Shah', { user_type: 'DISTRIBUTOR_ADMIN' }));
    renderDialog('MANAGER', { mode: 'details', userId: 5 }, {}, target);
    await user.click(await screen.findByTestId('user-edit'));
    expect(await screen.findByText(USER_MESSAGES.accessDenied)).toBeInTheDocument();
    expect(screen.queryByTestId('user-form')).not.toBeInTheDocument();
  });

  it('shows the Unauthorized access panel when the user get answers 404', async () => {
    renderDialog('ORG_ADMIN', { mode: 'details', userId: 5 }, { 'GET /api/v1/organization/user/5/': { status: 404, body: { detail: 'Not found.' } } });
    expect(await screen.findByTestId('user-unauthorized')).toHaveTextContent(USER_MESSAGES.notInOrganization);
  });

  it('shows a MANAGER the trainer flag read-only as Yes, and hides the flags for a manager-type user', async () => {
    const user = userEvent.setup();
    const trainer = userDetail(userRow(5, 'Meera', 'Nair', { is_trainer: true }));
    renderDialog('MANAGER', { mode: 'edit', userId: 5 }, {}, trainer);
    expect(await screen.findByTestId('user-flags-readonly')).toHaveTextContent('Trainer: Yes');
    expect(screen.queryByTestId('user-is-trainer')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('user-type'));
    // ORG Admin and Technician only: a MANAGER cannot make a manager.
    expect(screen.queryByRole('option', { name: 'Manager' })).not.toBeInTheDocument();
  });

  it('hides the trainer and demo flags for a MANAGER target, even from an ADMIN', async () => {
    const manager = userDetail(userRow(5, 'Mani', 'Iyer', { user_type: 'MANAGER', organization: null, organization_data: null }));
    renderDialog('ADMIN', { mode: 'edit', userId: 5 }, { 'GET /api/v1/user/organizations/': { body: { count: 0, next: null, previous: null, results: [] } } }, manager);
    expect(await screen.findByTestId('user-form')).toBeInTheDocument();
    expect(screen.queryByTestId('user-is-trainer')).not.toBeInTheDocument();
    expect(screen.queryByTestId('user-is-demo')).not.toBeInTheDocument();
    expect(screen.queryByTestId('user-organization')).not.toBeInTheDocument();
  });
});

describe('UserFormDialog: Reset Pin, Reset Password, Certify, reports', () => {
  it('resets the PIN after the confirm and announces "Successfully Reset Pin"', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderDialog('ORG_ADMIN', { mode: 'details', userId: 5 }, {
      'PUT /api/v1/organization/user/5/reset/pin/': { body: { detail: USER_MESSAGES.pinReset, pin_reset_request: true } },
    });
    await user.click(await screen.findByTestId('user-reset-pin'));
    expect(await screen.findByText(USER_MESSAGES.resetPinConfirm)).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(USER_MESSAGES.pinReset)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT /api/v1/organization/user/5/reset/pin/')).toEqual({ pin_reset_request: true });
  });

  it('sends the password link after the §8 confirm and shows where it went', async () => {
    const user = userEvent.setup();
    const text = USER_MESSAGES.passwordLinkSent('meera@example.org');
    renderDialog('DISTRIBUTOR_ADMIN', { mode: 'details', userId: 5 }, {
      'POST /api/v1/organization/user/5/reset/password/': { body: { detail: text, email: 'meera@example.org' } },
    });
    await user.click(await screen.findByTestId('user-reset-password'));
    expect(await screen.findByText(USER_MESSAGES.resetPasswordConfirm)).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('offers no Reset Password for a user without an e-mail', async () => {
    renderDialog('ADMIN', { mode: 'details', userId: 5 }, {}, userDetail(userRow(5, 'Meera', 'Nair', { email: null })));
    expect(await screen.findByTestId('user-reset-pin')).toBeInTheDocument();
    expect(screen.queryByTestId('user-reset-password')).not.toBeInTheDocument();
  });

  it.each<[string, TUserType, TUserDetail, boolean]>([
    ['an ADMIN, a technician in training', 'ADMIN', tech, true],
    ['a SUB_ADMIN, a technician in training', 'SUB_ADMIN', tech, true],
    ['a DISTRIBUTOR_ADMIN (not admin-level)', 'DISTRIBUTOR_ADMIN', tech, false],
    ['an ADMIN, a certified technician', 'ADMIN', userDetail(userRow(5, 'Meera', 'Nair', { ibe_training_status: 'CERTIFIED' })), false],
    ['an ADMIN, an unassigned technician', 'ADMIN', userDetail(userRow(5, 'Meera', 'Nair', { organization: null, organization_data: null })), false],
    ['an ADMIN, a reviewer', 'ADMIN', userDetail(userRow(5, 'Meera', 'Nair', { user_type: 'CERVAICAL_REVIEWER' })), false],
  ])('Certify for %s: %s', async (_case, role, target, shown) => {
    renderDialog(role, { mode: 'details', userId: 5 }, {}, target);
    await screen.findByTestId('user-details');
    expect(Boolean(screen.queryByTestId('user-certify'))).toBe(shown);
  });

  it('certifies after a confirm with GET user/certify/{id}/', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderDialog('ADMIN', { mode: 'details', userId: 5 }, {
      'GET /api/v1/user/certify/5/': { body: { ...tech, ibe_training_status: 'CERTIFIED', detail: USER_MESSAGES.certified, password_link_message: null } },
    });
    await user.click(await screen.findByTestId('user-certify'));
    expect(await screen.findByText(USER_MESSAGES.certifyConfirm('Meera Nair'))).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(USER_MESSAGES.certified)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith('/api/v1/user/certify/5/'))).toBe(true);
  });

  it('offers the training report when there are training scans (not the practice one: none), and opens the PDF in a new tab', async () => {
    const user = userEvent.setup();
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    renderDialog('ADMIN', { mode: 'details', userId: 5 }, { 'GET /api/v1/user/training/report/pdf/5/': { body: '%PDF-1.7' } });
    await user.click(await screen.findByTestId('user-report-training'));
    expect(screen.queryByTestId('user-report-practice')).not.toBeInTheDocument();
    await waitFor(() => expect(tab.location.href).toBe('blob:report'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    open.mockRestore();
  });

  it('offers no report for a reviewer, whatever the counts', async () => {
    renderDialog('ADMIN', { mode: 'details', userId: 5 }, {}, userDetail(userRow(5, 'Meera', 'Nair', { user_type: 'CERVAICAL_REVIEWER' })));
    await screen.findByTestId('user-count-training');
    expect(screen.queryByTestId('user-report-training')).not.toBeInTheDocument();
  });
});

describe('UserFormDialog: a manager’s organization links', () => {
  const manager = userDetail(userRow(8, 'Mani', 'Iyer', { user_type: 'MANAGER', organization: null, organization_data: null }));
  const links = {
    count: 1,
    next: null,
    previous: null,
    results: [{ id: 41, user: 8, organization: 2, organization_data: { id: 2, name: 'North Hospital', can_create_organization: true, country: 'India' }, created: '2026-01-01T00:00:00Z' }],
  };

  it('lists the links, adds one with POST and removes one after a confirm', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderDialog('ADMIN', { mode: 'details', userId: 8 }, {
      'GET /api/v1/user/organizations/': { body: links },
      'POST /api/v1/user/organizations/': { status: 201, body: { ...links.results[0], id: 42, organization: 3, detail: USER_MESSAGES.linkAdded } },
      'DELETE /api/v1/user/organizations/41/': { status: 204 },
    }, manager);
    expect(await screen.findByRole('link', { name: 'North Hospital (India)' })).toBeInTheDocument();
    expect(screen.getByTestId('user-link-add')).toBeDisabled();
    await user.type(screen.getByTestId('user-link-picker'), 'o');
    await screen.findByRole('option', { name: 'South Centre' });
    // An organization already linked is not offered again.
    expect(screen.queryByRole('option', { name: 'North Hospital (India)' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'South Centre' }));
    await user.click(screen.getByTestId('user-link-add'));
    expect(await screen.findByText(USER_MESSAGES.linkAdded)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/v1/user/organizations/')).toEqual({ organization: 3, user: 8 });
    const linkQuery = fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/v1/user/organizations/?'));
    expect(new URL(String(linkQuery?.[0]), 'http://x').searchParams.get('limit')).toBe('1000');

    await user.click(screen.getByTestId('user-link-remove-2'));
    expect(await screen.findByText(USER_MESSAGES.removeOrganizationConfirm('North Hospital'))).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(USER_MESSAGES.linkRemoved)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u, init]) => init?.method === 'DELETE' && String(u) === '/api/v1/user/organizations/41/')).toBe(true);
  });

  it('shows a failed add under the picker for 2 seconds', async () => {
    const user = userEvent.setup();
    renderDialog('SUB_ADMIN', { mode: 'details', userId: 8 }, {
      'GET /api/v1/user/organizations/': { body: { ...links, count: 0, results: [] } },
      'POST /api/v1/user/organizations/': { status: 400, body: { organization: [USER_MESSAGES.duplicateLink] } },
    }, manager);
    await screen.findByTestId('user-links-empty');
    await user.type(screen.getByTestId('user-link-picker'), 'o');
    await user.click(await screen.findByRole('option', { name: 'South Centre' }));
    await user.click(screen.getByTestId('user-link-add'));
    expect(await screen.findByText(USER_MESSAGES.duplicateLink)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(USER_MESSAGES.duplicateLink)).not.toBeInTheDocument());
  });

  it('shows no links to a DISTRIBUTOR_ADMIN', async () => {
    renderDialog('DISTRIBUTOR_ADMIN', { mode: 'details', userId: 8 }, {}, manager);
    await screen.findByTestId('user-details');
    expect(screen.queryByTestId('user-links')).not.toBeInTheDocument();
  });
});
