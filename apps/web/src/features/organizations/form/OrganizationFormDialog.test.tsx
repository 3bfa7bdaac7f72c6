import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { maxValueMessage, minValueMessage } from '@sc/shared/numbers';
import { PRICE_MAX } from '@sc/shared/organization-input';
import { bodyOf } from '../../../test/render.tsx';
import { OrganizationFormDialog } from './OrganizationFormDialog.tsx';
import { makeOrganization, mockFormApi, renderAs } from './formTestUtils.tsx';

const switchOf = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const setValue = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

function renderCreate(role: Parameters<typeof renderAs>[0] = 'ADMIN', props: { parentId?: number } = {}) {
  const onClose = vi.fn();
  renderAs(role, <OrganizationFormDialog opened onClose={onClose} {...props} />);
  return { onClose };
}

async function renderEdit(role: Parameters<typeof renderAs>[0], org = makeOrganization()) {
  const fetchMock = mockFormApi({ [`GET /api/v1/organization/${org.id}/`]: { body: org } });
  const onClose = vi.fn();
  renderAs(role, <OrganizationFormDialog opened onClose={onClose} organizationId={org.id} />);
  await waitFor(() => expect(screen.getByTestId('org-name')).toHaveValue(org.name));
  return { onClose, fetchMock };
}

/** Name and address typed: the company contact fills from them (part 1 §4); the country is left to the test. */
function fillRequiredExceptCountry() {
  setValue('org-name', 'Clinic');
  setValue('org-address-1', 'MG Road');
  setValue('org-address-3', 'Pune');
  setValue('org-state', 'Goa');
  setValue('org-zipcode', '403001');
}

async function chooseCountry(user: ReturnType<typeof userEvent.setup>, name = 'India') {
  await user.click(screen.getByTestId('org-country'));
  await user.click(await screen.findByRole('option', { name }));
}

