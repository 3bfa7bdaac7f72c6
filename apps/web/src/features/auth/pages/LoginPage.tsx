// Login page (part 1 §2.2): mobile → code, or e-mail + password, or forgot password. Also
// served at /register. A signed-in user is sent to /scan (part 1 §2.1).
// `?next=<path>` (a deep link opened signed out, or the page an expired session was on) is where sign-in returns,
// when it is a path of this console (safeReturnPath); `?expired=1` says the session expired (issue 23.11).
// The view is in the URL (`?view=code|email|forgot`, none for mobile), each step a history entry, so the
// browser's Back goes from the code to the number, not out of the app.
import { useEffect, useRef, useState } from 'react';
import { Alert, Stack } from '@mantine/core';
import { IconAlertCircle, IconClockExclamation, IconMailCheck } from '@tabler/icons-react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { AUTH_MESSAGES, type TPasswordLogin } from '@sc/shared/auth';
import type { TOtpVerifyResponse, TPasswordLoginResponse } from '@sc/shared/auth-extra';
import { DEFAULT_COUNTRY_CODE, LOGIN_ERROR_CLEAR_MS, OTP_RESEND_SECONDS } from '@sc/shared/constants';
import { browser } from '../../../api/browser.ts';
import { errorMessage } from '../../../api/client.ts';
import { DEFAULT_COUNTRY, useCountries } from '../../../api/countries.ts';
import { clearStorage, hasToken } from '../../../api/storage.ts';
import { prefetchAfterSignIn } from '../../../app/afterSignIn.ts';
import { EXPIRED_PARAM, NEXT_PARAM, safeReturnPath } from '../../../app/returnPath.ts';
import { useFirstInteraction } from '../../../components/firstInteraction.ts';
import { useTimedMessage } from '../../../components/useTimedMessage.ts';
import {
  useCompleteSignIn,
  usePasswordSignIn,
  useRequestOtp,
  useRequestPasswordReset,
  useVerifyOtp,
} from '../auth.api.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { EmailLoginView } from '../components/EmailLoginView.tsx';
import { ForgotPasswordView } from '../components/ForgotPasswordView.tsx';
import { MobileLoginView, type PhoneValue } from '../components/MobileLoginView.tsx';
import { OtpView } from '../components/OtpView.tsx';

const ZView = z.enum(['mobile', 'code', 'email', 'forgot']).catch('mobile');
type View = z.infer<typeof ZView>;
/** History state of a login entry: the view of the entry below it. */
type LoginHistoryState = { back?: View } | null;

const HEADINGS: Record<View, { title: string; subtitle: string }> = {
  mobile: { title: 'Log in', subtitle: 'Enter your mobile number to receive a one-time code.' },
  code: { title: 'Verify your number', subtitle: 'Enter the 6-digit code from the SMS.' },
  email: { title: 'Log in', subtitle: 'Use the e-mail address and password of your account.' },
  forgot: { title: 'Forgot Password', subtitle: 'We will e-mail you a link to set a new password.' },
};

const PASSWORD_DUE = 'Code verified. Enter your password to finish logging in.';

export function LoginPage() {
  const [searchParams] = useSearchParams();
  // Read once, on arrival: during a sign-in the token is stored before the user is loaded, and a redirect from here
  // would race useCompleteSignIn's own (to `next` or the role's landing page).
  const [arrivedSignedIn] = useState(hasToken);
  if (arrivedSignedIn) return <Navigate to={safeReturnPath(searchParams.get(NEXT_PARAM)) ?? '/scan'} replace />;
  return <LoginScreen />;
}

