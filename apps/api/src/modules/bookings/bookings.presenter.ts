// Booking rows → API shape (part 3 §3 Booking). Staff see the whole record; a patient holding the token sees the
// public view (no id, mobile, payment record or client address).
import {
  OFFLINE_PAYABLE_STATUSES,
  canCancelAt,
  cancelDeadline,
  nextBookingStatuses,
  type TBooking,
  type TPublicBooking,
} from '@sc/shared/bookings';
import type { BookingRow, OrganizationRow } from './bookings.queries.ts';

/** What staff may do now: the status moves (cancel only before the cut-off) and whether an offline payment fits. */
export function allowedMoves(row: BookingRow, now: Date): TBooking['next_statuses'] {
  return nextBookingStatuses(row.status, row.price).filter(
    (s) => s !== 'CANCELED' || row.slotStart === null || canCancelAt(row.slotStart, row.canBeCancelBefore, now),
  );
}

export function presentBooking(row: BookingRow, now: Date): TBooking {
  return {
    id: row.id,
    token: row.token,
    first_name: row.firstName,
    last_name: row.lastName,
    mobile: row.mobile,
    email: row.email,
    age: row.age,
    slot: row.slotId,
    slot_data:
      row.slotId !== null && row.slotStart && row.slotEnd
        ? { id: row.slotId, start: row.slotStart.toISOString(), end: row.slotEnd.toISOString() }
        : null,
    organization: row.organizationId,
    organization_data: { id: row.organizationId, name: row.organizationName, timezone: row.organizationTimezone },
    currency: row.currency,
    price: row.price,
    status: row.status,
    status_changed: row.statusChanged.toISOString(),
    created: row.created.toISOString(),
    payment: row.payment,
    next_statuses: allowedMoves(row, now),
    can_pay_offline: row.allowOfflinePayment && row.price > 0 && OFFLINE_PAYABLE_STATUSES.includes(row.status),
  };
}

export function organizationAddress(org: Pick<OrganizationRow, 'address1' | 'address2' | 'address3' | 'state' | 'zipcode' | 'country'>): string {
  return [org.address1, org.address2, org.address3, org.state, org.zipcode, org.country]
    .map((p) => p?.trim())
    .filter((p): p is string => Boolean(p))
    .join(', ');
}

export function presentPublicBooking(row: BookingRow, org: OrganizationRow, now: Date): TPublicBooking {
  const live = row.status !== 'CANCELED' && row.status !== 'COMPLETED';
  return {
    token: row.token,
    first_name: row.firstName,
    last_name: row.lastName,
    status: row.status,
    start: row.slotStart?.toISOString() ?? null,
    end: row.slotEnd?.toISOString() ?? null,
    price: row.price,
    currency: row.currency,
    organization: { name: org.name, address: organizationAddress(org), timezone: org.timezone },
    can_cancel: live && row.slotStart !== null && canCancelAt(row.slotStart, org.canBeCancelBefore, now),
    cancel_before: row.slotStart ? cancelDeadline(row.slotStart, org.canBeCancelBefore).toISOString() : null,
  };
}
