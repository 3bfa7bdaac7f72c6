// GET geocode/?q= (part 1 §2.5 place search): signed-in callers only, limited per IP because every call reaches an
// outside service. An upstream failure answers 503 {detail}, never 500, so the form can fall back to manual entry.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GEOCODE_MESSAGES, ZGeocodeQuery, ZGeocodeResult } from '@sc/shared/geocode';
import { requireActor } from '../../http/authenticate.ts';
import { AppError } from '../../http/errors.ts';
import { createNominatimGeocoder, GeocoderUnavailableError } from '../../services/geocoder.ts';

/** Place searches allowed per IP per minute (the form debounces at 100 ms; a typist makes a few a second). */
export const GEOCODE_PER_IP_PER_MINUTE = 120;

const ZDetail = z.object({ detail: z.string() });

export const geocodeRoutes: FastifyPluginAsyncZod = async (app) => {
  const geocoder = createNominatimGeocoder(app.ctx.config);
  const rateLimit = app.ctx.config.RATE_LIMIT_DISABLED
    ? {}
    : { rateLimit: { max: GEOCODE_PER_IP_PER_MINUTE, timeWindow: '1 minute' } };

  app.get(
    '/geocode/',
    {
      // 401 before the query is validated.
      preValidation: async (request: FastifyRequest) => {
        requireActor(request);
      },
      config: rateLimit,
      schema: {
        tags: ['lookups'],
        summary: 'Search places by name or address (fills the organization form)',
        security: [{ token: [] }],
        querystring: ZGeocodeQuery,
        response: { 200: ZGeocodeResult, 401: ZDetail, 503: ZDetail },
      },
    },
    async (request) => {
      requireActor(request);
      try {
        return { results: await geocoder.search(request.query.q) };
      } catch (error) {
        if (error instanceof GeocoderUnavailableError) {
          request.log.warn({ err: error.cause }, 'geocoder unavailable');
          throw new AppError('unavailable', GEOCODE_MESSAGES.unavailable);
        }
        throw error;
      }
    },
  );
};