describe('OrganizationFormDialog', () => {
  it('copies the organization name into the company name until the company name is edited', async () => {
    mockFormApi();
    const user = userEvent.setup();
    renderCreate();
    expect(screen.getByText('Create Organization')).toBeInTheDocument();
    await user.type(screen.getByTestId('org-name'), 'Sun');
    expect(screen.getByTestId('org-company-name')).toHaveValue('Sun');
    setValue('org-name', 'Sunrise');
    expect(screen.getByTestId('org-company-name')).toHaveValue('Sunrise');
    setValue('org-address-3', 'Pune');
    expect(screen.getByTestId('org-company-city')).toHaveValue('Pune');

    setValue('org-company-name', 'Sunrise Health Ltd');
    setValue('org-name', 'Sunrise Clinic');
    expect(screen.getByTestId('org-name')).toHaveValue('Sunrise Clinic');
    expect(screen.getByTestId('org-company-name')).toHaveValue('Sunrise Health Ltd');
  });

  it('turns the distributor flag off and disables it when a parent is chosen', async () => {
    mockFormApi();
    const user = userEvent.setup();
    renderCreate('ADMIN');
    await user.click(switchOf('org-distributor'));
    expect(switchOf('org-distributor')).toBeChecked();

    await user.type(screen.getByTestId('org-parent'), 'North');
    await user.click(await screen.findByRole('option', { name: /North Distributor/ }));
    await waitFor(() => expect(switchOf('org-distributor')).not.toBeChecked());
    expect(switchOf('org-distributor')).toBeDisabled();
  });

  it('keeps an existing sub-distributor a distributor when it is saved unchanged', async () => {
    const org = makeOrganization({ parent: 9, can_create_organization: true });
    await renderEdit('ADMIN', org);
    const fetchMock = mockFormApi({
      'PUT /api/v1/organization/5/': { body: org },
      'GET /api/v1/organization/5/': { body: org },
    });
    expect(switchOf('org-distributor')).toBeChecked();
    expect(switchOf('org-distributor')).toBeEnabled();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('org-form-submit'));
    await waitFor(() => expect(bodyOf(fetchMock, 'PUT /api/v1/organization/5/')).toMatchObject({ parent: 9, can_create_organization: true }));
  });

  it('hides the parent picker when the parent is fixed and for roles that cannot choose it', async () => {
    mockFormApi();
    renderCreate('ADMIN', { parentId: 9 });
    expect(screen.queryByTestId('org-parent')).not.toBeInTheDocument();
    expect(switchOf('org-distributor')).toBeDisabled();
  });

  it('shows the admin flags as read-only Yes/No to an ORG_ADMIN', async () => {
    await renderEdit('ORG_ADMIN');
    expect(screen.getByText('Edit Organization')).toBeInTheDocument();
    const orca = screen.getByTestId('org-flag-is_orca_navigation_allowed');
    expect(orca).toHaveAttribute('data-readonly', 'true');
    expect(within(orca).getByText('No')).toBeInTheDocument();
    expect(within(screen.getByTestId('org-flag-is_cervaical_navigation_allowed')).getByText('Yes')).toBeInTheDocument();
    expect(screen.getByTestId('org-flag-enable_send_sms_to_patient')).toHaveAttribute('data-readonly', 'true');
    expect(screen.getByTestId('org-flag-is_storage_optimised')).toHaveAttribute('data-readonly', 'true');
    expect(screen.getByTestId('org-flag-has_web_access')).toHaveAttribute('data-readonly', 'true');
    expect(screen.getByTestId('org-distributor')).toHaveAttribute('data-readonly', 'true');
    expect(screen.queryByTestId('org-parent')).not.toBeInTheDocument();
    // Flags every role edits stay switches.
    expect(switchOf('org-flag-qr_enabled_for_training')).toBeChecked();
  });

  it('lets an ADMIN switch the admin flags', async () => {
    const user = userEvent.setup();
    await renderEdit('ADMIN');
    const orca = switchOf('org-flag-is_orca_navigation_allowed');
    expect(orca).not.toHaveAttribute('data-readonly');
    await user.click(orca);
    expect(orca).toBeChecked();
    expect(switchOf('org-flag-is_storage_optimised')).toBeEnabled();
  });

  it('lets a MANAGER but not an ORG_ADMIN change web access', async () => {
    await renderEdit('MANAGER');
    expect(switchOf('org-flag-has_web_access')).toBeChecked();
    expect(screen.getByTestId('org-flag-is_orca_navigation_allowed')).toHaveAttribute('data-readonly', 'true');
  });

  it('refuses a consent text of 401 words', async () => {
    mockFormApi();
    const user = userEvent.setup();
    renderCreate();
    fireEvent.change(screen.getByTestId('org-consent-0'), { target: { value: Array(401).fill('word').join(' ') } });
    expect(screen.getByText('401/400 words')).toBeInTheDocument();
    await user.click(screen.getByTestId('org-form-submit'));
    expect(await screen.findByText('Only 400 words are allowed')).toBeInTheDocument();
  });

  it('asks before a consent row is removed', async () => {
    mockFormApi();
    const user = userEvent.setup();
    renderCreate();
    await user.click(screen.getByTestId('org-consent-add'));
    fireEvent.change(screen.getByTestId('org-consent-1'), { target: { value: 'Second text' } });
    await user.click(screen.getByTestId('org-consent-delete-1'));
    expect(
      await screen.findByText('Are you sure you want to delete this value? Please SUBMIT to save the changes.'),
    ).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    expect(screen.getByTestId('org-consent-1')).toHaveValue('Second text');

    await user.click(screen.getByTestId('org-consent-delete-1'));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('org-consent-1')).not.toBeInTheDocument());
  });

  it('counts the customized message, refuses 1501 characters and opens the section on submit', async () => {
    mockFormApi();
    const user = userEvent.setup();
    renderCreate();
    const toggle = screen.getByTestId('org-section-customized-toggle');
    await user.click(toggle);
    fireEvent.change(screen.getByTestId('org-customized-message'), { target: { value: 'a'.repeat(1501) } });
    expect(screen.getByTestId('org-customized-count')).toHaveTextContent('1501/1500');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(screen.getByTestId('org-form-submit'));
    expect(await screen.findByText('Only 1500 Characters are allowed')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    await user.click(screen.getByTestId('org-customized-clear'));
    expect(screen.getByTestId('org-customized-count')).toHaveTextContent('0/1500');
  });

  it('hides consent, customized message and webhook in booking mode and shows the booking fields', async () => {
    mockFormApi();
    const user = userEvent.setup();
    renderCreate('ADMIN');
    expect(screen.getByTestId('org-section-consent')).toBeInTheDocument();
    await user.click(switchOf('org-booking'));
    expect(screen.queryByTestId('org-section-consent')).not.toBeInTheDocument();
    expect(screen.queryByTestId('org-section-customized')).not.toBeInTheDocument();
    expect(screen.queryByTestId('org-section-webhook')).not.toBeInTheDocument();
    expect(screen.getByTestId('org-price')).toBeInTheDocument();
    expect(screen.getByTestId('org-day-SUN')).toBeInTheDocument();
  });

  it('sends the price ×100 and the days as ids in booking mode, with company info optional', async () => {
    const fetchMock = mockFormApi({ 'POST /api/v1/organization/': { status: 201, body: makeOrganization() } });
    const user = userEvent.setup();
    const { onClose } = renderCreate('ADMIN');
    setValue('org-name', 'Booking Clinic');
    await chooseCountry(user);
    await user.click(switchOf('org-booking'));
    setValue('org-company-name', '');
    setValue('org-price', '12.5');
    await user.click(screen.getByText('MON'));
    await user.click(screen.getByText('SUN'));
    await user.click(screen.getByTestId('org-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/organization/')).toMatchObject({
      name: 'Booking Clinic',
      is_booking_enabled: true,
      price: 1250,
      available_days: [0, 6],
      parent: null,
    });
  });

  it('keeps a negative or too large price as typed and says its range in the units typed (issue 23.4)', async () => {
    const fetchMock = mockFormApi();
    const user = userEvent.setup();
    renderCreate('ADMIN');
    setValue('org-name', 'Booking Clinic');
    await chooseCountry(user);
    await user.click(switchOf('org-booking'));
    setValue('org-price', '-5');
    await user.click(screen.getByTestId('org-form-submit'));
    expect(await screen.findByText(minValueMessage(0))).toBeInTheDocument();
    expect(screen.getByTestId('org-price')).toHaveValue('-5');
    setValue('org-price', '20000000');
    await user.click(screen.getByTestId('org-form-submit'));
    expect(await screen.findByText(maxValueMessage(PRICE_MAX / 100))).toBeInTheDocument();
    expect(screen.getByTestId('org-price')).toHaveValue('20000000');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('labels the organization’s address and the company contact apart: one "State" each, each named', async () => {
    mockFormApi();
    renderCreate('ADMIN');
    expect(within(screen.getByTestId('org-section-address')).getByText('Organization address')).toBeInTheDocument();
    expect(within(screen.getByTestId('org-section-company')).getByText('Company contact (printed on reports)')).toBeInTheDocument();
    expect(screen.getAllByLabelText('State')).toEqual([screen.getByTestId('org-state')]);
    for (const [label, testId] of [
      [/^Company state/, 'org-company-state'],
      [/^Company city/, 'org-company-city'],
      [/^Company zip code/, 'org-company-zip'],
      [/^Company address/, 'org-company-address'],
      [/^Company email/, 'org-company-email'],
      [/^Company mobile number/, 'org-company-mobile'],
    ] as const) {
      expect(screen.getByLabelText(label)).toBe(screen.getByTestId(testId));
    }
  });

  it('asks for the organization’s country before creating it', async () => {
    const fetchMock = mockFormApi({ 'POST /api/v1/organization/': { status: 201, body: makeOrganization() } });
    const user = userEvent.setup();
    renderCreate('ADMIN');
    fillRequiredExceptCountry();
    await user.click(screen.getByTestId('org-form-submit'));
    await waitFor(() => expect(screen.getByTestId('org-country')).toHaveAttribute('aria-invalid', 'true'));
    expect(bodyOf(fetchMock, 'POST /api/v1/organization/')).toBeUndefined();
  });

  it('sends every company_info key, the empty ones (logo, email, contact number) as null', async () => {
    const fetchMock = mockFormApi({ 'POST /api/v1/organization/': { status: 201, body: makeOrganization() } });
    const user = userEvent.setup();
    const { onClose } = renderCreate('ADMIN');
    fillRequiredExceptCountry();
    await chooseCountry(user);
    await user.click(screen.getByTestId('org-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    const body = bodyOf(fetchMock, 'POST /api/v1/organization/') as Record<string, unknown>;
    expect(body).toMatchObject({ country: 'India', country_code: 'IN' });
    expect(body.company_info).toEqual({
      name: 'Clinic',
      city: 'Pune',
      zip_code: '403001',
      state: 'Goa',
      address: 'MG Road',
      email: null,
      contact_number: null,
      country_code: 'IN',
      profile_image_path: null,
    });
  });

  it('puts server field errors on their fields and lists them for 5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockFormApi({
      'POST /api/v1/organization/': {
        status: 400,
        body: { 'company_info.email': ['Enter a valid email address.'], webhook_url: ['This URL points to a private or local address.'] },
      },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderCreate('ADMIN');
    setValue('org-name', 'Clinic');
    setValue('org-address-1', 'MG Road');
    setValue('org-address-3', 'Pune');
    setValue('org-state', 'Goa');
    setValue('org-zipcode', '403001');
    await chooseCountry(user);
    await user.click(screen.getByTestId('org-form-submit'));

    const area = await screen.findByTestId('org-form-errors');
    expect(within(area).getByText('company info.email')).toBeInTheDocument();
    expect(within(area).getByText('webhook url')).toBeInTheDocument();
    expect(screen.getByTestId('org-company-email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('org-webhook-url')).toHaveAttribute('aria-invalid', 'true');
    // The webhook section opened to show its error.
    expect(screen.getByTestId('org-section-webhook-toggle')).toHaveAttribute('aria-expanded', 'true');

    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(screen.queryByTestId('org-form-errors')).not.toBeInTheDocument();
  });

  it('saves an edit with PUT, leaves out flags the role cannot change and closes with success', async () => {
    const { onClose } = await renderEdit('ORG_ADMIN');
    const fetchMock = mockFormApi({
      'PUT /api/v1/organization/5/': { body: makeOrganization() },
      'GET /api/v1/organization/5/': { body: makeOrganization() },
    });
    const user = userEvent.setup();
    await user.click(screen.getByTestId('org-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(await screen.findByText('Organization updated Successfully')).toBeInTheDocument();
    const body = bodyOf(fetchMock, 'PUT /api/v1/organization/5/') as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'City Clinic', ibe_consent_form: ['I agree to the breast examination.'] });
    for (const key of ['is_orca_navigation_allowed', 'has_web_access', 'can_create_organization', 'parent', 'is_booking_enabled']) {
      expect(body).not.toHaveProperty(key);
    }
  });

  it('offers Send previous scans only for a saved organization whose webhook is on', async () => {
    const org = makeOrganization({ webhook_switch: true, webhook_url: 'https://hooks.example.org/scan' });
    await renderEdit('ADMIN', org);
    const user = userEvent.setup();
    const button = screen.getByTestId('org-send-previous-scans');
    mockFormApi({
      'GET /api/v1/organization/5/': { body: org },
      'POST /api/v1/organization/previous-scans/': {
        body: { detail: 'Organization Previous Scans Webhook Successfully', queued: 3 },
      },
    });
    await user.click(button);
    expect(await screen.findByText('Organization Previous Scans Webhook Successfully')).toBeInTheDocument();
  });
});
