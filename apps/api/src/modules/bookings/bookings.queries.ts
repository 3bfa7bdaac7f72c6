// Drizzle queries of bookings, their slots and the organizations' public booking pages. Reads for staff take the
// caller's scope: a booking of an organization outside it does not exist for them. A booking is taken under the
// slot row's lock (`lockSlot`), so however many patients confirm at once, the live bookings never pass capacity; the
// public limits are counted under `lockBookingLimits` for the same reason.
import { and, count, eq, gt, gte, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import {
  BOOKING_DEFAULT_ORDERING,
  LIVE_BOOKING_STATUSES,
  type TBookingListQuery,
  type TBookingStatus,
} from '@sc/shared/bookings';
import type { DbOrTx } from '../../db/client.ts';
import { bookingPages, bookings, languages, organizations, slots, type BookingPayment } from '../../db/schema/index.ts';
import { parseOrdering } from '../../http/ordering.ts';
import type { PageParams } from '../../http/pagination.ts';
import type { PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { ilikeTerm } from '../../http/search.ts';

export type OrganizationRow = typeof organizations.$inferSelect;
export type BookingRow = typeof bookings.$inferSelect & {
  organizationName: string;
  organizationTimezone: string;
  slotStart: Date | null;
  slotEnd: Date | null;
  allowOfflinePayment: boolean;
  canBeCancelBefore: number | null;
};

const ORDERING = {
  id: bookings.id,
  first_name: bookings.firstName,
  last_name: bookings.lastName,
  created: bookings.created,
  status: bookings.status,
  price: bookings.price,
};

const bookingColumns = {
  id: bookings.id,
  token: bookings.token,
  firstName: bookings.firstName,
  lastName: bookings.lastName,
  mobile: bookings.mobile,
  email: bookings.email,
  age: bookings.age,
  slotId: bookings.slotId,
  organizationId: bookings.organizationId,
  currency: bookings.currency,
  price: bookings.price,
  status: bookings.status,
  statusChanged: bookings.statusChanged,
  payment: bookings.payment,
  clientAddress: bookings.clientAddress,
  created: bookings.created,
  modified: bookings.modified,
  createdBy: bookings.createdBy,
  modifiedBy: bookings.modifiedBy,
  organizationName: organizations.name,
  organizationTimezone: organizations.timezone,
  slotStart: slots.start,
  slotEnd: slots.end,
  allowOfflinePayment: organizations.allowOfflinePayment,
  canBeCancelBefore: organizations.canBeCancelBefore,
};

/** Same expression as the trigram index `bookings_search_trgm_idx`, so the index serves the search. */
const searchText = sql`(${bookings.firstName} || ' ' || ${bookings.lastName} || ' ' || coalesce(${bookings.mobile}, '') || ' ' || coalesce(${bookings.email}, ''))`;

function bookingSelect(db: DbOrTx) {
  return db
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(organizations, eq(organizations.id, bookings.organizationId))
    .leftJoin(slots, eq(slots.id, bookings.slotId));
}

export async function listBookings(
  db: DbOrTx,
  scope: Scope,
  filters: Pick<TBookingListQuery, 'organization' | 'status' | 'slot' | 'search' | 'ordering'>,
  created: PeriodRange,
  slotRange: PeriodRange,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: BookingRow[]; count: number }> {
  const term = filters.search?.trim();
  const conditions: (SQL | undefined)[] = [
    orgScopeCondition(scope, bookings.organizationId),
    filters.organization === undefined ? undefined : eq(bookings.organizationId, filters.organization),
    filters.status === undefined ? undefined : eq(bookings.status, filters.status),
    filters.slot === undefined ? undefined : eq(bookings.slotId, filters.slot),
    created.from ? gte(bookings.created, created.from) : undefined,
    created.to ? lt(bookings.created, created.to) : undefined,
    term ? ilikeTerm(searchText, term) : undefined,
  ];
  if (slotRange.from || slotRange.to) {
    conditions.push(
      sql`${bookings.slotId} in (select ${slots.id} from ${slots} where ${and(
        slotRange.from ? gte(slots.start, slotRange.from) : undefined,
        slotRange.to ? lt(slots.start, slotRange.to) : undefined,
      )})`,
    );
  }
  const where = and(...conditions);
  const orderBy = parseOrdering(filters.ordering, ORDERING, BOOKING_DEFAULT_ORDERING);
  const [rows, [total]] = await Promise.all([
    bookingSelect(db).where(where).orderBy(...orderBy).limit(page.limit).offset(page.offset),
    db.select({ count: count() }).from(bookings).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

export async function findBooking(db: DbOrTx, scope: Scope, id: number): Promise<BookingRow | null> {
  const [row] = await bookingSelect(db)
    .where(and(eq(bookings.id, id), orgScopeCondition(scope, bookings.organizationId)))
    .limit(1);
  return row ?? null;
}

export async function findBookingByToken(db: DbOrTx, token: string): Promise<BookingRow | null> {
  const [row] = await bookingSelect(db).where(eq(bookings.token, token)).limit(1);
  return row ?? null;
}

/** The booking's status, its row locked until the transaction ends (null: no such booking). */
export async function lockBooking(
  tx: DbOrTx,
  id: number,
): Promise<{ status: TBookingStatus; payment: BookingPayment } | null> {
  const [row] = await tx
    .select({ status: bookings.status, payment: bookings.payment })
    .from(bookings)
    .where(eq(bookings.id, id))
    .for('update')
    .limit(1);
  return row ?? null;
}

export async function updateBooking(
  tx: DbOrTx,
  id: number,
  values: { status?: TBookingStatus; payment?: BookingPayment; by: number | null; at: Date },
): Promise<void> {
  await tx
    .update(bookings)
    .set({
      ...(values.status ? { status: values.status, statusChanged: values.at } : {}),
      ...(values.payment ? { payment: values.payment } : {}),
      modifiedBy: values.by,
      modified: values.at,
    })
    .where(eq(bookings.id, id));
}

// ---- Public page -------------------------------------------------------------------------------------------------

export async function findOrganizationByPageToken(db: DbOrTx, token: string): Promise<OrganizationRow | null> {
  const [row] = await db
    .select({ org: organizations })
    .from(bookingPages)
    .innerJoin(organizations, eq(organizations.id, bookingPages.organizationId))
    .where(eq(bookingPages.token, token))
    .limit(1);
  return row?.org ?? null;
}

/**
 * The languages an organization speaks to its patients: English, its own language (`language`) and the languages of
 * its consent forms (`localize` keys), each once, in that order, with the names of the Language menu.
 */
export async function organizationLanguages(
  db: DbOrTx,
  org: Pick<OrganizationRow, 'languageId' | 'localize'>,
): Promise<{ iso_code: string; name: string }[]> {
  const consentIsos = Object.keys(org.localize ?? {}).map((iso) => iso.toLowerCase());
  const rows = await db
    .select({ id: languages.id, iso: languages.isoCode, name: languages.name })
    .from(languages)
    .where(
      sql`${languages.id} = ${org.languageId ?? -1} or lower(${languages.isoCode}) in ('en'${
        consentIsos.length > 0 ? sql`, ${sql.join(consentIsos.map((iso) => sql`${iso}`), sql`, `)}` : sql``
      })`,
    );
  const byIso = new Map(rows.map((r) => [r.iso.toLowerCase(), r.name]));
  const own = rows.find((r) => r.id === org.languageId)?.iso.toLowerCase();
  const order = ['en', ...(own ? [own] : []), ...consentIsos];
  return [...new Set(order)].map((iso) => ({
    iso_code: iso,
    name: byIso.get(iso) ?? (iso === 'en' ? 'English' : iso),
  }));
}

export async function findPageToken(db: DbOrTx, organizationId: number): Promise<string | null> {
  const [row] = await db
    .select({ token: bookingPages.token })
    .from(bookingPages)
    .where(eq(bookingPages.organizationId, organizationId))
    .limit(1);
  return row?.token ?? null;
}

/** Live bookings per slot start of one organization between two instants. */
export async function liveCountsByStart(
  db: DbOrTx,
  organizationId: number,
  from: Date,
  to: Date,
): Promise<Map<number, number>> {
  const rows = await db
    .select({ start: slots.start, live: count(bookings.id) })
    .from(slots)
    .innerJoin(bookings, eq(bookings.slotId, slots.id))
    .where(
      and(
        eq(slots.organizationId, organizationId),
        gte(slots.start, from),
        lt(slots.start, to),
        inArray(bookings.status, [...LIVE_BOOKING_STATUSES]),
      ),
    )
    .groupBy(slots.start);
  return new Map(rows.map((r) => [r.start.getTime(), r.live]));
}

/**
 * The slot row of (organization, start), made if missing, locked until the transaction ends; its capacity follows
 * the organization's current setting. Two transactions asking for one slot queue here.
 */
export async function lockSlot(
  tx: DbOrTx,
  values: { organizationId: number; start: Date; end: Date; capacity: number; at: Date },
): Promise<{ id: number; capacity: number }> {
  const [row] = await tx
    .insert(slots)
    .values({ ...values, created: values.at, modified: values.at })
    .onConflictDoUpdate({
      target: [slots.organizationId, slots.start],
      set: { capacity: values.capacity, end: values.end },
    })
    .returning();
  if (!row) throw new Error('The slot was not stored.');
  return { id: row.id, capacity: row.capacity };
}

export async function liveBookingsOfSlot(tx: DbOrTx, slotId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(bookings)
    .where(and(eq(bookings.slotId, slotId), inArray(bookings.status, [...LIVE_BOOKING_STATUSES])));
  return row?.n ?? 0;
}

export async function insertBooking(
  tx: DbOrTx,
  values: typeof bookings.$inferInsert,
): Promise<number> {
  const [row] = await tx.insert(bookings).values(values).returning();
  if (!row) throw new Error('The booking was not stored.');
  return row.id;
}

/**
 * Holds advisory locks on the mobile and the client address until the transaction ends: bookings that count a
 * limit and then insert the row it counts queue behind each other, so each sees the others' rows. Always mobile
 * first, then address, then the slot row, so two bookings never wait on each other in a circle.
 */
export async function lockBookingLimits(tx: DbOrTx, mobile: string, address: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`booking-mobile:${mobile}`}, 0))`);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`booking-address:${address}`}, 0))`);
}

/** Bookings (not canceled) made with this mobile since `since`; and any bookings from this address since `since`. */
export async function recentByMobile(db: DbOrTx, mobile: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(bookings)
    .where(and(eq(bookings.mobile, mobile), gt(bookings.created, since), ne(bookings.status, 'CANCELED')));
  return row?.n ?? 0;
}
export async function recentByAddress(db: DbOrTx, address: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(bookings)
    .where(and(eq(bookings.clientAddress, address), gt(bookings.created, since)));
  return row?.n ?? 0;
}
