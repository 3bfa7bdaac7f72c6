// Bookings (issue 12; part 3 §2–§9; part 1 §3; architecture §7): the public page by organization token (summary, open
// days, slots with places left, booking, view and cancel by booking token) and the console (list, one booking, status
// moves, offline payment, the page's link). A slot never takes more live bookings than its places: the booking is
// inserted under the slot row's lock. Public bookings are limited per mobile number and per client address, counted
// under their own locks in the same transaction. Every change is audited in the transaction that makes it; messages go
// out through the outbox after the commit.
import {
  BOOKINGS_PER_ADDRESS_PER_HOUR,
  BOOKINGS_PER_MOBILE_PER_DAY,
  BOOKING_MESSAGES,
  DEFAULT_BOOKINGS_PER_SLOT,
  OFFLINE_PAYABLE_STATUSES,
  bookingMobileProblem,
  bookingPagePath,
  bookingViewPath,
  canCancelAt,
  canHandleBookings,
  canMoveBooking,
  formatBookingPrice,
  type TBooking,
  type TBookingDay,
  type TBookingLink,
  type TBookingListQuery,
  type TBookingSaved,
  type TBookingSlot,
  type TBookingStatus,
  type TOfflinePayment,
  type TPublicBooking,
  type TPublicOrganization,
  ZOfflinePayment,
  type TBookingCreateParsed,
} from '@sc/shared/bookings';
import type { TPaginated } from '@sc/shared/list';
import { parseMobile } from '@sc/shared/validation';
import type { AppContext } from '../../app.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { eq } from 'drizzle-orm';
import { bookings } from '../../db/schema/index.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { auditActor, auditChanges, type AuditChange } from '../../services/audit.service.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, fieldError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { daysRange, requestPeriod, timezoneFromHeader } from '../../http/period.ts';
import { isInScope, resolveScope } from '../../http/scope.ts';
import { generateToken } from '../../services/tokens.ts';
import { organizationAddress, presentBooking, presentPublicBooking } from './bookings.presenter.ts';
import * as q from './bookings.queries.ts';
import { bookingDays, findOfferedSlot, offeredSlots, slotsOfDate, weekdayOf, type SlotSettings } from './slots.ts';
import { readerFor } from '../../db/replica.ts';

export type BookingsContext = Pick<AppContext, 'database' | 'services' | 'now' | 'config'>;

export const BOOKING_AUDIT = {
  created: 'booking.created',
  status: 'booking.status_changed',
  canceledByPatient: 'booking.canceled_by_patient',
  paidOffline: 'booking.paid_offline',
} as const;

const HOUR = 3_600_000;

// ---- Public page -------------------------------------------------------------------------------------------------

const settingsOf = (org: q.OrganizationRow): SlotSettings => ({
  timezone: org.timezone,
  availableDays: org.availableDays,
});
const placesOf = (org: q.OrganizationRow): number => org.totalBookingsPerSlot ?? DEFAULT_BOOKINGS_PER_SLOT;

/** The organization behind a page token, taking bookings; any other token answers 404. */
async function bookableOrganization(db: Db, token: string): Promise<q.OrganizationRow> {
  const org = token.length <= 200 ? await q.findOrganizationByPageToken(db, token) : null;
  if (!org) throw notFound();
  if (!org.isBookingEnabled) throw notFound(BOOKING_MESSAGES.notTakingBookings);
  return org;
}

export async function getPublicOrganization(ctx: BookingsContext, token: string): Promise<TPublicOrganization> {
  const org = await bookableOrganization(ctx.database.db, token);
  return {
    name: org.name,
    address: organizationAddress(org),
    country_code: org.countryCode,
    timezone: org.timezone,
    price: org.price ?? 0,
    currency: org.currency,
    allow_offline_payment: org.allowOfflinePayment,
    can_be_cancel_before: org.canBeCancelBefore,
    available_days: [...org.availableDays].sort((a, b) => a - b),
    total_bookings_per_slot: placesOf(org),
    languages: await q.organizationLanguages(ctx.database.db, org),
  };
}

