import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_RULE_MESSAGE } from '@sc/shared/auth';
import { bodyOf, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { ResetPasswordPage } from './ResetPasswordPage.tsx';

const TOKEN = 'reset-token-0123456789';
const routes = [{ path: '/reset-password', element: <ResetPasswordPage /> }];

describe('ResetPasswordPage', () => {
  it('says the link is invalid without a token', () => {
    renderRoutes(routes, '/reset-password');
    expect(screen.getByTestId('reset-invalid')).toHaveTextContent(AUTH_MESSAGES.resetLinkInvalid);
  });

  it('checks the password rule and the confirmation', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, `/reset-password?token=${TOKEN}`);
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'other');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(screen.getByText(PASSWORD_RULE_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
  });

  it('sets the password and links to the login page', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'POST /api/v1/auth/password-reset/confirm/': { body: { detail: AUTH_MESSAGES.passwordUpdated } },
    });
    renderRoutes(routes, `/reset-password?token=${TOKEN}`);
    await user.type(screen.getByLabelText('New password'), 'new-secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByTestId('reset-success')).toHaveTextContent(AUTH_MESSAGES.passwordUpdated);
    expect(screen.getByTestId('reset-login')).toHaveAttribute('href', '/login');
    expect(bodyOf(fetchMock, 'POST /api/v1/auth/password-reset/confirm/')).toEqual({
      token: TOKEN,
      password: 'new-secret-1',
    });
  });

  it("shows the server's message for a used link", async () => {
    const user = userEvent.setup();
    mockFetch({
      'POST /api/v1/auth/password-reset/confirm/': {
        status: 400,
        body: { token: [AUTH_MESSAGES.resetLinkInvalid] },
      },
    });
    renderRoutes(routes, `/reset-password?token=${TOKEN}`);
    await user.type(screen.getByLabelText('New password'), 'new-secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByTestId('reset-error')).toHaveTextContent(AUTH_MESSAGES.resetLinkInvalid);
  });
});
