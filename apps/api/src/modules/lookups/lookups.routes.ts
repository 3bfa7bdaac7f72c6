// Public reference lists (architecture §7b "paths the spec leaves out"): the login page needs the country dial codes
// before anyone is signed in, so neither call asks for a token.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCountry, ZCountryQuery } from '@sc/shared/list';
import { ZMapTiles } from '@sc/shared/map-tiles';
import { listCountries, listTimezones } from './lookups.service.ts';

export const lookupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/country/',
    {
      schema: {
        tags: ['lookups'],
        summary: 'Countries with dial code and currency code (public)',
        querystring: ZCountryQuery,
        response: { 200: z.array(ZCountry) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'public, max-age=3600');
      return listCountries(request.query.search);
    },
  );

  app.get(
    '/timezone/',
    {
      schema: {
        tags: ['lookups'],
        summary: 'IANA time zone names (public)',
        response: { 200: z.array(z.string()) },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=3600');
      return listTimezones();
    },
  );

  app.get(
    '/map/tiles/',
    {
      schema: {
        tags: ['lookups'],
        summary: 'The map tile layer the console draws: the server’s TILE_URL and TILE_ATTRIBUTION (public)',
        response: { 200: ZMapTiles },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=3600');
      return { url: app.ctx.config.TILE_URL, attribution: app.ctx.config.TILE_ATTRIBUTION };
    },
  );
};