export async function listPublicDays(ctx: BookingsContext, token: string): Promise<TBookingDay[]> {
  const { db } = ctx.database;
  const org = await bookableOrganization(db, token);
  const now = ctx.now();
  const days = bookingDays(settingsOf(org), now);
  if (days.length === 0) return [];
  const range = daysRange(days[0]!, days[days.length - 1]!, org.timezone);
  const live = await q.liveCountsByStart(db, org.id, range.from, range.to);
  const places = placesOf(org);
  return days.map((date) => ({
    date,
    weekday: weekdayOf(date),
    places_left: offeredSlots(date, settingsOf(org), now).reduce(
      (sum, s) => sum + Math.max(0, places - (live.get(s.start.getTime()) ?? 0)),
      0,
    ),
  }));
}

export async function listPublicSlots(ctx: BookingsContext, token: string, date: string): Promise<TBookingSlot[]> {
  const { db } = ctx.database;
  const org = await bookableOrganization(db, token);
  const now = ctx.now();
  const slots = offeredSlots(date, settingsOf(org), now);
  if (slots.length === 0) return [];
  const day = slotsOfDate(date, org.timezone);
  const live = await q.liveCountsByStart(db, org.id, day[0]!.start, day[day.length - 1]!.end);
  const places = placesOf(org);
  return slots.map((s) => ({
    start: s.start.toISOString(),
    end: s.end.toISOString(),
    capacity: places,
    places_left: Math.max(0, places - (live.get(s.start.getTime()) ?? 0)),
  }));
}

export async function createPublicBooking(
  ctx: BookingsContext,
  token: string,
  input: TBookingCreateParsed,
  meta: RequestMeta,
): Promise<TPublicBooking> {
  const { db } = ctx.database;
  const org = await bookableOrganization(db, token);
  // The mobile must be one of the organization's country, which the body's schema alone cannot know.
  const problem = bookingMobileProblem(input.mobile, org.countryCode);
  if (problem) throw fieldError('mobile', problem);
  const mobile = parseMobile(input.mobile, org.countryCode || undefined)!.stored;

  const now = ctx.now();
  const slot = findOfferedSlot(new Date(input.start), settingsOf(org), now);
  if (!slot) {
    const past = new Date(input.start).getTime() <= now.getTime();
    throw fieldError('start', past ? BOOKING_MESSAGES.slotPast : BOOKING_MESSAGES.slotUnavailable);
  }

  const price = org.price ?? 0;
  const status: TBookingStatus = price > 0 ? 'PENDING_PAYMENT' : 'NEW';
  const bookingToken = generateToken(24);
  await db.transaction(async (tx) => {
    // Limits: per mobile (live bookings in a rolling day) and per client address (an hour), counted under their
    // locks so parallel bookings cannot all pass the count before any of them is stored.
    await q.lockBookingLimits(tx, mobile, meta.ip);
    if ((await q.recentByMobile(tx, mobile, new Date(now.getTime() - 24 * HOUR))) >= BOOKINGS_PER_MOBILE_PER_DAY) {
      throw new AppError('rate_limited', BOOKING_MESSAGES.tooManyForMobile);
    }
    if ((await q.recentByAddress(tx, meta.ip, new Date(now.getTime() - HOUR))) >= BOOKINGS_PER_ADDRESS_PER_HOUR) {
      throw new AppError('rate_limited', BOOKING_MESSAGES.tooManyForAddress);
    }
    // The slot row is the lock: parallel confirmations of one slot queue here and each counts the others.
    const locked = await q.lockSlot(tx, {
      organizationId: org.id,
      start: slot.start,
      end: slot.end,
      capacity: placesOf(org),
      at: now,
    });
    if ((await q.liveBookingsOfSlot(tx, locked.id)) >= locked.capacity) {
      throw fieldError('start', BOOKING_MESSAGES.slotFull);
    }
    const bookingId = await q.insertBooking(tx, {
      token: bookingToken,
      firstName: input.first_name,
      lastName: input.last_name,
      mobile,
      email: input.email,
      age: input.age,
      slotId: locked.id,
      organizationId: org.id,
      currency: org.currency,
      price,
      status,
      statusChanged: now,
      clientAddress: meta.ip,
      created: now,
      modified: now,
    });
    await record(ctx, tx, null, meta, BOOKING_AUDIT.created, bookingId, {
      organization: org.id,
      slot: locked.id,
      start: slot.start.toISOString(),
      status,
    }, auditChanges(null, { organization: org.id, slot: locked.id, start: slot.start, status }));
  });

  const row = (await q.findBookingByToken(db, bookingToken))!;
  await sendConfirmation(ctx, org, token, row);
  return {
    ...presentPublicBooking(row, org, now),
    detail: status === 'NEW' ? BOOKING_MESSAGES.created : BOOKING_MESSAGES.createdPendingPayment,
  };
}

