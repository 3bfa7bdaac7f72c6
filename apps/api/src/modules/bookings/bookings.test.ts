import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BOOKINGS_PER_ADDRESS_PER_HOUR,
  BOOKINGS_PER_MOBILE_PER_DAY,
  BOOKING_MESSAGES,
  BOOKING_STATUSES,
  canMoveBooking,
  type TBooking,
  type TBookingDay,
  type TBookingLink,
  type TBookingSlot,
  type TBookingStatus,
  type TPublicBooking,
} from '@sc/shared/bookings';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { MESSAGES } from '@sc/shared/validation';
import { otherCountryMessage } from '@sc/shared/phone';
import { auditLog, bookingPages, bookings, outboxMessages, slots } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createLanguage, createOrganization, createUser, signIn, uniqueMobile } from '../../test/factories.ts';
import { BOOKING_AUDIT } from './bookings.service.ts';

const t = await setupTestApp();
// Monday 2026-03-02 00:00 in Kolkata: every slot of the next 30 days lies ahead.
t.clock.set(new Date('2026-03-01T18:30:00Z'));
const API = '/api/v1';

let n = 0;
const nextAddress = () => `10.1.${Math.floor(++n / 250)}.${(n % 250) + 1}`;

async function tokenFor(userType: TUserType, organizationId: number | null = null) {
  return signIn(t, await createUser(t, { userType, password: null, organizationId, firstName: 'Bea', lastName: userType }));
}

const bookingOrg = (name: string, extra: Parameters<typeof createOrganization>[1] = {}) =>
  createOrganization(t, {
    name,
    timezone: 'Asia/Kolkata',
    isBookingEnabled: true,
    availableDays: [0, 1, 2, 3, 4],
    totalBookingsPerSlot: 3,
    price: 25000,
    currency: 'INR',
    allowOfflinePayment: true,
    canBeCancelBefore: 24,
    address1: '12 Park Street',
    address3: 'Kolkata',
    ...extra,
  });

let admin: string;
async function pageToken(orgId: number): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `${API}/booking/link/${orgId}/`, headers: auth(admin) });
  expect(res.statusCode).toBe(200);
  return res.json<TBookingLink>().token;
}

function book(token: string, payload: object, remoteAddress = nextAddress()) {
  return t.app.inject({ method: 'POST', url: `${API}/appointment/${token}/booking/`, payload, remoteAddress });
}
const patient = (start: string, extra: object = {}) => ({
  start,
  first_name: 'Asha',
  last_name: 'Rao',
  mobile: uniqueMobile(),
  email: 'asha@example.com',
  age: 34,
  ...extra,
});
// Tuesday 2026-03-03 09:00 … 16:00 IST.
const slotAt = (day: number, hour: number) =>
  new Date(Date.UTC(2026, 2, day, hour, 0) - 5.5 * 3_600_000).toISOString();

let org: Awaited<ReturnType<typeof createOrganization>>;
let otherOrg: Awaited<ReturnType<typeof createOrganization>>;
let token: string;

beforeAll(async () => {
  admin = await tokenFor('ADMIN');
  [org, otherOrg] = await Promise.all([bookingOrg('Rao Clinic'), bookingOrg('Other Clinic', { price: 0, currency: null })]);
  token = await pageToken(org.id);
});

