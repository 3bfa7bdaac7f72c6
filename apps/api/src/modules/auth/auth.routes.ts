// Sign-in calls (part 1 §2.2; architecture §5), public. Per-IP limits through @fastify/rate-limit (off when
// RATE_LIMIT_DISABLED); per-account limits live in the service (wrong passwords, codes per number).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZOtpRequest,
  ZOtpVerify,
  ZPasswordLogin,
  ZPasswordResetConfirm,
  ZPasswordResetRequest,
  SIGN_IN_PER_IP_PER_MINUTE,
} from '@sc/shared/auth';
import { ZDetail, ZOtpSent, ZOtpVerifyResponse, ZPasswordLoginResponse } from '@sc/shared/auth-extra';
import type { Config } from '../../config.ts';
import { requestMeta } from '../../http/authenticate.ts';
import {
  confirmPasswordReset,
  requestOtp,
  requestPasswordReset,
  signInWithPassword,
  verifyOtp,
} from './auth.service.ts';


export function signInRateLimit(config: Pick<Config, 'RATE_LIMIT_DISABLED'>): {
  rateLimit?: { max: number; timeWindow: string };
} {
  return config.RATE_LIMIT_DISABLED
    ? {}
    : { rateLimit: { max: SIGN_IN_PER_IP_PER_MINUTE, timeWindow: '1 minute' } };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = signInRateLimit(app.ctx.config);
  const tags = ['auth'];

  app.post(
    '/auth/password/',
    {
      schema: {
        tags,
        summary:
          'Sign-in step 1 by e-mail and password → id_token for user/login/ (or a second-factor code to the mobile)',
        body: ZPasswordLogin,
        response: { 200: ZPasswordLoginResponse },
      },
      config,
    },
    async (request) => signInWithPassword(app.ctx, request.body, requestMeta(request)),
  );

  app.post(
    '/auth/otp/',
    {
      schema: {
        tags,
        summary: 'Sign-in step 1 by mobile, first half: send a 6-digit sign-in code by SMS',
        body: ZOtpRequest,
        response: { 200: ZOtpSent },
      },
      config,
    },
    async (request) => requestOtp(app.ctx, request.body, requestMeta(request)),
  );

  app.post(
    '/auth/otp/verify/',
    {
      schema: {
        tags,
        summary:
          'Sign-in step 1 by mobile, second half: check the code → id_token for user/login/ ' +
          '(or, for a privileged role, the password step)',
        body: ZOtpVerify,
        response: { 200: ZOtpVerifyResponse },
      },
      config,
    },
    async (request) => verifyOtp(app.ctx, request.body, requestMeta(request)),
  );

  app.post(
    '/auth/password-reset/',
    {
      schema: {
        tags,
        summary: 'E-mail a single-use password reset link (1 hour)',
        body: ZPasswordResetRequest,
        response: { 200: ZDetail },
      },
      config,
    },
    async (request) => requestPasswordReset(app.ctx, request.body, requestMeta(request)),
  );

  app.post(
    '/auth/password-reset/confirm/',
    {
      schema: {
        tags,
        summary: 'Set a new password from a reset link; ends every session',
        body: ZPasswordResetConfirm,
        response: { 200: ZDetail },
      },
      config,
    },
    async (request) => confirmPasswordReset(app.ctx, request.body, requestMeta(request)),
  );
};