/** SMS (and e-mail when given) with the view/cancel link, through the outbox (delivery failures stay there). */
async function sendConfirmation(
  ctx: BookingsContext,
  org: q.OrganizationRow,
  pageToken: string,
  row: q.BookingRow,
): Promise<void> {
  const link = `${ctx.config.publicUrl.replace(/\/+$/, '')}${bookingViewPath(pageToken, row.token)}`;
  const when = row.slotStart
    ? new Intl.DateTimeFormat('en-GB', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: org.timezone,
      }).format(row.slotStart)
    : '';
  const price = row.price > 0 ? ` Price: ${formatBookingPrice(row.price, row.currency)}.` : '';
  const body = `${org.name}: your booking for ${when} is ${row.status === 'NEW' ? 'confirmed' : 'reserved (payment pending)'}.${price} View or cancel it: ${link}`;
  if (row.mobile) await ctx.services.sms.send({ to: row.mobile, body, link });
  if (row.email) await ctx.services.mail.send({ to: row.email, subject: `Your booking at ${org.name}`, body, link });
}

async function publicBookingOf(db: Db, pageToken: string, bookingToken: string) {
  const org = await bookableOrganization(db, pageToken);
  const row = bookingToken.length <= 200 ? await q.findBookingByToken(db, bookingToken) : null;
  if (!row || row.organizationId !== org.id) throw notFound();
  return { org, row };
}

export async function getPublicBooking(
  ctx: BookingsContext,
  pageToken: string,
  bookingToken: string,
): Promise<TPublicBooking> {
  const { org, row } = await publicBookingOf(ctx.database.db, pageToken, bookingToken);
  return presentPublicBooking(row, org, ctx.now());
}

export async function cancelPublicBooking(
  ctx: BookingsContext,
  pageToken: string,
  bookingToken: string,
  meta: RequestMeta,
): Promise<TPublicBooking> {
  const { db } = ctx.database;
  const { org, row } = await publicBookingOf(db, pageToken, bookingToken);
  const now = ctx.now();
  await db.transaction(async (tx) => {
    const current = await q.lockBooking(tx, row.id);
    if (!current) throw notFound();
    if (!canMoveBooking(current.status, 'CANCELED', row.price)) {
      throw fieldError('status', BOOKING_MESSAGES.statusMove(current.status, 'CANCELED'));
    }
    if (row.slotStart && !canCancelAt(row.slotStart, org.canBeCancelBefore, now)) {
      throw fieldError('status', BOOKING_MESSAGES.cancelTooLate(org.canBeCancelBefore ?? 0));
    }
    await q.updateBooking(tx, row.id, { status: 'CANCELED', by: null, at: now });
    await record(ctx, tx, null, meta, BOOKING_AUDIT.canceledByPatient, row.id, { from: current.status }, auditChanges({ status: current.status }, { status: 'CANCELED' }));
  });
  const fresh = (await q.findBookingByToken(db, bookingToken))!;
  return { ...presentPublicBooking(fresh, org, now), detail: BOOKING_MESSAGES.canceled };
}

// ---- Console -----------------------------------------------------------------------------------------------------

