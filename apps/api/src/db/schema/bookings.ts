// Appointment slots and bookings (part 3 §3 Booking; architecture §7 booking states).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { BOOKING_STATUSES } from '@sc/shared/constants';
import { byUser, createdModified } from './columns.ts';
import { organizations } from './organizations.ts';

export const slots = pgTable(
  'slots',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    start: timestamp('start', { withTimezone: true }).notNull(),
    end: timestamp('end', { withTimezone: true }).notNull(),
    /** Bookings the slot takes; from the organization's total_bookings_per_slot when made. */
    capacity: integer('capacity').notNull().default(1),
    ...createdModified(),
  },
  (t) => [uniqueIndex('slots_org_start_uq').on(t.organizationId, t.start)],
);

/** Payment provider answer, kept as received for the booking detail's "payment json". */
export type BookingPayment = Record<string, unknown>;

export const bookings = pgTable(
  'bookings',
  {
    id: serial('id').primaryKey(),
    /** Random token the patient holds to see or cancel the booking. */
    token: text('token').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    mobile: text('mobile'),
    email: text('email'),
    age: integer('age'),
    slotId: integer('slot_id').references(() => slots.id, { onDelete: 'set null' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    currency: text('currency'),
    /** Minor units (amount × 100). */
    price: integer('price').notNull().default(0),
    status: text('status', { enum: BOOKING_STATUSES }).notNull().default('NEW'),
    statusChanged: timestamp('status_changed', { withTimezone: true }).notNull().defaultNow(),
    payment: jsonb('payment').$type<BookingPayment>().notNull().default({}),
    /** The address the public booking came from: the per-address rate limit counts these. */
    clientAddress: text('client_address'),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    uniqueIndex('bookings_token_uq').on(t.token),
    index('bookings_org_created_idx').on(t.organizationId, t.created),
    index('bookings_created_idx').on(t.created),
    index('bookings_slot_idx').on(t.slotId),
    index('bookings_status_idx').on(t.status),
    index('bookings_mobile_created_idx').on(t.mobile, t.created),
    index('bookings_client_address_created_idx').on(t.clientAddress, t.created),
    index('bookings_search_trgm_idx').using(
      'gin',
      sql`(${t.firstName} || ' ' || ${t.lastName} || ' ' || coalesce(${t.mobile}, '') || ' ' || coalesce(${t.email}, '')) gin_trgm_ops`,
    ),
  ],
);

/**
 * The token of an organization's public booking page (`/book/<token>`): random, made the first time staff ask for
 * the link; one per organization.
 */
export const bookingPages = pgTable(
  'booking_pages',
  {
    organizationId: integer('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    ...createdModified(),
  },
  (t) => [uniqueIndex('booking_pages_token_uq').on(t.token)],
);
