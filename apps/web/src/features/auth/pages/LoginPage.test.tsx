import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import type { TUserType } from '@sc/shared/roles';
import { TOKEN_KEY } from '../../../api/storage.ts';
import { RequireToken } from '../../../app/guards.tsx';
import { bodyOf, makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { LoginPage } from './LoginPage.tsx';

const COUNTRIES = [
  { name: 'India', dial_code: '+91', code: 'IN', currency_code: 'INR' },
  { name: 'Kenya', dial_code: '+254', code: 'KE', currency_code: 'KES' },
];

const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  ...['/dashboard', '/organization', '/cervaical', '/user-delete', '/scan'].map((path) => ({
    path,
    element: <p>landed on {path}</p>,
  })),
];

function setup(replies: Parameters<typeof mockFetch>[0] = {}) {
  const fetchMock = mockFetch({ 'GET /api/v1/country/': { body: COUNTRIES }, ...replies });
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  const view = renderRoutes(routes, '/login');
  return { fetchMock, user, ...view };
}

describe('LoginPage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('offers India (+91) as the default country', async () => {
    const { user } = setup();
    expect(await screen.findByTestId('login-mobile-view')).toBeInTheDocument();
    // The picker's code loads when the user first acts (issue 24); its place shows the country meanwhile.
    expect(screen.getByRole('textbox', { name: 'Country' })).toHaveValue('India (+91)');
    expect(screen.queryByRole('combobox', { name: 'Country' })).not.toBeInTheDocument();
    await user.click(screen.getByTestId('login-country'));
    expect(await screen.findByRole('combobox', { name: 'Country' })).toHaveValue('India (+91)');
    expect(screen.getByTestId('login-country')).toHaveValue('India (+91)');
    // A click on the waiting field opens the picker once it is there.
    expect(await screen.findByRole('option', { name: 'India (+91)' })).toBeInTheDocument();
  });

  it('refuses an invalid phone number without calling the API', async () => {
    const { user, fetchMock } = setup();
    await user.type(screen.getByLabelText('Mobile number'), '12ab3');
    expect(screen.getByLabelText('Mobile number')).toHaveValue('123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter a valid Phone Number.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('auth/otp'))).toBe(false);
  });

  it('sends a code to a valid number, counts down 60 s, then Resend code returns to the phone view', async () => {
    const { user, fetchMock } = setup({
      'POST /api/v1/auth/otp/': { body: { detail: 'Code sent.', resend_after: 60 } },
    });
    await user.type(screen.getByLabelText('Mobile number'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByTestId('login-code-view')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/v1/auth/otp/')).toEqual({
      mobile: '9876543210',
      mobile_country_code: 'IN',
    });
    expect(screen.getByTestId('login-code-sent')).toHaveTextContent('+91 9876543210');
    expect(screen.getByTestId('login-resend-countdown')).toHaveTextContent('60 s');
    expect(screen.queryByText('Resend code')).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(screen.getByTestId('login-resend-countdown')).toHaveTextContent('30 s');
    await act(() => vi.advanceTimersByTimeAsync(30_000));

    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(screen.getByTestId('login-mobile-view')).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile number')).toHaveValue('9876543210');
  });

  describe('navigation between the views', () => {
    const OTP_SENT = { 'POST /api/v1/auth/otp/': { body: { detail: 'Code sent.', resend_after: 60 } } };

    async function toCodeView(user: ReturnType<typeof setup>['user']) {
      await user.type(screen.getByLabelText('Mobile number'), '9876543210');
      await user.click(screen.getByRole('button', { name: 'Log in' }));
      expect(await screen.findByTestId('login-code-view')).toBeInTheDocument();
    }

    it('keeps browser Back inside the app: Back from the code screen returns to the number screen', async () => {
      const { user, router } = setup(OTP_SENT);
      await toCodeView(user);
      expect(router.state.location.pathname).toBe('/login');
      expect(router.state.location.search).toBe('?view=code');

      await act(() => router.navigate(-1));
      expect(screen.getByTestId('login-mobile-view')).toBeInTheDocument();
      expect(screen.getByLabelText('Mobile number')).toHaveValue('9876543210');
      expect(router.state.location.search).toBe('');
      // Forward shows the code screen again, for the same number.
      await act(() => router.navigate(1));
      expect(screen.getByTestId('login-code-sent')).toHaveTextContent('+91 9876543210');
    });

    it('lets the user change the number from the code screen, keeping what was typed', async () => {
      const { user, router } = setup(OTP_SENT);
      await toCodeView(user);
      await user.click(screen.getByRole('button', { name: 'Change number' }));
      expect(screen.getByTestId('login-mobile-view')).toBeInTheDocument();
      expect(screen.getByLabelText('Mobile number')).toHaveValue('9876543210');
      // It went back in history: no code screen is left behind the number screen.
      expect(router.state.historyAction).toBe('POP');
      expect(router.state.location.search).toBe('');
    });

    it('offers e-mail sign-in from the code screen, and Back from there returns to the number screen', async () => {
      const { user, router } = setup(OTP_SENT);
      await toCodeView(user);
      await user.click(screen.getByRole('button', { name: 'Use e-mail instead' }));
      expect(screen.getByTestId('login-email-view')).toBeInTheDocument();
      expect(router.state.location.search).toBe('?view=email');

      await act(() => router.navigate(-1));
      expect(screen.getByTestId('login-mobile-view')).toBeInTheDocument();
    });

    it('starts at the number screen when the code screen is opened without a code sent (reload, shared link)', async () => {
      mockFetch({ 'GET /api/v1/country/': { body: COUNTRIES } });
      renderRoutes(routes, '/login?view=code');
      expect(await screen.findByTestId('login-mobile-view')).toBeInTheDocument();
    });

    it('opens the view named in the URL', async () => {
      mockFetch({ 'GET /api/v1/country/': { body: COUNTRIES } });
      renderRoutes(routes, '/login?view=forgot');
      expect(await screen.findByTestId('login-forgot-view')).toBeInTheDocument();
    });

    it('returns from Forgot Password to the e-mail view with Back, like its Back to Log in link', async () => {
      const { user, router } = setup();
      await user.click(screen.getByTestId('login-to-email'));
      await user.type(screen.getByLabelText('Email'), 'asha@example.org');
      await user.click(screen.getByRole('button', { name: 'Forgot Password' }));
      expect(screen.getByTestId('login-forgot-view')).toBeInTheDocument();
      await act(() => router.navigate(-1));
      expect(screen.getByTestId('login-email-view')).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toHaveValue('asha@example.org');
      await act(() => router.navigate(-1));
      expect(screen.getByTestId('login-mobile-view')).toBeInTheDocument();
    });
  });

  it('refuses a code that is not 6 digits', async () => {
    const { user, fetchMock } = setup({
      'POST /api/v1/auth/otp/': { body: { detail: 'Code sent.', resend_after: 60 } },
    });
    await user.type(screen.getByLabelText('Mobile number'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await user.type(await screen.findByLabelText('Code'), '12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Please enter a valid otp.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('otp/verify'))).toBe(false);
  });

  it('signs in with a verified code', async () => {
    const { user, fetchMock } = setup({
      'POST /api/v1/auth/otp/': { body: { detail: 'Code sent.', resend_after: 60 } },
      'POST /api/v1/auth/otp/verify/': { body: { id_token: 'id-1' } },
      'POST /api/v1/user/login/': { body: { token: 'session-1', id: 7, is_trainer: false } },
      'GET /api/v1/user/': { body: makeUser('ADMIN') },
    });
    await user.type(screen.getByLabelText('Mobile number'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await user.type(await screen.findByLabelText('Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('landed on /dashboard')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/v1/auth/otp/verify/')).toEqual({
      mobile: '9876543210',
      mobile_country_code: 'IN',
      code: '123456',
    });
  });

  it("shows the server's e-mail login message and clears it after 6 s", async () => {
    const { user } = setup({
      'POST /api/v1/auth/password/': {
        status: 400,
        body: { non_field_errors: [AUTH_MESSAGES.wrongPassword] },
      },
    });
    await user.click(screen.getByTestId('login-to-email'));
    await user.type(screen.getByLabelText('Email'), 'asha@example.org');
    await user.type(screen.getByLabelText('Password'), 'wrong-password1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const error = await screen.findByTestId('login-error');
    expect(error).toHaveTextContent(AUTH_MESSAGES.wrongPassword);
    await act(() => vi.advanceTimersByTimeAsync(5_900));
    expect(screen.getByTestId('login-error')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByTestId('login-error')).not.toBeInTheDocument();
  });

  it('validates the e-mail address before calling the API', async () => {
    const { user } = setup();
    await user.click(screen.getByTestId('login-to-email'));
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText(AUTH_MESSAGES.invalidEmail)).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
  });

  it('sends a password link and shows the notice', async () => {
    const { user, fetchMock } = setup({ 'POST /api/v1/auth/password-reset/': { body: { detail: 'sent' } } });
    await user.click(screen.getByTestId('login-to-email'));
    await user.click(screen.getByRole('button', { name: 'Forgot Password' }));
    const view = screen.getByTestId('login-forgot-view');
    await user.type(within(view).getByLabelText('Email'), 'asha@example.org');
    await user.click(within(view).getByRole('button', { name: 'Submit' }));

    expect(await screen.findByTestId('login-notice')).toHaveTextContent(
      'Password link sent to email asha@example.org. Tip: check spam/junk folders if not found in inbox.',
    );
    expect(bodyOf(fetchMock, 'POST /api/v1/auth/password-reset/')).toEqual({ email: 'asha@example.org' });

    await user.click(screen.getByRole('button', { name: 'Back to Log in' }));
    expect(screen.getByTestId('login-email-view')).toBeInTheDocument();
  });

  it.each<[TUserType, string]>([
    ['ADMIN', '/dashboard'],
    ['ORG_ADMIN', '/dashboard'],
    ['MANAGER', '/organization'],
    ['CERVAICAL_REVIEWER', '/cervaical'],
    ['TECHNICIAN', '/user-delete'],
  ])('sends a %s to %s after an e-mail sign-in', async (role, landing) => {
    const { user, fetchMock } = setup({
      'POST /api/v1/auth/password/': { body: { id_token: 'id-1' } },
      'POST /api/v1/user/login/': { body: { token: 'session-1', id: 7, is_trainer: false } },
      'GET /api/v1/user/': { body: makeUser(role) },
    });
    await user.click(screen.getByTestId('login-to-email'));
    await user.type(screen.getByLabelText('Email'), 'asha@example.org');
    await user.type(screen.getByLabelText('Password'), 'secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText(`landed on ${landing}`)).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('session-1');
    expect(bodyOf(fetchMock, 'POST /api/v1/user/login/')).toEqual({
      id_token: 'id-1',
      mobile_country_code: 'IN',
      source: 'DASHBOARD',
      user_type: 'ADMIN',
      is_login: true,
    });
  });

  it('shows "Error: " and the detail when the session exchange fails', async () => {
    const { user } = setup({
      'POST /api/v1/auth/password/': { body: { id_token: 'id-1' } },
      'POST /api/v1/user/login/': { status: 400, body: { non_field_errors: [AUTH_MESSAGES.idTokenInvalid] } },
    });
    await user.click(screen.getByTestId('login-to-email'));
    await user.type(screen.getByLabelText('Email'), 'asha@example.org');
    await user.type(screen.getByLabelText('Password'), 'secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      `Error: ${AUTH_MESSAGES.idTokenInvalid}`,
    );
  });

  it('asks for the code sent to the mobile when the account needs a second factor', async () => {
    const { user, fetchMock } = setup({
      'POST /api/v1/auth/password/': {
        body: {
          second_factor_required: true,
          mobile: '9876543210',
          mobile_country_code: 'IN',
          resend_after: 60,
        },
      },
      'POST /api/v1/auth/otp/verify/': { body: { id_token: 'id-2' } },
      'POST /api/v1/user/login/': { body: { token: 'session-2', id: 7, is_trainer: false } },
      'GET /api/v1/user/': { body: makeUser('SUB_ADMIN') },
    });
    await user.click(screen.getByTestId('login-to-email'));
    await user.type(screen.getByLabelText('Email'), 'sub@example.org');
    await user.type(screen.getByLabelText('Password'), 'secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByTestId('login-code-sent')).toHaveTextContent('+91 9876543210');
    // The number is the account's: it cannot be changed here.
    expect(screen.queryByRole('button', { name: 'Change number' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use e-mail instead' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('landed on /dashboard')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/v1/auth/otp/verify/')).toEqual({
      mobile: '9876543210',
      mobile_country_code: 'IN',
      code: '654321',
    });
  });

  it('asks a privileged account for its password after the mobile code, and sends the proof of the code with it', async () => {
    const { user, fetchMock } = setup({
      'POST /api/v1/auth/otp/': { body: { detail: 'Code sent.', resend_after: 60 } },
      'POST /api/v1/auth/otp/verify/': {
        body: { password_required: true, email: 'admin@example.org', code_token: 'code-token-1' },
      },
      'POST /api/v1/auth/password/': { body: { id_token: 'id-3' } },
      'POST /api/v1/user/login/': { body: { token: 'session-3', id: 8, is_trainer: false } },
      'GET /api/v1/user/': { body: makeUser('ADMIN') },
    });
    await user.type(screen.getByLabelText('Mobile number'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await user.type(await screen.findByLabelText('Code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByTestId('login-email-view')).toBeInTheDocument();
    expect(screen.getByTestId('login-notice')).toHaveTextContent('Enter your password');
    expect(screen.getByLabelText('Email')).toHaveValue('admin@example.org');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('user/login'))).toBe(false);
    await user.type(screen.getByLabelText('Password'), 'secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('landed on /dashboard')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/v1/auth/password/')).toEqual({
      email: 'admin@example.org',
      password: 'secret-pass1',
      code_token: 'code-token-1',
    });
  });

  it('sends a signed-in user to /scan', async () => {
    localStorage.setItem(TOKEN_KEY, 'session-1');
    setup();
    expect(await screen.findByText('landed on /scan')).toBeInTheDocument();
  });
});

describe('LoginPage: return to the asked page (issue 23.11)', () => {
  function Landed() {
    const location = useLocation();
    return <p>landed on {location.pathname + location.search}</p>;
  }
  const guarded: RouteObject[] = [
    { path: '/login', element: <LoginPage /> },
    { element: <RequireToken />, children: [{ path: '/scan', element: <Landed /> }, { path: '/dashboard', element: <Landed /> }] },
  ];
  const replies = {
    'GET /api/v1/country/': { body: COUNTRIES },
    'POST /api/v1/auth/password/': { body: { id_token: 'id-1' } },
    'POST /api/v1/user/login/': { body: { token: 'session-1', id: 7, is_trainer: false } },
    'GET /api/v1/user/': { body: makeUser('ADMIN') },
  };
  async function signInByEmail() {
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('login-to-email'));
    await user.type(screen.getByLabelText('Email'), 'asha@example.org');
    await user.type(screen.getByLabelText('Password'), 'Demo@2026');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
  }

  it('sends a signed-out deep link to the login page and back to it, query included, after sign-in', async () => {
    mockFetch(replies);
    const { router } = renderRoutes(guarded, '/scan?search=asha&period=30');
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/scan?search=asha&period=30');
    await signInByEmail();
    expect(await screen.findByText('landed on /scan?search=asha&period=30')).toBeInTheDocument();
  });

  it.each(['//evil.com/scan', 'https://evil', '/\\evil.com', 'javascript:alert(1)', '/login?next=/scan'])(
    'refuses to return to %s (no open redirect): the role landing page instead',
    async (next) => {
      mockFetch(replies);
      renderRoutes(guarded, `/login?next=${encodeURIComponent(next)}`);
      await signInByEmail();
      expect(await screen.findByText('landed on /dashboard')).toBeInTheDocument();
    },
  );

  it('says the session expired, on every view, until the user signs in', async () => {
    mockFetch(replies);
    renderRoutes(guarded, '/login?expired=1&next=%2Fscan');
    expect(await screen.findByTestId('login-session-expired')).toHaveTextContent(AUTH_MESSAGES.sessionExpiredSignIn);
    await signInByEmail();
    expect(await screen.findByText('landed on /scan')).toBeInTheDocument();
  });

  it('says nothing about a session on a plain visit', async () => {
    mockFetch(replies);
    renderRoutes(guarded, '/login');
    expect(await screen.findByTestId('login-mobile-view')).toBeInTheDocument();
    expect(screen.queryByTestId('login-session-expired')).not.toBeInTheDocument();
  });
});
