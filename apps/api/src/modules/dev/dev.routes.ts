// Embedded mode only (app.ts registers it when config.outboxReadable, never in production): reads the outbox
// so a fresh machine can sign in without SMTP or an SMS provider. GET dev/outbox/?to=<e-mail or mobile>.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZOutboxMessage } from '@sc/shared/auth';
import { ZOutboxQuery, storedMobileCandidates } from '@sc/shared/auth-extra';
import { DEFAULT_COUNTRY_CODE } from '@sc/shared/constants';

/** The stored forms `to` may match: an e-mail as is (lower-cased), a mobile as stored or as national digits. */
export function outboxRecipients(to: string, country: string = DEFAULT_COUNTRY_CODE): string[] {
  const value = to.trim();
  if (value.includes('@')) return [...new Set([value, value.toLowerCase()])];
  // '+' in a query string decodes to a space: '?to=+91-98765…' arrives as ' 91-98765…' (trimmed above).
  const stored = /^\+?\d{1,4}-\d{4,15}$/.test(value) ? (value.startsWith('+') ? value : `+${value}`) : null;
  return stored ? [stored] : storedMobileCandidates(value, country);
}

export const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dev/outbox/',
    {
      schema: {
        tags: ['dev'],
        summary: 'Messages in the outbox, newest first (embedded mode only)',
        querystring: ZOutboxQuery,
        response: { 200: z.array(ZOutboxMessage) },
      },
    },
    async (request) => {
      const { to, country, limit } = request.query;
      const rows = await app.ctx.services.outbox.list(to ? outboxRecipients(to, country) : null, limit);
      return rows.map((r) => ({
        id: r.id,
        channel: r.channel,
        to: r.to,
        subject: r.subject,
        body: r.body,
        code: r.code,
        link: r.link,
        created: r.created.toISOString(),
      }));
    },
  );
};