function LoginScreen() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [phone, setPhone] = useState<PhoneValue>({ mobile: '', mobile_country_code: DEFAULT_COUNTRY_CODE });
  /** How the code view was reached: a sign-in code, or the second factor of an e-mail sign-in. */
  const [codeFor, setCodeFor] = useState<'sign-in' | 'second-factor' | null>(null);
  /** Proof of a verified code when a privileged account still owes its password (the code came first). */
  const [codeToken, setCodeToken] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [resendAfter, setResendAfter] = useState(OTP_RESEND_SECONDS);
  const [notice, setNotice] = useState<{ view: View; text: string } | null>(null);
  const [completing, setCompleting] = useState(false);
  const error = useTimedMessage(LOGIN_ERROR_CLEAR_MS);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { data: countries } = useCountries();

  const requestOtp = useRequestOtp();
  const verifyOtp = useVerifyOtp();
  const passwordSignIn = usePasswordSignIn();
  const passwordReset = useRequestPasswordReset();
  const completeSignIn = useCompleteSignIn();

  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  // The landing screen's code loads while the user types, not after 'Log in' (issue 24).
  useFirstInteraction(prefetchAfterSignIn);

  // The code view needs the number a code went to: after a reload or from a shared link it starts over.
  const requested = ZView.parse(searchParams.get('view') ?? 'mobile');
  const view: View = requested === 'code' && codeFor === null ? 'mobile' : requested;

  const returnTo = safeReturnPath(searchParams.get(NEXT_PARAM));
  const expired = searchParams.get(EXPIRED_PARAM) === '1';

  /** The URL of a view, keeping where to return and why the user is here. */
  const searchFor = (next: View) => {
    const params = new URLSearchParams();
    if (next !== 'mobile') params.set('view', next);
    if (expired) params.set(EXPIRED_PARAM, '1');
    if (returnTo) params.set(NEXT_PARAM, returnTo);
    const qs = params.toString();
    return qs ? `?${qs}` : '';
  };

  /** Opens a view as a new history entry (Back returns to this one). */
  const go = (next: View) => {
    error.clear();
    setNotice(null);
    void navigate({ search: searchFor(next) }, { state: { back: view } satisfies LoginHistoryState });
  };

  /** Returns to an earlier view: the history entry below when it is that view, else in place of this one. */
  const goBack = (to: View) => {
    error.clear();
    setNotice(null);
    if ((location.state as LoginHistoryState)?.back === to) void navigate(-1);
    else
      void navigate({ search: searchFor(to) }, { replace: true, state: location.state as LoginHistoryState });
  };

  // The identity is proven; a failure now is the backend's (part 1 §8): show it, then start over.
  const finishSignIn = async (idToken: string, countryCode?: string) => {
    setCompleting(true);
    try {
      await completeSignIn(idToken, countryCode, returnTo);
    } catch (e) {
      setCompleting(false);
      error.show(`Error: ${errorMessage(e)}`);
      reloadTimer.current = setTimeout(() => {
        clearStorage();
        browser.reload();
      }, LOGIN_ERROR_CLEAR_MS);
    }
  };

  const submitPhone = async (value: PhoneValue) => {
    setPhone(value);
    error.clear();
    try {
      const sent = await requestOtp.mutateAsync(value);
      setResendAfter(sent.resend_after || OTP_RESEND_SECONDS);
      setCodeFor('sign-in');
      go('code');
    } catch (e) {
      error.show(errorMessage(e));
    }
  };

  const submitCode = async (code: string) => {
    error.clear();
    let answer: TOtpVerifyResponse;
    try {
      answer = await verifyOtp.mutateAsync({ ...phone, code });
    } catch (e) {
      error.show(errorMessage(e));
      return;
    }
    if ('id_token' in answer) {
      await finishSignIn(answer.id_token, phone.mobile_country_code);
      return;
    }
    // Privileged accounts may need a second factor: after the code, their password (architecture §5).
    setEmail(answer.email ?? '');
    setCodeToken(answer.code_token);
    go('email');
    setNotice({ view: 'email', text: PASSWORD_DUE });
  };

  const submitEmail = async (value: TPasswordLogin) => {
    setEmail(value.email);
    error.clear();
    let answer: TPasswordLoginResponse;
    try {
      answer = await passwordSignIn.mutateAsync(codeToken ? { ...value, code_token: codeToken } : value);
    } catch (e) {
      error.show(errorMessage(e));
      return;
    }
    if ('id_token' in answer) {
      await finishSignIn(answer.id_token);
      return;
    }
    // Privileged accounts may need a second factor: a code went to their mobile (architecture §5).
    setCodeToken(null);
    setPhone({ mobile: answer.mobile, mobile_country_code: answer.mobile_country_code });
    setResendAfter(answer.resend_after);
    setCodeFor('second-factor');
    go('code');
  };

  const submitForgot = async (value: string) => {
    setEmail(value);
    error.clear();
    setNotice(null);
    try {
      await passwordReset.mutateAsync({ email: value });
      setNotice({ view: 'forgot', text: AUTH_MESSAGES.resetLinkSent(value) });
    } catch (e) {
      error.show(errorMessage(e));
    }
  };

  const country =
    countries?.find((c) => c.code.toUpperCase() === phone.mobile_country_code) ?? DEFAULT_COUNTRY;
  const phoneLabel = `${country.dial_code.startsWith('+') ? '' : '+'}${country.dial_code} ${phone.mobile}`;

  return (
    <AuthLayout title={HEADINGS[view].title} subtitle={HEADINGS[view].subtitle}>
      <Stack gap="md">
        {expired && !error.message && (
          <Alert
            color="orange"
            variant="light"
            icon={<IconClockExclamation size={18} />}
            role="status"
            data-testid="login-session-expired"
          >
            {AUTH_MESSAGES.sessionExpiredSignIn}
          </Alert>
        )}
        {error.message && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            data-testid="login-error"
          >
            {error.message}
          </Alert>
        )}
        {notice?.view === view && (
          <Alert
            color="teal"
            variant="light"
            icon={<IconMailCheck size={18} />}
            role="status"
            data-testid="login-notice"
          >
            {notice.text}
          </Alert>
        )}
        {view === 'mobile' && (
          <MobileLoginView
            initial={phone}
            loading={requestOtp.isPending}
            onSubmit={(v) => void submitPhone(v)}
            onUseEmail={() => go('email')}
          />
        )}
        {view === 'code' && (
          <OtpView
            phoneLabel={phoneLabel}
            resendAfter={resendAfter}
            loading={verifyOtp.isPending || completing}
            onSubmit={(c) => void submitCode(c)}
            onResend={() => goBack('mobile')}
            onChangeNumber={codeFor === 'sign-in' ? () => goBack('mobile') : undefined}
            onUseEmail={() => goBack('email')}
          />
        )}
        {view === 'email' && (
          <EmailLoginView
            initialEmail={email}
            loading={passwordSignIn.isPending || completing}
            onSubmit={(v) => void submitEmail(v)}
            onForgotPassword={(e) => {
              setEmail(e);
              go('forgot');
            }}
            onUseMobile={() => goBack('mobile')}
          />
        )}
        {view === 'forgot' && (
          <ForgotPasswordView
            initialEmail={email}
            loading={passwordReset.isPending}
            onSubmit={(v) => void submitForgot(v)}
            onBack={() => goBack('email')}
          />
        )}
      </Stack>
    </AuthLayout>
  );
}
