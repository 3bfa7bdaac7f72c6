// Sign-in calls (part 1 §2.2, §7). Each step that proves the identity ends in an id_token that
// `user/login/` exchanges for the console's session token.
import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { landingPathFor } from '@sc/shared/roles';
import { DEFAULT_COUNTRY_CODE } from '@sc/shared/constants';
import type { TLoginResponse, TOtpRequest, TPasswordLogin, TUserLogin } from '@sc/shared/auth';
import type { TDetail, TOtpSent, TOtpVerifyResponse, TPasswordLoginResponse } from '@sc/shared/auth-extra';
import { api } from '../../api/client.ts';
import { currentUserQuery } from '../../api/session.ts';
import { setToken } from '../../api/storage.ts';

export const useRequestOtp = () =>
  useMutation({ mutationFn: (input: TOtpRequest) => api.post<TOtpSent>('auth/otp/', input) });

export const useVerifyOtp = () =>
  useMutation({
    mutationFn: (input: TOtpRequest & { code: string }) =>
      api.post<TOtpVerifyResponse>('auth/otp/verify/', input),
  });

export const usePasswordSignIn = () =>
  useMutation({
    mutationFn: (input: TPasswordLogin) => api.post<TPasswordLoginResponse>('auth/password/', input),
  });

export const useRequestPasswordReset = () =>
  useMutation({ mutationFn: (input: { email: string }) => api.post<TDetail>('auth/password-reset/', input) });

export const useConfirmPasswordReset = () =>
  useMutation({
    mutationFn: (input: { token: string; password: string }) =>
      api.post<TDetail>('auth/password-reset/confirm/', input),
  });

/**
 * Exchanges an id_token for the session, loads the user and goes to `returnTo` (the page a signed-out visitor
 * asked for, already checked by safeReturnPath) or else the role's landing page. A page the role may not open is
 * turned away by the route guards as any other.
 */
export function useCompleteSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (idToken: string, mobileCountryCode: string = DEFAULT_COUNTRY_CODE, returnTo: string | null = null) => {
      const body: TUserLogin = {
        id_token: idToken,
        mobile_country_code: mobileCountryCode,
        source: 'DASHBOARD',
        // The console always signs in with the ADMIN user type (part 1 §6).
        user_type: 'ADMIN',
        is_login: true,
      };
      const login = await api.post<TLoginResponse>('user/login/', body);
      setToken(login.token);
      // Always asked anew at sign-in; the shell then finds it fresh in the cache.
      const user = await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 });
      await navigate(returnTo ?? landingPathFor(user.user_type), { replace: true });
    },
    [queryClient, navigate],
  );
}
