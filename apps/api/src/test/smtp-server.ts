// A real SMTP server for tests and the stack test: `smtp-server` on 127.0.0.1 with AUTH (one user and password;
// anything else is refused with 535), every accepted message parsed back with mailparser's simpleParser.
//
//   const smtp = await startSmtpServer();             // { url, messages, waitFor, stop, … }
//   loadConfig({ SMTP_URL: smtp.url, … });             // smtp://user:password@127.0.0.1:<port>
//   const mail = await smtp.waitFor((m) => m.to.includes('a@b.example'));   // rejects after 5 s
//   mail.subject; mail.text; mail.from; mail.envelope.to
//   await smtp.stop();
//
// TLS: on loopback the default is plain SMTP (STARTTLS not offered, AUTH allowed without it), which our transport
// sends as is. `{ starttls: true }` offers STARTTLS with smtp-server's built-in self-signed certificate and refuses
// AUTH before it; its `url` then carries `requireTLS=true&tls.rejectUnauthorized=false`, the SMTP_URL query options
// nodemailer reads (a production URL keeps certificate checks on). No Vitest import: scripts use it too.
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  /** SMTP envelope: MAIL FROM and RCPT TO addresses. */
  envelope: { from: string; to: string[] };
  /** Header From address (lower case), e.g. 'no-reply@screening.local'. */
  from: string;
  /** Header To addresses (lower case). */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Everything mailparser read (headers, attachments). */
  parsed: ParsedMail;
};

export type TestSmtpServer = {
  /** An SMTP_URL for config.ts, credentials included. */
  url: string;
  host: string;
  port: number;
  user: string;
  password: string;
  /** Every accepted message, in arrival order. */
  messages: ReceivedMail[];
  /** AUTH attempts refused (wrong user or password). */
  authFailures: number;
  /** The first message (already received or still to come) that matches; rejects after `timeoutMs`. */
  waitFor: (predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
};

export type SmtpServerOptions = {
  user?: string;
  password?: string;
  /** Offer STARTTLS (self-signed) and require it before AUTH. Default false. */
  starttls?: boolean;
  /** Port to listen on (default 0: any free port). */
  port?: number;
};

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const user = options.user ?? 'sc-mailer';
  const password = options.password ?? 'sc-mail-password-0123';
  const starttls = options.starttls ?? false;
  const messages: ReceivedMail[] = [];
  const waiters = new Set<(mail: ReceivedMail) => void>();
  const state = { authFailures: 0 };

  const server = new SMTPServer({
    secure: false,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    allowInsecureAuth: !starttls,
    disabledCommands: starttls ? [] : ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) {
        callback(null, { user: auth.username });
        return;
      }
      state.authFailures++;
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            from: addressesOf(parsed.from)[0] ?? '',
            to: addressesOf(parsed.to),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            parsed,
          };
          messages.push(mail);
          for (const waiter of waiters) waiter(mail);
          callback();
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  const query = starttls ? '?requireTLS=true&tls.rejectUnauthorized=false' : '';
  const url = `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}${query}`;

  return {
    url,
    host: '127.0.0.1',
    port,
    user,
    password,
    messages,
    get authFailures() {
      return state.authFailures;
    },
    waitFor: (predicate, timeoutMs = 5000) => {
      const already = messages.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter = (mail: ReceivedMail) => {
          if (!predicate(mail)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(`No matching e-mail arrived within ${timeoutMs} ms (${messages.length} received).`),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase())).filter(Boolean);
}
