// The public booking page `/book/<organization token>` (issue 12), outside the console's shell, no sign-in,
// phone-first: the organization's name, address and price; its open days of the next 30 days; the slots of the
// chosen day with the places left; the patient's form (first and last name, mobile for the organization's
// country, optional e-mail, age), checked with the API's own schema; then the booking with its token.
// `/book/<token>/booking/<booking token>` (the link of the confirmation SMS and e-mail) shows it and cancels it.
import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Chip,
  Code,
  Container,
  Group,
  Loader,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCalendarCheck, IconMapPin } from '@tabler/icons-react';
import { useParams } from 'react-router';
import {
  BOOKING_AGE_MAX,
  BOOKING_AGE_MIN,
  BOOKING_MESSAGES,
  WEEKDAY_LABELS,
  ZBookingCreate,
  bookingMobileProblem,
  formatBookingPrice,
  type TBookingSlot,
  type TPublicBooking,
  type TPublicOrganization,
} from '@sc/shared/bookings';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { NumberField } from '../../../components/NumberField.tsx';
import { PhoneInput } from '../../../components/PhoneInput.tsx';
import {
  useCancelPublicBooking,
  useCreatePublicBooking,
  usePublicBooking,
  usePublicDays,
  usePublicOrganization,
  usePublicSlots,
} from '../bookings.api.ts';

const timeIn = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: true, timeZone: zone }).format(new Date(iso));
const dateIn = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: zone }).format(
    new Date(iso),
  );
const dayLabel = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  return {
    day: new Intl.DateTimeFormat('en-GB', { day: 'numeric', timeZone: 'UTC' }).format(d),
    month: new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' }).format(d),
  };
};

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <Container size={560} px="md" py="lg" data-testid="public-booking">
      {children}
    </Container>
  );
}

export function PublicBookingPage() {
  const { token = '', booking } = useParams();
  const summary = usePublicOrganization(token);
  if (summary.isError) {
    const notBooking = summary.error instanceof ApiError && summary.error.status === 404;
    return (
      <Shell>
        <Alert color={notBooking ? 'gray' : 'red'} title="Booking" data-testid="public-booking-error">
          {notBooking ? (errorMessage(summary.error) === 'Not found.' ? 'This booking page does not exist.' : errorMessage(summary.error)) : errorMessage(summary.error)}
        </Alert>
      </Shell>
    );
  }
  if (!summary.data) {
    return (
      <Center h={240}>
        <Loader />
      </Center>
    );
  }
  return (
    <Shell>
      <Stack gap="lg">
        <OrganizationHeader org={summary.data} />
        {booking ? <BookingView token={token} booking={booking} org={summary.data} /> : <BookingFlow token={token} org={summary.data} />}
      </Stack>
    </Shell>
  );
}

function OrganizationHeader({ org }: { org: TPublicOrganization }) {
  return (
    <Stack gap={4}>
      <Title order={1} size="h2" data-testid="public-booking-name">
        {org.name}
      </Title>
      {org.address && (
        <Group gap={4} wrap="nowrap" align="flex-start">
          <IconMapPin size={16} style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm" c="dimmed">
            {org.address}
          </Text>
        </Group>
      )}
      <Group gap="xs">
        <Badge size="lg" variant="light" color={org.price > 0 ? 'blue' : 'teal'} data-testid="public-booking-price">
          {org.price > 0 ? formatBookingPrice(org.price, org.currency) : 'Free'}
        </Badge>
        {org.price > 0 && org.allow_offline_payment && (
          <Text size="xs" c="dimmed">
            Pay at the clinic
          </Text>
        )}
      </Group>
    </Stack>
  );
}