describe('public booking page', () => {
  it('answers 404 to an unknown token and to an organization that takes no bookings', async () => {
    const closed = await createOrganization(t, { name: 'Closed', isBookingEnabled: false });
    const closedToken = await pageToken(closed.id);
    const [unknown, off] = await Promise.all([
      t.app.inject({ method: 'GET', url: `${API}/appointment/nope/` }),
      t.app.inject({ method: 'GET', url: `${API}/appointment/${closedToken}/date/` }),
    ]);
    expect(unknown.statusCode).toBe(404);
    expect(off.statusCode).toBe(404);
    expect(off.json()).toEqual({ detail: BOOKING_MESSAGES.notTakingBookings });
  });

  it('names the languages the page may speak: English, the organization’s, its consent forms’ (23.17)', async () => {
    expect((await t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/` })).json().languages).toEqual([
      { iso_code: 'en', name: 'English' },
    ]);
    const [hindi] = await Promise.all([
      createLanguage(t, { name: 'Hindi', isoCode: 'hi' }),
      createLanguage(t, { name: 'Spanish', isoCode: 'es' }),
    ]);
    const consent = { name: 'x', ibe_consent_form: [], cervaical_consent_form: [], orca_consent_form: [] };
    const spoken = await bookingOrg('Bhasha Clinic', {
      languageId: hindi.id,
      localize: { es: { ...consent, name: 'Spanish' }, hi: { ...consent, name: 'Hindi' } },
    });
    const summary = await t.app.inject({ method: 'GET', url: `${API}/appointment/${await pageToken(spoken.id)}/` });
    expect(summary.json().languages).toEqual([
      { iso_code: 'en', name: 'English' },
      { iso_code: 'hi', name: 'Hindi' },
      { iso_code: 'es', name: 'Spanish' },
    ]);
  });

  it('gives the summary, the open days and the slots with places left, without sign-in', async () => {
    const link = await t.app.inject({ method: 'GET', url: `${API}/booking/link/${org.id}/`, headers: auth(admin) });
    expect(link.json()).toEqual({ organization: org.id, token, path: `/book/${token}` }); // stable
    const [summary, days, daySlots] = await Promise.all([
      t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/` }),
      t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/date/` }),
      t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/slot/?date=2026-03-02` }),
    ]);
    expect(summary.json()).toMatchObject({
      name: 'Rao Clinic',
      address: '12 Park Street, Kolkata, India',
      price: 25000,
      currency: 'INR',
      available_days: [0, 1, 2, 3, 4],
      total_bookings_per_slot: 3,
    });
    const dayList = days.json<TBookingDay[]>();
    // 30 days from Monday 2 March: weekdays only (MON–FRI) → 22 days, 8 slots of 3 places each.
    expect(dayList).toHaveLength(22);
    expect(dayList[0]).toEqual({ date: '2026-03-02', weekday: 0, places_left: 24 });
    expect(dayList.some((d) => d.weekday > 4)).toBe(false);
    const slotList = daySlots.json<TBookingSlot[]>();
    expect(slotList).toHaveLength(8);
    expect(slotList[0]).toEqual({ start: '2026-03-02T03:30:00.000Z', end: '2026-03-02T04:30:00.000Z', capacity: 3, places_left: 3 });
    const saturday = await t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/slot/?date=2026-03-07` });
    expect(saturday.json()).toEqual([]);
    const bad = await t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/slot/?date=2026-02-30` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('date');
  });

  it('books PENDING_PAYMENT when priced, NEW when free; sends an SMS and an e-mail with the view link', async () => {
    const mobile = uniqueMobile();
    const res = await book(token, patient(slotAt(3, 9), { mobile }));
    expect(res.statusCode).toBe(201);
    const booked = res.json<TPublicBooking>();
    expect(booked).toMatchObject({
      status: 'PENDING_PAYMENT',
      start: slotAt(3, 9),
      price: 25000,
      currency: 'INR',
      can_cancel: true,
      detail: BOOKING_MESSAGES.createdPendingPayment,
    });
    expect(booked.token.length).toBeGreaterThanOrEqual(30);
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.token, booked.token));
    expect(row).toMatchObject({ mobile: `+91-${mobile}`, firstName: 'Asha', organizationId: org.id, age: 34 });
    const sent = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.to, `+91-${mobile}`));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.link).toContain(`/book/${token}/booking/${booked.token}`);
    expect(sent[0]?.body).toContain('Rao Clinic');
    const mails = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.link, sent[0]!.link!));
    expect(mails.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    const slotsRes = await t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/slot/?date=2026-03-03` });
    expect(slotsRes.json<TBookingSlot[]>()[0]?.places_left).toBe(2);

    const freeToken = await pageToken(otherOrg.id);
    const free = await book(freeToken, patient(slotAt(3, 9), { email: '' }));
    expect(free.json()).toMatchObject({ status: 'NEW', price: 0, detail: BOOKING_MESSAGES.created });
  });

  it('answers field errors and stores nothing for bad input', async () => {
    const cases: [object, string, string][] = [
      [{ first_name: '' }, 'first_name', BOOKING_MESSAGES.firstName],
      [{ first_name: 'R2D2' }, 'first_name', BOOKING_MESSAGES.firstName],
      [{ last_name: '<b>' }, 'last_name', BOOKING_MESSAGES.lastName],
      [{ mobile: '12345' }, 'mobile', MESSAGES.invalidPhone],
      // A German mobile for an Indian clinic is said to be another country's (issue 23.3).
      [{ mobile: '+4915112345678' }, 'mobile', otherCountryMessage('+49', '+91')],
      [{ email: 'not-an-email' }, 'email', MESSAGES.invalidEmail],
      [{ age: 0 }, 'age', BOOKING_MESSAGES.age],
      [{ age: -5 }, 'age', BOOKING_MESSAGES.age],
      [{ age: 121 }, 'age', BOOKING_MESSAGES.age],
      [{ age: 30.5 }, 'age', BOOKING_MESSAGES.age],
      [{ age: 'ten' }, 'age', BOOKING_MESSAGES.age],
      [{ start: 'tomorrow' }, 'start', BOOKING_MESSAGES.slotUnavailable],
      [{ start: slotAt(7, 9) }, 'start', BOOKING_MESSAGES.slotUnavailable], // Saturday: closed
      [{ start: new Date(Date.parse(slotAt(3, 9)) + 900_000).toISOString() }, 'start', BOOKING_MESSAGES.slotUnavailable],
      [{ start: '2026-02-27T03:30:00.000Z' }, 'start', BOOKING_MESSAGES.slotPast],
    ];
    const before = (await t.database.db.select().from(bookings)).length;
    const answers = await Promise.all(cases.map(([change]) => book(token, patient(slotAt(4, 10), change))));
    answers.forEach((res, i) => {
      const [, field, message] = cases[i]!;
      expect(res.statusCode, JSON.stringify(cases[i])).toBe(400);
      expect(res.json()[field], JSON.stringify(cases[i])).toEqual([message]);
    });
    expect((await t.database.db.select().from(bookings)).length).toBe(before);
  });

  it('never overbooks a slot when 20 patients confirm at once', async () => {
    const start = slotAt(5, 11);
    const answers = await Promise.all(Array.from({ length: 20 }, () => book(token, patient(start))));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 400)).toHaveLength(17);
    const full = answers.find((r) => r.statusCode === 400)!;
    expect(full.json()).toEqual({ start: [BOOKING_MESSAGES.slotFull] });
    const slotsRes = await t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/slot/?date=2026-03-05` });
    expect(slotsRes.json<TBookingSlot[]>().find((s) => s.start === start)?.places_left).toBe(0);
  });

  it(`limits one mobile to ${BOOKINGS_PER_MOBILE_PER_DAY} bookings a day and one address to ${BOOKINGS_PER_ADDRESS_PER_HOUR} an hour`, async () => {
    const mobile = uniqueMobile();
    for (let i = 0; i < BOOKINGS_PER_MOBILE_PER_DAY; i++) {
      expect((await book(token, patient(slotAt(9, 9 + i), { mobile }))).statusCode).toBe(201);
    }
    const over = await book(token, patient(slotAt(9, 15), { mobile }));
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ detail: BOOKING_MESSAGES.tooManyForMobile });

    const limited = await bookingOrg('Busy Clinic', { totalBookingsPerSlot: 100 });
    const busy = await pageToken(limited.id);
    const address = '203.0.113.9';
    for (let i = 0; i < BOOKINGS_PER_ADDRESS_PER_HOUR; i++) {
      expect((await book(busy, patient(slotAt(10, 9)), address)).statusCode).toBe(201);
    }
    const blocked = await book(busy, patient(slotAt(10, 9)), address);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ detail: BOOKING_MESSAGES.tooManyForAddress });
    expect((await book(busy, patient(slotAt(10, 9)), '203.0.113.10')).statusCode).toBe(201);
    t.clock.advance(3_600_000 + 1000);
    try {
      expect((await book(busy, patient(slotAt(10, 10)), address)).statusCode).toBe(201);
    } finally {
      t.clock.advance(-(3_600_000 + 1000));
    }
  });

  it('never lets parallel bookings pass the per-mobile or the per-address limit, and texts only the stored ones', async () => {
    const mobile = uniqueMobile();
    const byMobile = await Promise.all(
      Array.from({ length: 10 }, (_, i) => book(token, patient(slotAt(4, 9 + (i % 7)), { mobile }))),
    );
    const mobileCodes = byMobile.map((r) => r.statusCode);
    expect(mobileCodes.filter((c) => c === 201)).toHaveLength(BOOKINGS_PER_MOBILE_PER_DAY);
    expect(mobileCodes.filter((c) => c === 429)).toHaveLength(10 - BOOKINGS_PER_MOBILE_PER_DAY);
    const stored = await t.database.db.select().from(bookings).where(eq(bookings.mobile, `+91-${mobile}`));
    expect(stored).toHaveLength(BOOKINGS_PER_MOBILE_PER_DAY);
    const texts = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.to, `+91-${mobile}`));
    expect(texts).toHaveLength(BOOKINGS_PER_MOBILE_PER_DAY);

    const roomy = await pageToken((await bookingOrg('Roomy Clinic', { totalBookingsPerSlot: 100 })).id);
    const address = '198.51.100.7';
    const attempts = BOOKINGS_PER_ADDRESS_PER_HOUR + 6;
    const byAddress = await Promise.all(
      Array.from({ length: attempts }, () => book(roomy, patient(slotAt(10, 11)), address)),
    );
    const addressCodes = byAddress.map((r) => r.statusCode);
    expect(addressCodes.filter((c) => c === 201)).toHaveLength(BOOKINGS_PER_ADDRESS_PER_HOUR);
    expect(addressCodes.filter((c) => c === 429)).toHaveLength(attempts - BOOKINGS_PER_ADDRESS_PER_HOUR);
    const fromAddress = await t.database.db.select().from(bookings).where(eq(bookings.clientAddress, address));
    expect(fromAddress).toHaveLength(BOOKINGS_PER_ADDRESS_PER_HOUR);
  });

  it('lets the patient view and cancel by token up to can_be_cancel_before hours ahead', async () => {
    const booked = (await book(token, patient(slotAt(6, 12)))).json<TPublicBooking>();
    const view = await t.app.inject({ method: 'GET', url: `${API}/appointment/${token}/booking/${booked.token}/` });
    expect(view.json()).toMatchObject({ status: 'PENDING_PAYMENT', can_cancel: true });
    // Another organization's page does not know this booking.
    const otherToken = await pageToken(otherOrg.id);
    const wrong = await t.app.inject({ method: 'GET', url: `${API}/appointment/${otherToken}/booking/${booked.token}/` });
    expect(wrong.statusCode).toBe(404);

    // 24 hours before the slot: too late.
    const late = (await book(token, patient(slotAt(2, 10)))).json<TPublicBooking>(); // Mon 10:00 IST
    t.clock.set(new Date(Date.parse(slotAt(2, 10)) - 23 * 3_600_000));
    try {
      const refused = await t.app.inject({ method: 'POST', url: `${API}/appointment/${token}/booking/${late.token}/cancel/` });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ status: [BOOKING_MESSAGES.cancelTooLate(24)] });
    } finally {
      t.clock.set(new Date('2026-03-01T18:30:00Z'));
    }
    const cancel = await t.app.inject({ method: 'POST', url: `${API}/appointment/${token}/booking/${booked.token}/cancel/` });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({ status: 'CANCELED', can_cancel: false, detail: BOOKING_MESSAGES.canceled });
    const again = await t.app.inject({ method: 'POST', url: `${API}/appointment/${token}/booking/${booked.token}/cancel/` });
    expect(again.statusCode).toBe(400);
  });
});

