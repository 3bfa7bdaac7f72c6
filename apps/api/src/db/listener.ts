// A LISTEN on its own connection that says when it can be trusted: `onLive` once listening, `onLost` as soon as
// notifications may have been missed (the connection closed or failed, or a ping it sent itself did not come back
// within PING_INTERVAL_MS: a half-open connection loses notifications without an error). It reconnects until closed.
// PGlite (one process, notifications in-process) is live from the start and never lost.
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type ListenHandlers = {
  /** A notification other than our pings (payload as sent). */
  onNotify: (payload: string) => void;
  onLive: () => void;
  onLost: () => void;
};

export type Listener = { close: () => Promise<void> };

export const PING_INTERVAL_MS = 5_000;
/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'screening-console-listener';
const RECONNECT_DELAY_MS = 1_000;

/** LISTEN `channel` (a plain identifier) on a connection of its own to `url`. */
export function listenPostgres(
  url: string,
  channel: string,
  handlers: ListenHandlers,
  options: { sessionOptions?: string } = {},
): Listener {
  const ping = `ping:${randomUUID()}`;
  let client: pg.Client | null = null;
  let closed = false;
  let live = false;
  let pingAnswered = true;
  let timer: NodeJS.Timeout | null = null;

  const lost = () => {
    if (live) {
      live = false;
      handlers.onLost();
    }
    if (timer) clearInterval(timer);
    timer = null;
    const dead = client;
    client = null;
    dead?.removeAllListeners('notification');
    dead?.end().catch(() => {});
    if (!closed) setTimeout(connect, RECONNECT_DELAY_MS).unref();
  };

  const connect = () => {
    if (closed || client) return;
    const c = new pg.Client({
      connectionString: url,
      options: options.sessionOptions,
      keepAlive: true,
      application_name: LISTENER_APPLICATION_NAME,
    });
    client = c;
    c.on('error', () => c === client && lost());
    c.on('end', () => c === client && lost());
    c.on('notification', (message) => {
      if (message.channel !== channel) return;
      if (message.payload === ping) pingAnswered = true;
      else if (!message.payload?.startsWith('ping:')) handlers.onNotify(message.payload ?? '');
    });
    c.connect()
      .then(() => c.query(`LISTEN ${channel}`))
      .then(() => {
        if (c !== client || closed) return;
        live = true;
        pingAnswered = true;
        handlers.onLive();
        timer = setInterval(() => {
          if (!pingAnswered) return lost();
          pingAnswered = false;
          c.query('SELECT pg_notify($1, $2)', [channel, ping]).catch(() => c === client && lost());
        }, PING_INTERVAL_MS);
        timer.unref();
      })
      .catch(() => c === client && lost());
  };

  connect();
  return {
    close: async () => {
      closed = true;
      if (timer) clearInterval(timer);
      const c = client;
      client = null;
      if (live) {
        live = false;
        handlers.onLost();
      }
      await c?.end().catch(() => {});
    },
  };
}

/** LISTEN on the embedded database: delivered in-process after commit, live at once. */
export function listenPglite(client: PGlite, channel: string, handlers: ListenHandlers): Listener {
  let unlisten: (() => Promise<void>) | null = null;
  let closed = false;
  const ready = client
    .listen(channel, (payload) => handlers.onNotify(payload))
    .then((stop) => {
      unlisten = stop;
      if (!closed) handlers.onLive();
    });
  return {
    close: async () => {
      closed = true;
      await ready.catch(() => {});
      handlers.onLost();
      if (!client.closed) await unlisten?.();
    },
  };
}
