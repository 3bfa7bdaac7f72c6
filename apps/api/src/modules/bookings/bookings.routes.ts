// Bookings (issue 12; part 1 §7 "appointment, booking, date, slot, admin booking"; part 3 §7 Bookings).
// Public, no sign-in, by the organization's page token: appointment/{token}/ (summary), …/date/ (open days),
// …/slot/?date= (slots with places left), …/booking/ (book), …/booking/{booking token}/ (view) and …/cancel/.
// Console: booking/ (list), booking/{id}/, booking/{id}/status/, booking/{id}/payment/, booking/link/{organization}/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BOOKINGS_PER_ADDRESS_PER_HOUR,
  BOOKINGS_PER_MOBILE_PER_DAY,
  BOOKING_ROLES,
  ZBooking,
  ZBookingCreate,
  ZBookingDay,
  ZBookingLink,
  ZBookingListQuery,
  ZBookingSaved,
  ZBookingSlot,
  ZBookingStatusChange,
  ZOfflinePayment,
  ZPublicBooking,
  ZPublicOrganization,
  ZSlotQuery,
} from '@sc/shared/bookings';
import { ZBoolParam, paginated } from '@sc/shared/list';
import { requestMeta, requireActor } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  parseId,
  signedIn as preValidation,
} from '../../http/route-helpers.ts';
import {
  cancelPublicBooking,
  changeBookingStatus,
  createPublicBooking,
  getBooking,
  getBookingLink,
  getPublicBooking,
  getPublicOrganization,
  listBookings,
  listPublicDays,
  listPublicSlots,
  recordOfflinePayment,
} from './bookings.service.ts';

const publicTags = ['bookings (public)'];
const tags = ['bookings'];
const WHO = `Allowed: ${BOOKING_ROLES.join(', ')} (403 otherwise); a booking or organization outside the caller's scope answers 404.`;
const PUBLIC = 'No sign-in: the organization is named by its page token (404 for an unknown token or an organization that takes no bookings).';

const ZToken = z.object({ token: z.string() });
const ZBookingToken = z.object({ token: z.string(), booking: z.string() });

export const bookingRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---- Public page -----------------------------------------------------------------------------------------------
  app.get(
    '/appointment/:token/',
    {
      schema: {
        tags: publicTags,
        summary: "The organization's booking summary: name, address, price (minor units), currency, open weekdays",
        description: PUBLIC,
        params: ZToken,
        response: { 200: ZPublicOrganization },
      },
    },
    async (request) => getPublicOrganization(app.ctx, request.params.token),
  );

  app.get(
    '/appointment/:token/date/',
    {
      schema: {
        tags: publicTags,
        summary: 'The next 30 days on which the organization takes bookings (its zone), with the places left',
        description: PUBLIC,
        params: ZToken,
        response: { 200: z.array(ZBookingDay) },
      },
    },
    async (request) => listPublicDays(app.ctx, request.params.token),
  );

  app.get(
    '/appointment/:token/slot/',
    {
      schema: {
        tags: publicTags,
        summary: 'The slots of one day still offered, with places left (total_bookings_per_slot − live bookings)',
        description: `${PUBLIC} A day that is not offered answers an empty list.`,
        params: ZToken,
        querystring: ZSlotQuery,
        response: { 200: z.array(ZBookingSlot) },
      },
    },
    async (request) => listPublicSlots(app.ctx, request.params.token, request.query.date),
  );

  app.post(
    '/appointment/:token/booking/',
    {
      schema: {
        tags: publicTags,
        summary: 'Book a slot: NEW, or PENDING_PAYMENT when the organization sets a price; answers the booking token',
        description: `${PUBLIC} The mobile must be a mobile of the organization's country. A full slot answers 400 on start. At most ${BOOKINGS_PER_MOBILE_PER_DAY} bookings per mobile in 24 hours and ${BOOKINGS_PER_ADDRESS_PER_HOUR} per client address in an hour (429). An SMS, and an e-mail when given, with the view/cancel link go through the outbox.`,
        params: ZToken,
        body: ZBookingCreate,
        response: { 201: ZPublicBooking },
      },
      // The per-mobile and per-address limits of the service (429).
      config: { apiDoc: { rateLimited: true } },
    },
    async (request, reply) => {
      const saved = await createPublicBooking(app.ctx, request.params.token, request.body, requestMeta(request));
      return reply.status(201).send(saved);
    },
  );

  app.get(
    '/appointment/:token/booking/:booking/',
    {
      schema: {
        tags: publicTags,
        summary: 'A booking as its patient sees it (by its token)',
        description: PUBLIC,
        params: ZBookingToken,
        response: { 200: ZPublicBooking },
      },
    },
    async (request) => getPublicBooking(app.ctx, request.params.token, request.params.booking),
  );

  app.post(
    '/appointment/:token/booking/:booking/cancel/',
    {
      schema: {
        tags: publicTags,
        summary: "Cancel a booking by its token, up to the organization's can_be_cancel_before hours ahead of the slot",
        description: PUBLIC,
        params: ZBookingToken,
        response: { 200: ZPublicBooking },
      },
    },
    async (request) =>
      cancelPublicBooking(app.ctx, request.params.token, request.params.booking, requestMeta(request)),
  );

  // ---- Console ---------------------------------------------------------------------------------------------------
  app.get(
    '/booking/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Bookings (search by name, mobile, e-mail; status; created period; slot; Slot Data range)',
        description: `${WHO} created_after/created_before and slot_after/slot_before are whole days in the Timezone header's zone.`,
        querystring: ZBookingListQuery,
        response: { 200: paginated(ZBooking) },
      },
    },
    async (request) => listBookings(app.ctx, requireActor(request), request.query, request),
  );

  app.get(
    '/booking/link/:id/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: "The organization's public booking page link (/book/<token>); every organization has one",
        description: WHO,
        params: ZIdParams,
        response: { 200: ZBookingLink },
      },
    },
    async (request) => getBookingLink(app.ctx, requireActor(request), parseId(request.params.id)),
  );

  app.get(
    '/booking/:id/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'One booking, with the moves it allows now',
        description: WHO,
        params: ZIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional(), token: z.string().max(200).optional() }),
        response: { 200: ZBooking },
      },
    },
    async (request) =>
      getBooking(app.ctx, requireActor(request), parseId(request.params.id), request.query.using_read_db === true),
  );

  app.post(
    '/booking/:id/status/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Move a booking: NEW → PENDING_PAYMENT → PAID → COMPLETED, or CANCELED before the cut-off',
        description: `${WHO} A move the status does not allow, or a cancel after can_be_cancel_before hours ahead of the slot, answers 400 on status.`,
        params: ZIdParams,
        body: ZBookingStatusChange,
        response: { 200: ZBookingSaved },
      },
    },
    async (request) =>
      changeBookingStatus(
        app.ctx,
        requireActor(request),
        parseId(request.params.id),
        request.body.status,
        requestMeta(request),
      ),
  );

  app.post(
    '/booking/:id/payment/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Record an offline payment (method, reference): the booking becomes PAID',
        description: `${WHO} Only where the organization allows offline payment, for a priced NEW or PENDING_PAYMENT booking.`,
        params: ZIdParams,
        body: ZOfflinePayment,
        response: { 200: ZBookingSaved },
      },
    },
    async (request) =>
      recordOfflinePayment(app.ctx, requireActor(request), parseId(request.params.id), request.body, requestMeta(request)),
  );
};
