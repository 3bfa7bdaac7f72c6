// Every e-mail and SMS is written to `outbox_messages` first; a sender then delivers it (or leaves it
// 'stored' when no provider is configured, the embedded default). Delivery happens after the row is
// committed and never inside a transaction, so a slow provider never holds a database lock.
import { and, asc, desc, eq, gte, inArray, isNull, lt, or } from 'drizzle-orm';
import { maskRecipient } from '@sc/shared/auth-extra';
import type { Database } from '../db/client.ts';
import { outboxMessages } from '../db/schema/index.ts';
import type { ServiceLogger } from './logger.ts';

export type OutboxChannel = 'email' | 'sms';
export type OutboxRow = typeof outboxMessages.$inferSelect;

export type OutgoingMessage = {
  to: string;
  subject?: string | null;
  body: string;
  /** The one-time code or link the message carries: kept for the embedded outbox reader, never logged. */
  code?: string | null;
  link?: string | null;
};

/** Delivers one stored message; throws on failure (the outbox records the error). */
export type Transport = (message: OutboxRow) => Promise<void>;

export type OutboxService = {
  /** Writes the row, then delivers it through `transport` (or marks it stored when there is none). */
  send: (channel: OutboxChannel, message: OutgoingMessage, transport: Transport | null) => Promise<OutboxRow>;
  /** Newest first; `to` matched exactly against any of the given recipients. */
  list: (to: string[] | null, limit: number) => Promise<OutboxRow[]>;
  /**
   * Messages of `channel` worth another try, oldest first: failed ones, and pending ones older than `pendingBefore`
   * (their process stopped mid-delivery), created since `createdSince`, with fewer than `maxAttempts` attempts.
   */
  listUndelivered: (
    channel: OutboxChannel,
    filter: {
      createdSince: Date;
      pendingBefore: Date;
      maxAttempts: number;
      limit: number;
      /** Only messages that carry no one-time code or link (a reminder, a digest): a code dies within minutes. */
      withoutCode?: boolean;
    },
  ) => Promise<OutboxRow[]>;
  /**
   * Delivers `row` again, unless another worker has taken it since it was read: the row is claimed by raising its
   * attempt count from the one read (compare-and-set), so two instances never both send it. Null when not claimed.
   */
  redeliver: (row: OutboxRow, transport: Transport) => Promise<OutboxRow | null>;
};

export function createOutboxService(database: Database, now: () => Date, log: ServiceLogger): OutboxService {
  const { db } = database;

  /** `attempts`: the count to record once this attempt is over (a redelivery has already counted it when claiming). */
  async function deliver(
    row: OutboxRow,
    transport: Transport | null,
    attempts = row.attempts + 1,
  ): Promise<OutboxRow> {
    const meta = { channel: row.channel, to: maskRecipient(row.to), outboxId: row.id };
    if (!transport) {
      const [stored] = await db
        .update(outboxMessages)
        .set({ status: 'stored' })
        .where(eq(outboxMessages.id, row.id))
        .returning();
      log.info(meta, 'message stored in the outbox (no provider configured)');
      return stored ?? row;
    }
    try {
      await transport(row);
      const [sent] = await db
        .update(outboxMessages)
        .set({ status: 'sent', sentAt: now(), attempts, lastError: null })
        .where(eq(outboxMessages.id, row.id))
        .returning();
      log.info(meta, 'message sent');
      return sent ?? row;
    } catch (err) {
      const lastError = err instanceof Error ? err.message.slice(0, 500) : 'delivery failed';
      const [failed] = await db
        .update(outboxMessages)
        .set({ status: 'failed', attempts, lastError })
        .where(eq(outboxMessages.id, row.id))
        .returning();
      log.warn({ ...meta, error: lastError }, 'message delivery failed');
      return failed ?? row;
    }
  }

  return {
    send: async (channel, message, transport) => {
      const [row] = await db
        .insert(outboxMessages)
        .values({
          channel,
          to: message.to,
          subject: message.subject ?? null,
          body: message.body,
          code: message.code ?? null,
          link: message.link ?? null,
          status: 'pending',
          created: now(),
        })
        .returning();
      if (!row) throw new Error('The outbox message was not stored.');
      return deliver(row, transport);
    },
    list: async (to, limit) =>
      db
        .select()
        .from(outboxMessages)
        .where(to ? inArray(outboxMessages.to, to) : undefined)
        .orderBy(desc(outboxMessages.created), desc(outboxMessages.id))
        .limit(limit),
    listUndelivered: (channel, { createdSince, pendingBefore, maxAttempts, limit, withoutCode }) =>
      db
        .select()
        .from(outboxMessages)
        .where(
          and(
            eq(outboxMessages.channel, channel),
            gte(outboxMessages.created, createdSince),
            lt(outboxMessages.attempts, maxAttempts),
            withoutCode ? and(isNull(outboxMessages.code), isNull(outboxMessages.link)) : undefined,
            or(
              eq(outboxMessages.status, 'failed'),
              and(eq(outboxMessages.status, 'pending'), lt(outboxMessages.created, pendingBefore)),
            ),
          ),
        )
        .orderBy(asc(outboxMessages.id))
        .limit(limit),
    redeliver: async (row, transport) => {
      const [claimed] = await db
        .update(outboxMessages)
        .set({ status: 'pending', attempts: row.attempts + 1 })
        .where(
          and(
            eq(outboxMessages.id, row.id),
            eq(outboxMessages.attempts, row.attempts),
            inArray(outboxMessages.status, ['failed', 'pending']),
          ),
        )
        .returning();
      return claimed ? deliver(claimed, transport, claimed.attempts) : null;
    },
  };
}
