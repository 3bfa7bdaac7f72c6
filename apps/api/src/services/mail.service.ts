// E-mail through the outbox: SMTP (nodemailer) when SMTP_URL is set, else the message stays 'stored'.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { OutboxRow, OutboxService, OutgoingMessage } from './outbox.service.ts';

export type MailMessage = OutgoingMessage & { subject: string };

/**
 * A message leaves inside the request that asked for it (a reset link), so a mail server that takes no connection or
 * never greets must not hold that request for nodemailer's defaults (2 minutes to connect, 10 of silence). The same
 * names in SMTP_URL's query (`?greetingTimeout=20000`) win over these.
 */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const;
export type MailService = {
  send: (message: MailMessage) => Promise<OutboxRow>;
  /** Another try at a stored e-mail (jobs/outbox-retry.job.ts); null without SMTP_URL or when another worker took it. */
  redeliver: (row: OutboxRow) => Promise<OutboxRow | null>;
  close: () => void;
};

export function createMailService(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  outbox: OutboxService,
): MailService {
  let transporter: Transporter | null = null;
  const smtpUrl = config.SMTP_URL;
  const transport = smtpUrl
    ? async (row: OutboxRow) => {
        transporter ??= nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
        await transporter.sendMail({
          from: config.MAIL_FROM,
          to: row.to,
          subject: row.subject ?? '',
          text: row.body,
        });
      }
    : null;
  return {
    send: (message) => outbox.send('email', message, transport),
    redeliver: async (row) => (transport ? outbox.redeliver(row, transport) : null),
    close: () => {
      transporter?.close();
      transporter = null;
    },
  };
}
