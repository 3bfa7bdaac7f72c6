// GET scan/{id}/replay/: the scan's sensor frames for the console's replay page. The rules are in replay.service.ts,
// the format in packages/shared/src/replay.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REPLAY_ROLES, ZReplay } from '@sc/shared/replay';
import { requireRole } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { parsePathId } from '../../http/params.ts';
import { getScanReplay } from './replay.service.ts';

export const replayRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/scan/:id/replay/',
    {
      // 401, then 403 by role, before the id is looked at.
      preValidation: async (request) => {
        requireRole(request, REPLAY_ROLES);
      },
      schema: {
        tags: ['scans'],
        security: [{ token: [] }],
        summary: "The scan's recorded sensor frames (format sc-replay/1) for the replay page",
        description:
          'Per breast side, frame_count frames of a rows × cols grid of pressure readings (bytes 0–255, row-major, ' +
          'base64), read as value_min + byte × (value_max − value_min) / 255 in `unit`; 0 = not reached yet. ' +
          'ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN, MANAGER and ORG_ADMIN, for a scan in their scope (404 otherwise); ' +
          '404 "No replay is available for this scan." when is_replay_available is false.',
        params: z.object({ id: z.string() }),
        querystring: z.object({}),
        response: { 200: ZReplay },
      },
    },
    async (request) => {
      const actor = requireRole(request, REPLAY_ROLES);
      const id = parsePathId(request.params.id);
      if (id === undefined) throw notFound();
      return getScanReplay(app.ctx, actor, id);
    },
  );
};