function BookingFlow({ token, org }: { token: string; org: TPublicOrganization }) {
  const days = usePublicDays(token, true);
  const [date, setDate] = useState<string | null>(null);
  const [slot, setSlot] = useState<TBookingSlot | null>(null);
  const [done, setDone] = useState<TPublicBooking | null>(null);
  const slots = usePublicSlots(token, date);

  if (done) return <BookingDone booking={done} org={org} />;
  const openDays = days.data ?? [];

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Text fw={600}>1. Choose a day</Text>
        {days.isLoading && <Loader size="sm" />}
        {days.data && openDays.length === 0 && <Text c="dimmed">{BOOKING_MESSAGES.dateNotOffered}</Text>}
        <ScrollArea type="auto" offsetScrollbars>
          <Group gap="xs" wrap="nowrap" data-testid="public-booking-days">
            {openDays.map((d) => {
              const label = dayLabel(d.date);
              const selected = d.date === date;
              const full = d.places_left === 0;
              return (
                <UnstyledButton
                  key={d.date}
                  disabled={full}
                  onClick={() => {
                    setDate(d.date);
                    setSlot(null);
                  }}
                  aria-pressed={selected}
                  data-testid={`public-day-${d.date}`}
                  style={{
                    minWidth: 64,
                    padding: '8px 6px',
                    borderRadius: 10,
                    textAlign: 'center',
                    border: `1px solid ${selected ? 'var(--mantine-color-blue-8)' : 'var(--mantine-color-gray-4)'}`,
                    background: selected ? 'var(--mantine-color-blue-8)' : full ? 'var(--mantine-color-gray-1)' : 'white',
                    color: selected ? 'white' : full ? 'var(--mantine-color-gray-6)' : undefined,
                  }}
                >
                  <Text size="xs" fw={600}>
                    {WEEKDAY_LABELS[d.weekday]}
                  </Text>
                  <Text size="lg" fw={700} lh={1.1}>
                    {label.day}
                  </Text>
                  <Text size="xs">{label.month}</Text>
                  <VisuallyHidden>{`, ${d.places_left} places left`}</VisuallyHidden>
                </UnstyledButton>
              );
            })}
          </Group>
        </ScrollArea>
      </Stack>

      {date && (
        <Stack gap="xs">
          <Text fw={600}>2. Choose a time</Text>
          {slots.isLoading && <Loader size="sm" />}
          {slots.data && slots.data.length === 0 && <Text c="dimmed">{BOOKING_MESSAGES.dateNotOffered}</Text>}
          <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" data-testid="public-booking-slots">
            {(slots.data ?? []).map((s) => (
              <Chip
                key={s.start}
                checked={slot?.start === s.start}
                disabled={s.places_left === 0}
                onChange={() => setSlot(s)}
                radius="md"
                data-testid="public-slot"
                styles={{ label: { width: '100%', justifyContent: 'center' } }}
              >
                {timeIn(s.start, org.timezone)} · {s.places_left === 0 ? 'full' : `${s.places_left} left`}
              </Chip>
            ))}
          </SimpleGrid>
        </Stack>
      )}

      {slot && (
        <PatientForm
          token={token}
          org={org}
          slot={slot}
          onBooked={setDone}
          onSlotGone={() => {
            setSlot(null);
            void slots.refetch();
          }}
        />
      )}
    </Stack>
  );
}

type FormValues = { first_name: string; last_name: string; mobile: string; email: string; age: number | string };