describe('console bookings', () => {
  let orgAdmin: string;
  let otherBookingId: number;
  beforeAll(async () => {
    orgAdmin = await tokenFor('ORG_ADMIN', org.id);
    const otherToken = await pageToken(otherOrg.id);
    const res = await book(otherToken, patient(slotAt(11, 9), { first_name: 'Zara' }));
    otherBookingId = (await t.database.db.select().from(bookings).where(eq(bookings.token, res.json<TPublicBooking>().token)))[0]!.id;
  });

  const list = (tok: string, qs = '') =>
    t.app.inject({ method: 'GET', url: `${API}/booking/?${qs}`, headers: auth(tok) });

  it('answers 401 without a token and 403 to roles that do not handle bookings', async () => {
    const [anon, technician, reviewer] = await Promise.all([
      t.app.inject({ method: 'GET', url: `${API}/booking/` }),
      tokenFor('TECHNICIAN', org.id).then((tok) => list(tok)),
      tokenFor('CERVAICAL_REVIEWER', org.id).then((tok) => list(tok)),
    ]);
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    expect(technician.statusCode).toBe(403);
    expect(reviewer.statusCode).toBe(403);
  });

  it('keeps each role to its scope: another organization’s booking answers 404', async () => {
    const [mine, all] = await Promise.all([list(orgAdmin, 'limit=100'), list(admin, 'limit=100')]);
    const mineRows = mine.json<TPaginated<TBooking>>();
    expect(mineRows.count).toBeGreaterThan(0);
    expect(mineRows.results.every((b) => b.organization === org.id)).toBe(true);
    expect(all.json<TPaginated<TBooking>>().count).toBeGreaterThan(mineRows.count);
    const [hidden, seen, link] = await Promise.all([
      t.app.inject({ method: 'GET', url: `${API}/booking/${otherBookingId}/`, headers: auth(orgAdmin) }),
      t.app.inject({ method: 'GET', url: `${API}/booking/${otherBookingId}/`, headers: auth(admin) }),
      t.app.inject({ method: 'GET', url: `${API}/booking/link/${otherOrg.id}/`, headers: auth(orgAdmin) }),
    ]);
    expect(hidden.statusCode).toBe(404);
    expect(seen.json()).toMatchObject({ id: otherBookingId, first_name: 'Zara', organization_data: { name: 'Other Clinic', timezone: 'Asia/Kolkata' } });
    expect(link.statusCode).toBe(404);
    const move = await t.app.inject({
      method: 'POST',
      url: `${API}/booking/${otherBookingId}/status/`,
      headers: auth(orgAdmin),
      payload: { status: 'CANCELED' },
    });
    expect(move.statusCode).toBe(404);
  });

  it('filters by status, search, organization, Slot Data range and orders by first_name', async () => {
    const [byStatus, bySearch, byOrg, bySlot, ordered] = await Promise.all([
      list(admin, 'status=NEW&limit=100'),
      list(admin, 'search=zara'),
      list(admin, `organization=${otherOrg.id}&limit=100`),
      list(admin, 'slot_after=2026-03-11'),
      list(admin, 'ordering=first_name&limit=100'),
    ]);
    expect(byStatus.json<TPaginated<TBooking>>().results.every((b) => b.status === 'NEW')).toBe(true);
    expect(bySearch.json<TPaginated<TBooking>>().results.map((b) => b.first_name)).toEqual(['Zara']);
    expect(byOrg.json<TPaginated<TBooking>>().results.every((b) => b.organization === otherOrg.id)).toBe(true);
    expect(bySlot.json<TPaginated<TBooking>>().results.map((b) => b.id)).toEqual([otherBookingId]);
    const names = ordered.json<TPaginated<TBooking>>().results.map((b) => b.first_name);
    expect(names).toEqual([...names].sort());
    const bad = await list(admin, 'status=DONE&ordering=age');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('status');
  });

  async function freshBooking(status: TBookingStatus, start = slotAt(12, 9), orgId = org.id, price = 25000) {
    const startAt = new Date(start);
    const [slot] = await t.database.db
      .insert(slots)
      .values({ organizationId: orgId, start: startAt, end: new Date(startAt.getTime() + 3_600_000), capacity: 100 })
      .onConflictDoUpdate({ target: [slots.organizationId, slots.start], set: { capacity: 100 } })
      .returning();
    const [row] = await t.database.db
      .insert(bookings)
      .values({ token: `tok-${++n}`, firstName: 'Mira', organizationId: orgId, slotId: slot!.id, price, status, currency: 'INR' })
      .returning();
    return row!.id;
  }
  const move = (id: number, status: string, tok = admin) =>
    t.app.inject({ method: 'POST', url: `${API}/booking/${id}/status/`, headers: auth(tok), payload: { status } });

  it('allows every listed move and refuses every other, for priced bookings, and audits each', async () => {
    const pairs = BOOKING_STATUSES.flatMap((from) => BOOKING_STATUSES.map((to) => [from, to] as const));
    const ids = await Promise.all(pairs.map(([from]) => freshBooking(from)));
    const answers: Awaited<ReturnType<typeof move>>[] = [];
    for (const [i, [, to]] of pairs.entries()) answers.push(await move(ids[i]!, to, orgAdmin));
    pairs.forEach(([from, to], i) => {
      const res = answers[i]!;
      if (canMoveBooking(from, to, 25000)) {
        expect(res.statusCode, `${from} → ${to}`).toBe(200);
        expect(res.json()).toMatchObject({ status: to, detail: BOOKING_MESSAGES.statusUpdated });
      } else {
        expect(res.statusCode, `${from} → ${to}`).toBe(400);
        expect(res.json()).toEqual({ status: [BOOKING_MESSAGES.statusMove(from, to)] });
      }
    });
    // The chain: NEW → PENDING_PAYMENT → PAID → COMPLETED, cancel from the first three.
    expect(pairs.filter(([f, to]) => canMoveBooking(f, to, 25000)).map(([f, to]) => `${f}>${to}`)).toEqual([
      'NEW>PENDING_PAYMENT',
      'NEW>CANCELED',
      'PENDING_PAYMENT>PAID',
      'PENDING_PAYMENT>CANCELED',
      'PAID>COMPLETED',
      'PAID>CANCELED',
    ]);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, BOOKING_AUDIT.status));
    expect(audits).toHaveLength(6);
    expect(canMoveBooking('NEW', 'COMPLETED', 0)).toBe(true); // nothing to pay
  });

  it('refuses a cancel after the cut-off, and offers no cancel in the detail then', async () => {
    const id = await freshBooking('PAID', slotAt(2, 15)); // Monday 15:00 IST: 15 hours ahead of the clock
    const detail = await t.app.inject({ method: 'GET', url: `${API}/booking/${id}/`, headers: auth(admin) });
    expect(detail.json<TBooking>().next_statuses).toEqual(['COMPLETED']);
    const res = await move(id, 'CANCELED');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: [BOOKING_MESSAGES.cancelTooLate(24)] });
  });

  it('records an offline payment where the organization allows it, and refuses it elsewhere', async () => {
    const id = await freshBooking('PENDING_PAYMENT');
    const pay = (bid: number, payload: object) =>
      t.app.inject({ method: 'POST', url: `${API}/booking/${bid}/payment/`, headers: auth(orgAdmin), payload });
    const bad = await pay(id, { method: 'GOLD' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ method: [BOOKING_MESSAGES.method] });
    const ok = await pay(id, { method: 'CASH', reference: 'R-17' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'PAID',
      payment: { type: 'OFFLINE', method: 'CASH', reference: 'R-17', amount: 25000, currency: 'INR' },
      detail: BOOKING_MESSAGES.paymentRecorded,
    });
    expect((await pay(id, { method: 'CASH' })).json()).toEqual({ status: [BOOKING_MESSAGES.offlineStatus] });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, BOOKING_AUDIT.paidOffline), eq(auditLog.targetId, String(id))));
    expect(audits).toHaveLength(1);

    const strict = await bookingOrg('Online Only', { allowOfflinePayment: false });
    const strictAdmin = await tokenFor('ADMIN');
    const other = await freshBooking('PENDING_PAYMENT', slotAt(12, 10), strict.id);
    const refused = await t.app.inject({
      method: 'POST',
      url: `${API}/booking/${other}/payment/`,
      headers: auth(strictAdmin),
      payload: { method: 'CASH' },
    });
    expect(refused.json()).toEqual({ method: [BOOKING_MESSAGES.offlineNotAllowed] });
    // The ORG_ADMIN of Rao Clinic cannot pay another organization's booking.
    expect((await pay(other, { method: 'CASH' })).statusCode).toBe(404);
  });
});

describe('GET booking/link/{id}/ only reads', () => {
  const counts = async () => {
    const [pages] = await t.database.db.select({ n: count() }).from(bookingPages);
    const [audit] = await t.database.db.select({ n: count() }).from(auditLog);
    return { pages: pages?.n, audit: audit?.n };
  };

  it('every organization has its page token from the moment it exists; reading the link, also impersonated, writes nothing', async () => {
    const org = await createOrganization(t);
    const [page] = await t.database.db.select().from(bookingPages).where(eq(bookingPages.organizationId, org.id));
    expect(page?.token).toMatch(/^[0-9a-f]{64}$/);
    const platformAdmin = await createUser(t, { userType: 'ADMIN' });
    const orgAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const before = await counts();
    for (const token of [
      await signIn(t, platformAdmin),
      await signIn(t, orgAdmin, { kind: 'impersonation', impersonatorId: platformAdmin.id }),
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `${API}/booking/link/${org.id}/`, headers: auth(token) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ organization: org.id, token: page?.token, path: `/book/${page?.token}` });
    }
    expect(await counts()).toEqual(before);
  });
});
