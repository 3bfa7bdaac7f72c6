// The signed-in caller as every service sees it. Set by the authentication hook (http/authenticate.ts).
import type { TUserType } from '@sc/shared/roles';

export type Actor = {
  id: number;
  userType: TUserType;
  organizationId: number | null;
  email: string | null;
  sessionId: number;
  /** Set when the request carries an impersonation token: the ADMIN who is impersonating. */
  impersonatorId: number | null;
};

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export type RequestMeta = { ip: string; userAgent: string | null; timezone: string };
