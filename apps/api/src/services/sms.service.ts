// SMS through the outbox: an HTTP POST {to, body} to SMS_PROVIDER_URL (Bearer SMS_PROVIDER_TOKEN) when set,
// else the message stays 'stored'. `to` is the stored form '+91-9876500001'; the provider gets E.164 '+919876500001'.
import type { Config } from '../config.ts';
import type { OutboxRow, OutboxService, OutgoingMessage } from './outbox.service.ts';

export type SmsService = {
  send: (message: OutgoingMessage) => Promise<OutboxRow>;
  /** Sends an undelivered row again (outbox-retry); null without a provider, or when another worker claimed it. */
  redeliver: (row: OutboxRow) => Promise<OutboxRow | null>;
};

const TIMEOUT_MS = 10_000;

export function createSmsService(
  config: Pick<Config, 'SMS_PROVIDER_URL' | 'SMS_PROVIDER_TOKEN'>,
  outbox: OutboxService,
): SmsService {
  const url = config.SMS_PROVIDER_URL;
  const transport = url
    ? async (row: OutboxRow) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (config.SMS_PROVIDER_TOKEN) headers.authorization = `Bearer ${config.SMS_PROVIDER_TOKEN}`;
        const res = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ to: row.to.replace('-', ''), body: row.body }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (!res.ok) throw new Error(`SMS provider answered HTTP ${res.status}`);
      }
    : null;
  return {
    send: (message) => outbox.send('sms', message, transport),
    redeliver: async (row) => (transport ? outbox.redeliver(row, transport) : null),
  };
}
