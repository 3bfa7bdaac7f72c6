// Webhook URLs must not reach the server's own network (SSRF): an organization admin types the URL, the server
// POSTs to it. Only public unicast addresses pass; loopback, private, link-local, CGNAT, unspecified, multicast,
// reserved and IPv6 forms embedding an IPv4 address are refused unless WEBHOOK_ALLOW_PRIVATE is set (architecture §7).
// Checked when the URL is saved, again before each delivery, and on the connection itself (`guardedLookup`), so
// a DNS answer that changes between the check and the connection (DNS rebinding) is refused too.
// Ports: only 80 and 443 (and those listed in WEBHOOK_ALLOWED_PORTS), so a URL cannot aim the server at another
// service of a public host (SMTP, a database, an admin port). WEBHOOK_ALLOW_PRIVATE, a development and test
// setting, also allows any port: the end-to-end tests deliver to a loopback receiver on a random port.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_DEFAULT_PORTS, WEBHOOK_MESSAGES } from '@sc/shared/webhooks';
import { AppError } from '../../http/errors.ts';

export const WEBHOOK_URL_MESSAGES = {
  private: 'This URL points to a private or local address.',
  invalid: 'Enter a valid URL.',
  scheme: 'Only http and https URLs are allowed.',
  unresolved: 'The host of this URL could not be found.',
  port: WEBHOOK_MESSAGES.port,
} as const;

/** What a webhook URL may reach, from the configuration (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOWED_PORTS). */
export type WebhookUrlPolicy = { allowPrivate: boolean; allowedPorts?: readonly number[] };

export function webhookUrlPolicy(config: {
  WEBHOOK_ALLOW_PRIVATE: boolean;
  WEBHOOK_ALLOWED_PORTS: readonly number[];
}): WebhookUrlPolicy {
  return { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, allowedPorts: config.WEBHOOK_ALLOWED_PORTS };
}

/** The port a URL connects to (its scheme's default when it names none). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** True when the URL's port is 80, 443 or configured; any port when private addresses are allowed. */
export function isAllowedPort(url: URL, policy: WebhookUrlPolicy): boolean {
  if (policy.allowPrivate) return true;
  const port = portOf(url);
  return WEBHOOK_DEFAULT_PORTS.includes(port) || (policy.allowedPorts ?? []).includes(port);
}

/** Thrown when the URL is refused for what it is (never worth a retry). */
export class WebhookUrlError extends AppError {
  constructor(message: string) {
    super('bad_request', message, { webhook_url: [message] });
  }
}

/** True for a public unicast address; false for every special-purpose range (and for garbage). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 address it carries.
  const ip = ipaddr.process(address);
  return ip.range() === 'unicast';
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets: http://[::1]/ has hostname '[::1]'.
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Parses the URL and checks its scheme; throws WebhookUrlError. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError(WEBHOOK_URL_MESSAGES.invalid);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebhookUrlError(WEBHOOK_URL_MESSAGES.scheme);
  if (!hostOf(url)) throw new WebhookUrlError(WEBHOOK_URL_MESSAGES.invalid);
  return url;
}

async function resolveAll(host: string): Promise<string[]> {
  if (net.isIP(host)) return [host];
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

/**
 * Refuses a URL that is not http(s), whose port is not allowed, or whose host resolves to any non-public address
 * (every address the name has, not just the first: an attacker controls the order). Throws
 * AppError('bad_request', …, {webhook_url: [message]}) — a WebhookUrlError — so a form shows it under the field.
 */
export async function assertPublicUrl(url: string, opts: WebhookUrlPolicy): Promise<void> {
  const parsed = parseWebhookUrl(url);
  if (opts.allowPrivate) return;
  let addresses: string[];
  try {
    addresses = await resolveAll(hostOf(parsed));
  } catch {
    throw new WebhookUrlError(WEBHOOK_URL_MESSAGES.unresolved);
  }
  if (!addresses.length) throw new WebhookUrlError(WEBHOOK_URL_MESSAGES.unresolved);
  if (!addresses.every(isPublicAddress)) throw new WebhookUrlError(WEBHOOK_URL_MESSAGES.private);
  // After the address: a private address is the message that matters most.
  if (!isAllowedPort(parsed, opts)) throw new WebhookUrlError(WEBHOOK_URL_MESSAGES.port);
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that refuses non-public answers: the connection goes to an address that was
 * checked, whatever the name resolves to by then. (IP literals skip lookup; assertPublicUrl covers those.)
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, []);
      return;
    }
    if (!addresses.length || !addresses.every((a) => isPublicAddress(a.address))) {
      const refused: NodeJS.ErrnoException = new Error(WEBHOOK_URL_MESSAGES.private);
      refused.code = 'EWEBHOOKPRIVATE';
      callback(refused, []);
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
  });
}
