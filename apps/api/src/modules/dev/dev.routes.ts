// Demo mode only (app.ts registers it when config.outboxReadable: never in production, only while the demo data is
// in use): reads the outbox so a fresh machine can sign in without SMTP or an SMS provider.
// GET dev/outbox/?to=<e-mail or mobile>. It holds every sign-in code, so it answers only a caller on this machine
// (loopback) that named this machine (or PUBLIC_URL's host) as the host, or an ADMIN session; anyone else gets the
// 404 of a route that does not exist.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { ZOutboxMessage } from '@sc/shared/auth';
import { ZOutboxQuery, storedMobileCandidates } from '@sc/shared/auth-extra';
import { DEFAULT_COUNTRY_CODE } from '@sc/shared/constants';
import { can } from '@sc/shared/permissions';
import { notFound } from '../../http/errors.ts';

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms (::ffff:127.0.0.1); a port ('[::1]:80', '127.0.0.1:80') is ignored. */
export function isLoopbackAddress(address: string): boolean {
  const text = address.trim();
  const bare = (/^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1] ?? /^([\d.]+):\d+$/.exec(text)?.[1] ?? text).replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'loopback';
}

// Headers a proxy on this machine adds: their presence means the caller is behind it, not on this machine.
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded'] as const;

/**
 * True when the request comes from this machine: its address (request.ip, which honours TRUST_PROXY) is loopback,
 * and it did not come through a proxy on this machine on behalf of someone else (a forwarding header naming any
 * other address).
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.ip) || !isLoopbackAddress(request.socket.remoteAddress ?? '')) return false;
  for (const name of FORWARDING_HEADERS) {
    const header = request.headers[name];
    if (header === undefined) continue;
    const text = Array.isArray(header) ? header.join(',') : header;
    const addresses =
      name === 'forwarded'
        ? [...text.matchAll(/for="?([^";,]+)"?/gi)].map((m) => m[1] ?? '')
        : text.split(',').map((a) => a.trim());
    if (addresses.some((a) => !isLoopbackAddress(a))) return false;
  }
  return true;
}

/** 'localhost:8080' → 'localhost', '[::1]:8080' → '::1', lower-cased; a host name as the browser sent it. */
function hostName(host: string): string {
  const text = host.trim().toLowerCase();
  return /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1] ?? text.replace(/:\d+$/, '');
}

/**
 * True when every host the request names (Host, and X-Forwarded-Host of a proxy on this machine) is this machine's
 * (localhost or a loopback address) or PUBLIC_URL's. A browser on a page of a DNS-rebinding domain reaches
 * 127.0.0.1 from loopback but still sends that domain as the Host: this is what refuses it.
 */
export function namesAllowedHost(request: FastifyRequest, publicHost: string | null): boolean {
  const names = [request.headers.host, request.headers['x-forwarded-host']]
    .flatMap((h) => (h === undefined ? [] : Array.isArray(h) ? h : h.split(',')))
    .map(hostName);
  if (names.length === 0) return false;
  return names.every((name) => name === 'localhost' || name === publicHost || isLoopbackAddress(name));
}

/** Who may read the outbox: a caller on this machine that named an allowed host, or an ADMIN session from anywhere. */
export function canReadOutbox(request: FastifyRequest, publicHost: string | null): boolean {
  if (request.actor && can(request.actor.userType, 'dev.readOutbox')) return true;
  return isLocalRequest(request) && namesAllowedHost(request, publicHost);
}

/** The stored forms `to` may match: an e-mail as is (lower-cased), a mobile as stored or as national digits. */
export function outboxRecipients(to: string, country: string = DEFAULT_COUNTRY_CODE): string[] {
  const value = to.trim();
  if (value.includes('@')) return [...new Set([value, value.toLowerCase()])];
  // '+' in a query string decodes to a space: '?to=+91-98765…' arrives as ' 91-98765…' (trimmed above).
  const stored = /^\+?\d{1,4}-\d{4,15}$/.test(value) ? (value.startsWith('+') ? value : `+${value}`) : null;
  return stored ? [stored] : storedMobileCandidates(value, country);
}

export const devRoutes: FastifyPluginAsyncZod = async (app) => {
  const { publicUrl } = app.ctx.config;
  const publicHost = URL.canParse(publicUrl) ? hostName(new URL(publicUrl).host) : null;
  app.addHook('onRequest', async (request) => {
    if (!canReadOutbox(request, publicHost)) throw notFound();
  });
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