function assertCanHandle(actor: Actor): void {
  if (!canHandleBookings(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

async function findInScope(db: Db, actor: Actor, id: number): Promise<q.BookingRow> {
  const row = await q.findBooking(db, await resolveScope(db, actor), id);
  if (!row) throw notFound();
  return row;
}

export async function listBookings(
  ctx: BookingsContext,
  actor: Actor,
  query: TBookingListQuery,
  request: { url: string; headers: Record<string, string | string[] | undefined> },
): Promise<TPaginated<TBooking>> {
  assertCanHandle(actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const now = ctx.now();
  const created = requestPeriod(query, request.headers.timezone, now);
  let slotRange = {};
  if (query.slot_after || query.slot_before) {
    const zone = timezoneFromHeader(request.headers.timezone);
    const first = query.slot_after ?? query.slot_before!;
    const last = query.slot_after ? (query.slot_before ?? query.slot_after) : query.slot_before!;
    if (last < first) throw fieldError('slot_before', 'The end date must not be before the start date.');
    slotRange = daysRange(first, last, zone);
  }
  const page = toPageParams(query);
  const { rows, count } = await q.listBookings(db, await resolveScope(db, actor), query, created, slotRange, page);
  return paginate(request, page, count, rows.map((r) => presentBooking(r, now)));
}

export async function getBooking(ctx: BookingsContext, actor: Actor, id: number, readDb = false): Promise<TBooking> {
  assertCanHandle(actor);
  return presentBooking(await findInScope(readerFor(ctx.database, readDb), actor, id), ctx.now());
}

export async function changeBookingStatus(
  ctx: BookingsContext,
  actor: Actor,
  id: number,
  to: TBookingStatus,
  meta: RequestMeta,
): Promise<TBookingSaved> {
  assertCanHandle(actor);
  const { db } = ctx.database;
  const row = await findInScope(db, actor, id);
  const now = ctx.now();
  await db.transaction(async (tx) => {
    const current = await q.lockBooking(tx, id);
    if (!current) throw notFound();
    if (!canMoveBooking(current.status, to, row.price)) {
      throw fieldError('status', BOOKING_MESSAGES.statusMove(current.status, to));
    }
    if (to === 'CANCELED' && row.slotStart && !canCancelAt(row.slotStart, row.canBeCancelBefore, now)) {
      throw fieldError('status', BOOKING_MESSAGES.cancelTooLate(row.canBeCancelBefore ?? 0));
    }
    await q.updateBooking(tx, id, { status: to, by: actor.id, at: now });
    await record(ctx, tx, actor, meta, BOOKING_AUDIT.status, id, { from: current.status, to }, auditChanges({ status: current.status }, { status: to }));
  });
  return { ...presentBooking(await findInScope(db, actor, id), now), detail: BOOKING_MESSAGES.statusUpdated };
}

export async function recordOfflinePayment(
  ctx: BookingsContext,
  actor: Actor,
  id: number,
  input: TOfflinePayment,
  meta: RequestMeta,
): Promise<TBookingSaved> {
  assertCanHandle(actor);
  const { db } = ctx.database;
  const row = await findInScope(db, actor, id);
  const payment = ZOfflinePayment.parse(input);
  if (!row.allowOfflinePayment) throw fieldError('method', BOOKING_MESSAGES.offlineNotAllowed);
  if (row.price <= 0) throw fieldError('method', BOOKING_MESSAGES.nothingToPay);
  const now = ctx.now();
  await db.transaction(async (tx) => {
    const current = await q.lockBooking(tx, id);
    if (!current) throw notFound();
    if (!OFFLINE_PAYABLE_STATUSES.includes(current.status)) {
      throw fieldError('status', BOOKING_MESSAGES.offlineStatus);
    }
    await q.updateBooking(tx, id, {
      status: 'PAID',
      payment: {
        type: 'OFFLINE',
        method: payment.method,
        reference: payment.reference,
        amount: row.price,
        currency: row.currency,
        recorded_by: actor.id,
        recorded_at: now.toISOString(),
      },
      by: actor.id,
      at: now,
    });
    await record(ctx, tx, actor, meta, BOOKING_AUDIT.paidOffline, id, {
      from: current.status,
      method: payment.method,
      reference: payment.reference,
      amount: row.price,
    }, auditChanges(
      { status: current.status, payment: null },
      { status: 'PAID', payment: { method: payment.method, reference: payment.reference, amount: row.price } },
    ));
  });
  return { ...presentBooking(await findInScope(db, actor, id), now), detail: BOOKING_MESSAGES.paymentRecorded };
}

/**
 * The organization's public page link; the organization must be in the caller's scope. Every organization has its
 * token from the moment it exists (migration 0020): this only reads it.
 */
export async function getBookingLink(ctx: BookingsContext, actor: Actor, organizationId: number): Promise<TBookingLink> {
  assertCanHandle(actor);
  const { db } = ctx.database;
  if (!(await isInScope(db, await resolveScope(db, actor), organizationId))) throw notFound();
  const token = await q.findPageToken(db, organizationId);
  if (!token) throw notFound();
  return { organization: organizationId, token, path: bookingPagePath(token) };
}

async function record(
  ctx: BookingsContext,
  tx: DbOrTx,
  actor: Actor | null,
  meta: RequestMeta,
  action: string,
  id: number,
  details: Record<string, unknown>,
  changes: AuditChange[],
): Promise<void> {
  // The booking's organization scopes who may read the row.
  const [booking] = await tx.select({ organizationId: bookings.organizationId }).from(bookings).where(eq(bookings.id, id));
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType: 'booking',
      targetId: id,
      organizationId: booking?.organizationId ?? null,
      changes,
      details,
    },
    tx,
  );
}
