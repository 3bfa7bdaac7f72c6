// The Booking modal (part 3 §2, extra large): name, mobile, e-mail, slot with start and end, organization, price,
// status with its change time, created, id, age, token and the payment record. Staff move the booking along the
// moves the API offers for it now (next_statuses: cancel only before the organization's cut-off) and record an
// offline payment where the organization allows it; the list refreshes on success.
import { useState } from 'react';
import { Alert, Anchor, Button, Code, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import {
  OFFLINE_PAYMENT_METHODS,
  PAYMENT_REFERENCE_MAX,
  clinicTime,
  formatBookingPrice,
  type TBooking,
  type TBookingStatus,
  type TOfflinePaymentMethod,
} from '@sc/shared/bookings';
import { BOOKING_STATUS_LABELS, PAYMENT_METHOD_LABELS } from '@sc/shared/labels';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { QueryDetail } from '../../../components/QueryDetail.tsx';
import { fullName } from '../../../components/list/ListParts.tsx';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { useBooking, useMoveBooking, useOfflinePayment } from '../bookings.api.ts';
import { BookingStatusBadge } from './BookingList.tsx';

const when = (iso: string | null | undefined) => (iso ? dayjs(iso).format('DD MMM YYYY hh:mm A') : '—');

/** A slot's start or end in the clinic's time zone, with the zone's short name (the slot as the patient booked it). */
const slotWhen = (iso: string | null | undefined, timeZone: string) => {
  if (!iso) return '—';
  const t = clinicTime(iso, timeZone);
  return `${t.date} ${t.time} (${t.zone})`;
};

/** The move's button: 'Mark as pending payment', or 'Cancel booking' for the move that frees the place. */
const moveLabel = (status: TBookingStatus): string =>
  status === 'CANCELED' ? 'Cancel booking' : `Mark as ${BOOKING_STATUS_LABELS[status].toLowerCase()}`;

function Fact({ label, children, testId, wide }: { label: string; children: React.ReactNode; testId?: string; wide?: boolean }) {
  return (
    // `wide`: the whole row of the grid (the 32-character token would break inside a third of it).
    <Stack gap={2} style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

export function BookingDialog({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const phone = usePhoneLayout();
  return (
    <Modal opened={id !== undefined} onClose={onClose} size="xl" fullScreen={phone} title="Booking">
      {id !== undefined && <BookingDetail id={id} />}
    </Modal>
  );
}

function BookingDetail({ id }: { id: number }) {
  return <QueryDetail query={useBooking(id)}>{(booking) => <BookingFacts booking={booking} />}</QueryDetail>;
}

function BookingFacts({ booking: b }: { booking: TBooking }) {
  const move = useMoveBooking();
  const pay = useOfflinePayment();
  const [error, setError] = useState<string | null>(null);
  const [method, setMethod] = useState<TOfflinePaymentMethod>('CASH');
  const [reference, setReference] = useState('');

  const fail = (e: unknown) => {
    if (!(e instanceof ApiError && (e.status === 401 || e.status >= 500))) setError(errorMessage(e));
  };
  const doMove = async (status: TBookingStatus) => {
    setError(null);
    try {
      const saved = await move.mutateAsync({ id: b.id, status });
      notifications.show({ color: 'teal', message: saved.detail });
    } catch (e) {
      fail(e);
    }
  };
  const doPay = async () => {
    setError(null);
    try {
      const saved = await pay.mutateAsync({ id: b.id, payment: { method, reference } });
      notifications.show({ color: 'teal', message: saved.detail });
      setReference('');
    } catch (e) {
      fail(e);
    }
  };
  const hasPayment = Object.keys(b.payment).length > 0;

  return (
    <Stack gap="lg" data-testid="booking-dialog">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        <Fact label="Name" testId="booking-name">{fullName(b)}</Fact>
        <Fact label="Mobile">{b.mobile ?? '—'}</Fact>
        <Fact label="E-mail">{b.email ?? '—'}</Fact>
        <Fact label="Slot">{b.slot_data ? `Slot ${b.slot_data.id}` : '—'}</Fact>
        <Fact label="Start" testId="booking-start">{slotWhen(b.slot_data?.start, b.organization_data.timezone)}</Fact>
        <Fact label="End">{slotWhen(b.slot_data?.end, b.organization_data.timezone)}</Fact>
        <Fact label="Organization">
          <Anchor component={Link} to={`/organization/${b.organization}`}>
            {b.organization_data.name}
          </Anchor>
        </Fact>
        <Fact label="Price" testId="booking-price">{formatBookingPrice(b.price, b.currency)}</Fact>
        <Fact label="Status">
          <Group gap="xs">
            <BookingStatusBadge status={b.status} />
            <Text size="xs" c="dimmed">
              since {when(b.status_changed)}
            </Text>
          </Group>
        </Fact>
        <Fact label="Created">{when(b.created)}</Fact>
        <Fact label="ID">{b.id}</Fact>
        <Fact label="Age">{b.age ?? '—'}</Fact>
        <Fact label="Token" wide>
          <Code>{b.token}</Code>
        </Fact>
      </SimpleGrid>

      <Stack gap={4}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          Payment
        </Text>
        <Code block data-testid="booking-payment">
          {hasPayment ? JSON.stringify(b.payment, null, 2) : 'No payment recorded.'}
        </Code>
      </Stack>

      {error && (
        <Alert color="red" data-testid="booking-error">
          {error}
        </Alert>
      )}

      {b.can_pay_offline && (
        <Stack gap="xs" data-testid="booking-offline-payment">
          <Text fw={600}>Record an offline payment</Text>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select
              label="Method"
              data={OFFLINE_PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
              value={method}
              allowDeselect={false}
              onChange={(v) => v && setMethod(v as TOfflinePaymentMethod)}
              w={{ base: '100%', sm: 180 }}
              data-testid="booking-payment-method"
            />
            <TextInput
              label="Reference"
              value={reference}
              maxLength={PAYMENT_REFERENCE_MAX}
              onChange={(e) => setReference(e.currentTarget.value)}
              w={{ base: '100%', sm: 240 }}
              data-testid="booking-payment-reference"
            />
            <Button onClick={() => void doPay()} loading={pay.isPending} data-testid="booking-payment-save">
              Record payment
            </Button>
          </Group>
        </Stack>
      )}

      {b.next_statuses.length > 0 && (
        <Group gap="sm" wrap="wrap" data-testid="booking-moves">
          {b.next_statuses.map((status) => (
            <Button
              key={status}
              variant={status === 'CANCELED' ? 'light' : 'filled'}
              color={status === 'CANCELED' ? 'red' : undefined}
              loading={move.isPending && move.variables?.status === status}
              onClick={() => void doMove(status)}
              data-testid={`booking-move-${status}`}
            >
              {moveLabel(status)}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}
