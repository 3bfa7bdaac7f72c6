// E-mail through the outbox: SMTP (nodemailer) when SMTP_URL is set, else the message stays 'stored'.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { OutboxRow, OutboxService, OutgoingMessage } from './outbox.service.ts';

export type MailMessage = OutgoingMessage & { subject: string };
export type MailService = { send: (message: MailMessage) => Promise<OutboxRow>; close: () => void };

export function createMailService(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  outbox: OutboxService,
): MailService {
  let transporter: Transporter | null = null;
  const smtpUrl = config.SMTP_URL;
  const transport = smtpUrl
    ? async (row: OutboxRow) => {
        transporter ??= nodemailer.createTransport(smtpUrl);
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
    close: () => {
      transporter?.close();
      transporter = null;
    },
  };
}
