import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOLLOW_UP_MESSAGES, FOLLOW_UP_SMS_TEXT_MAX, defaultFollowUpSettings } from '@sc/shared/follow-up';
import { bodyOf, makeUser, mockFetch } from '../../../test/render.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { FollowUpSettingsPanel } from './FollowUpSettingsForm.tsx';

const SETTINGS = '/api/v1/organization/3/follow-up-settings/';

function setup(settings = defaultFollowUpSettings(3)) {
  const fetchMock = mockFetch({
    [`GET ${SETTINGS}`]: { body: settings },
    [`PUT ${SETTINGS}`]: (init) => ({
      body: { ...settings, ...(JSON.parse(String(init?.body)) as object), is_custom: true },
    }),
    'GET /api/v1/language/': {
      body: {
        count: 2,
        next: null,
        previous: null,
        results: [
          {
            id: 1,
            name: 'English',
            iso_code: 'en',
            is_tutorial_available: true,
            app_version: null,
            ibe_consent_form: [],
          },
          {
            id: 2,
            name: 'Filipino',
            iso_code: 'fi',
            is_tutorial_available: false,
            app_version: null,
            ibe_consent_form: [],
          },
        ],
      },
    },
  });
  renderScanRoutes(makeUser('ORG_ADMIN'), '/organization/3', {
    '/organization/3': <FollowUpSettingsPanel organizationId={3} />,
  });
  return fetchMock;
}
const puts = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');

afterEach(() => vi.unstubAllGlobals());

describe('FollowUpSettingsForm', () => {
  it('shows the defaults and saves the changed intervals', async () => {
    const fetchMock = setup();
    const contact = await screen.findByTestId('follow-up-contact-days');
    expect(contact).toHaveValue('7');
    expect(screen.getByTestId('follow-up-seen-days')).toHaveValue('30');
    await userEvent.clear(contact);
    await userEvent.type(contact, '5');
    await userEvent.click(screen.getByTestId('follow-up-settings-submit'));
    await waitFor(() =>
      expect(bodyOf(fetchMock, `PUT ${SETTINGS}`)).toMatchObject({
        contact_days: 5,
        referral_days: 14,
        sms_enabled: false,
      }),
    );
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.settingsSaved)).toBeInTheDocument();
  });

  it('refuses an interval out of range with the shared message, sending nothing', async () => {
    const fetchMock = setup();
    const seen = await screen.findByTestId('follow-up-seen-days');
    await userEvent.clear(seen);
    await userEvent.type(seen, '400');
    await userEvent.click(screen.getByTestId('follow-up-settings-submit'));
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.dueDays)).toBeInTheDocument();
    expect(puts(fetchMock)).toHaveLength(0);
  });

  it('refuses SMS reminders without a text, and an unknown placeholder', async () => {
    const fetchMock = setup({ ...defaultFollowUpSettings(3), sms_texts: { en: '' } });
    await userEvent.click(await screen.findByTestId('follow-up-sms-enabled'));
    await userEvent.click(screen.getByTestId('follow-up-settings-submit'));
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.smsTextRequired)).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('follow-up-sms-text-en'), 'Hello {{last_name}');
    await userEvent.click(screen.getByTestId('follow-up-settings-submit'));
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.smsTextPlaceholder)).toBeInTheDocument();
    expect(puts(fetchMock)).toHaveLength(0);
  });

  it('counts the characters of a text and adds a language from the languages list', async () => {
    const fetchMock = setup();
    expect(await screen.findByText(`106 / ${FOLLOW_UP_SMS_TEXT_MAX}`)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('follow-up-sms-add-language'));
    await userEvent.click(await screen.findByRole('option', { name: 'Filipino' }));
    await userEvent.type(screen.getByTestId('follow-up-sms-text-fi'), 'Magandang araw {{first_name}');
    await userEvent.click(screen.getByTestId('follow-up-settings-submit'));
    await waitFor(() =>
      expect(bodyOf(fetchMock, `PUT ${SETTINGS}`)).toMatchObject({
        sms_texts: { fi: 'Magandang araw {first_name}' },
      }),
    );
  });
});
