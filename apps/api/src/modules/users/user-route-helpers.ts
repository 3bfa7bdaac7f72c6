// Pieces every users route shares: the id parameter and the guard that answers 401/403 before validation.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { TUserType } from '@sc/shared/roles';
import { requireRole } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { parsePathId } from '../../http/params.ts';

export const ZUserIdParams = z.object({ id: z.string() });

/** 401, then 403 by role, before the query or body is looked at. */
export const userGuard = (roles: readonly TUserType[]) => async (request: FastifyRequest) => {
  requireRole(request, roles);
};

/** A path id that is not a positive 32-bit integer names nothing: 404, as a missing user. */
export function parseUserId(raw: string): number {
  const id = parsePathId(raw);
  if (id === undefined) throw notFound();
  return id;
}