function PatientForm({
  token,
  org,
  slot,
  onBooked,
  onSlotGone,
}: {
  token: string;
  org: TPublicOrganization;
  slot: TBookingSlot;
  onBooked: (b: TPublicBooking) => void;
  onSlotGone: () => void;
}) {
  const create = useCreatePublicBooking(token);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: { first_name: '', last_name: '', mobile: '', email: '', age: '' },
    validate: (values) => {
      const parsed = ZBookingCreate.safeParse({ ...values, start: slot.start, age: values.age === '' ? undefined : Number(values.age) });
      const errors: Record<string, string> = {};
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const key = String(issue.path[0]);
          if (key !== 'start') errors[key] ??= issue.message;
        }
      }
      if (!errors.mobile) {
        const problem = bookingMobileProblem(values.mobile, org.country_code);
        if (problem) errors.mobile = problem;
      }
      return errors;
    },
  });

  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      const booked = await create.mutateAsync({
        start: slot.start,
        first_name: values.first_name,
        last_name: values.last_name,
        mobile: values.mobile,
        email: values.email,
        age: Number(values.age),
      });
      onBooked(booked);
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) {
        const fields = e.body as Record<string, string[] | undefined>;
        for (const key of ['first_name', 'last_name', 'mobile', 'email', 'age'] as const) {
          const msg = fields[key]?.[0];
          if (msg) form.setFieldError(key, msg);
        }
        if (fields.start?.[0]) {
          setError(fields.start[0]);
          onSlotGone();
        }
        return;
      }
      setError(errorMessage(e));
    }
  });

  return (
    <Card withBorder radius="md" p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>3. Your details</Text>
          <Text size="sm" c="dimmed" data-testid="public-booking-chosen">
            {dateIn(slot.start, org.timezone)}, {timeIn(slot.start, org.timezone)} – {timeIn(slot.end, org.timezone)}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label="First name" required autoComplete="given-name" {...form.getInputProps('first_name')} data-testid="public-first-name" />
            <TextInput label="Last name" autoComplete="family-name" {...form.getInputProps('last_name')} data-testid="public-last-name" />
          </SimpleGrid>
          <PhoneInput
            label="Mobile"
            required
            country={org.country_code}
            description={org.country_code ? `A mobile number of ${org.country_code}` : undefined}
            {...form.getInputProps('mobile')}
            value={form.values.mobile}
            onChange={(mobile) => form.setFieldValue('mobile', mobile)}
            testId="public-mobile"
          />
          <TextInput label="E-mail (optional)" type="email" autoComplete="email" {...form.getInputProps('email')} data-testid="public-email" />
          <NumberField
            label="Age"
            required
            min={BOOKING_AGE_MIN}
            max={BOOKING_AGE_MAX}
            integer
            rangeMessage={BOOKING_MESSAGES.age}
            {...form.getInputProps('age')}
            data-testid="public-age"
            w={140}
          />
          {error && (
            <Alert color="red" data-testid="public-booking-form-error">
              {error}
            </Alert>
          )}
          <Button type="submit" size="md" fullWidth loading={create.isPending} data-testid="public-booking-confirm">
            Confirm booking
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

function BookingDone({ booking, org }: { booking: TPublicBooking; org: TPublicOrganization }) {
  return (
    <Alert color="teal" icon={<IconCalendarCheck />} title={booking.detail ?? BOOKING_MESSAGES.created} data-testid="public-booking-done">
      <Stack gap={6}>
        <Text size="sm">
          {booking.start ? `${dateIn(booking.start, org.timezone)}, ${timeIn(booking.start, org.timezone)}` : ''}
        </Text>
        <Text size="sm">
          Status: <b data-testid="public-booking-status">{booking.status}</b>
        </Text>
        <Text size="sm">Your booking token:</Text>
        <Code block data-testid="public-booking-token">
          {booking.token}
        </Code>
        <Text size="xs" c="dimmed">
          We sent the link to view or cancel it to your mobile.
        </Text>
      </Stack>
    </Alert>
  );
}

function BookingView({ token, booking, org }: { token: string; booking: string; org: TPublicOrganization }) {
  const view = usePublicBooking(token, booking);
  const cancel = useCancelPublicBooking(token);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  if (view.isError) return <Alert color="gray">{errorMessage(view.error) === 'Not found.' ? 'This booking does not exist.' : errorMessage(view.error)}</Alert>;
  if (!view.data) return <Loader />;
  const b = view.data;
  return (
    <Card withBorder radius="md" p="md" data-testid="public-booking-view">
      <Stack gap="sm">
        <Text fw={600}>
          {b.first_name} {b.last_name}
        </Text>
        {b.start && (
          <Text size="sm">
            {dateIn(b.start, org.timezone)}, {timeIn(b.start, org.timezone)}
            {b.end ? ` – ${timeIn(b.end, org.timezone)}` : ''}
          </Text>
        )}
        <Text size="sm">
          Status: <b data-testid="public-booking-status">{b.status}</b>
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        {done && (
          <Alert color="teal" data-testid="public-booking-canceled">
            {done}
          </Alert>
        )}
        {b.can_cancel ? (
          <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="public-booking-cancel">
            Cancel booking
          </Button>
        ) : (
          b.status !== 'CANCELED' &&
          b.cancel_before && (
            <Text size="xs" c="dimmed" data-testid="public-booking-cancel-closed">
              {org.can_be_cancel_before
                ? BOOKING_MESSAGES.cancelTooLate(org.can_be_cancel_before)
                : 'This booking can no longer be canceled online.'}
            </Text>
          )
        )}
      </Stack>
      {/* A patient's cancel frees the place at once: ask first. */}
      <ConfirmDialog
        opened={confirming}
        title="Cancel booking"
        message={`Cancel your booking${b.start ? ` of ${dateIn(b.start, org.timezone)}, ${timeIn(b.start, org.timezone)}` : ''}?`}
        confirmLabel="Cancel booking"
        cancelLabel="Keep it"
        danger
        loading={cancel.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setError(null);
          cancel.mutate(booking, {
            onSuccess: (saved) => setDone(saved.detail ?? BOOKING_MESSAGES.canceled),
            onError: (e) => setError(errorMessage(e)),
            onSettled: () => setConfirming(false),
          });
        }}
      />
    </Card>
  );
}
