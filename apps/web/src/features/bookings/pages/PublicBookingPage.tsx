// The public booking page `/book/<organization token>` (issue 12), outside the console's shell, no sign-in,
// phone-first: the organization's name, address and price; its open days of the next 30 days; the slots of the
// chosen day with the places left; the patient's form (first and last name, mobile for the organization's
// country, optional e-mail, age), checked with the API's own schema; then the booking and the link to its page.
// `/book/<token>/booking/<booking token>` (the link of the confirmation SMS and e-mail) shows it and cancels it.
// In the patient's language (issue 23 item 17): the organization's languages that have a catalogue (i18n/), the
// browser's language when offered, English otherwise; dates and times in that language, in the clinic's named zone.
import '../../../app/consoleStyles.ts';
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Chip,
  Container,
  CopyButton,
  Group,
  Loader,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCalendarCheck, IconCopy, IconExternalLink, IconLanguage, IconMapPin } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  BOOKING_AGE_MAX,
  BOOKING_AGE_MIN,
  BOOKING_MESSAGES,
  ZBookingCreate,
  bookingMobileProblem,
  bookingViewPath,
  formatBookingPrice,
  type TBookingSlot,
  type TPublicBooking,
  type TPublicOrganization,
} from '@sc/shared/bookings';
import { BOOKING_STATUS_LABELS, labelOf } from '@sc/shared/labels';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { NumberField } from '../../../components/NumberField.tsx';
import { PhoneInput } from '../../../components/PhoneInput.tsx';
import { CATALOGUES, FALLBACK_LANGUAGE, hasCatalogue, localeTag, pickLanguage } from '../../../i18n/i18n.ts';
import { en } from '../../../i18n/locales/en.ts';
import {
  useCancelPublicBooking,
  useCreatePublicBooking,
  usePublicBooking,
  usePublicDays,
  usePublicOrganization,
  usePublicSlots,
} from '../bookings.api.ts';
import { wantAppHosts } from '../../../components/appHosts.ts';

/** Where the patient's choice of language is remembered, so the booking's own page opens in it too. */
export const BOOKING_LANGUAGE_KEY = 'sc.booking.language';

const storedLanguage = (): string | null => {
  try {
    return window.localStorage.getItem(BOOKING_LANGUAGE_KEY);
  } catch {
    return null;
  }
};

/**
 * A message of the shared rules or the API (English) in the page's language: found by its English text among the
 * catalogue's `messages`; a text without a translation is shown as it came.
 */
function translated(t: TFunction, text: string): string {
  const key = Object.entries(en.booking.messages).find(([, english]) => english === text)?.[0];
  return key ? t(`messages.${key}`) : text;
}

/** Dates, times, zone, country and price as the page's language writes them, in the clinic's time zone. */
type Formats = {
  date: (iso: string) => string;
  time: (iso: string) => string;
  /** 'India Standard Time (GMT+5:30)' in the page's language. */
  zoneName: string;
  /** 'GMT+5:30': after a time that is read outside the slot list. */
  zoneShort: (iso: string) => string;
  day: (date: string) => { weekday: string; day: string; month: string };
  country: (code: string) => string;
  price: (minor: number, currency: string | null) => string;
};

function useFormats(language: string, org: TPublicOrganization): Formats {
  return useMemo(() => {
    const locale = localeTag(language, org.country_code);
    const zone = org.timezone;
    const fmt = (options: Intl.DateTimeFormatOptions, timeZone = zone) =>
      new Intl.DateTimeFormat(locale, { ...options, timeZone });
    const zonePart = (style: 'long' | 'shortOffset', at: Date) =>
      fmt({ timeZoneName: style })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value ?? zone;
    const now = new Date();
    const long = zonePart('long', now);
    const offset = zonePart('shortOffset', now);
    const dateF = fmt({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    const timeF = fmt({ hour: 'numeric', minute: '2-digit' });
    return {
      date: (iso) => dateF.format(new Date(iso)),
      time: (iso) => timeF.format(new Date(iso)),
      zoneName: long === offset ? long : `${long} (${offset})`,
      zoneShort: (iso) => zonePart('shortOffset', new Date(iso)),
      day: (date) => {
        const d = new Date(`${date}T00:00:00Z`);
        const part = (options: Intl.DateTimeFormatOptions) => fmt(options, 'UTC').format(d);
        return {
          weekday: part({ weekday: 'short' }),
          day: part({ day: 'numeric' }),
          month: part({ month: 'short' }),
        };
      },
      country: (code) => {
        try {
          return new Intl.DisplayNames([locale], { type: 'region' }).of(code.toUpperCase()) ?? code;
        } catch {
          return code;
        }
      },
      price: (minor, currency) => {
        if (!currency) return formatBookingPrice(minor, currency);
        try {
          return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
        } catch {
          return formatBookingPrice(minor, currency);
        }
      },
    };
  }, [language, org.country_code, org.timezone]);
}

function Shell({ children, language }: { children: React.ReactNode; language: string }) {
  return (
    // `lang` so screen readers speak the page's language, and the browser picks its fonts and hyphenation.
    <Container size={560} px="md" py="lg" data-testid="public-booking" lang={language}>
      {children}
    </Container>
  );
}

/** What the page says, in which language: the organization's languages with a catalogue, English first. */
type Speech = {
  t: TFunction;
  language: string;
  offered: { iso: string; name: string }[];
  choose: (iso: string) => void;
};

function useSpeech(org: TPublicOrganization | undefined): Speech {
  const isos = org
    ? [...new Set([FALLBACK_LANGUAGE, ...org.languages.map((l) => l.iso_code.toLowerCase())])].filter(
        hasCatalogue,
      )
    : Object.keys(CATALOGUES);
  const [chosen, setChosen] = useState<string | null>(null);
  const language = chosen && isos.includes(chosen) ? chosen : pickLanguage(isos, undefined, storedLanguage());
  const { t } = useTranslation('booking', { lng: language });
  return {
    t,
    language,
    offered: isos.map((iso) => ({ iso, name: CATALOGUES[iso]?.booking.languageName ?? iso })),
    choose: (iso) => {
      setChosen(iso);
      try {
        window.localStorage.setItem(BOOKING_LANGUAGE_KEY, iso);
      } catch {
        // A private window may refuse storage: the choice still holds on this page.
      }
    },
  };
}

export function PublicBookingPage() {
  // Its dialogs and notices: loaded as it opens, not with the sign-in screens.
  useEffect(() => wantAppHosts(), []);
  const { token = '', booking } = useParams();
  const summary = usePublicOrganization(token);
  const speech = useSpeech(summary.data);
  const { t } = speech;
  if (summary.isError) {
    const notBooking = summary.error instanceof ApiError && summary.error.status === 404;
    const text = errorMessage(summary.error);
    return (
      <Shell language={speech.language}>
        <Alert color={notBooking ? 'gray' : 'red'} data-testid="public-booking-error">
          {notBooking && text === 'Not found.' ? t('pageNotFound') : translated(t, text)}
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
    <Shell language={speech.language}>
      <Stack gap="lg">
        <OrganizationHeader org={summary.data} speech={speech} />
        {booking ? (
          <BookingView token={token} booking={booking} org={summary.data} speech={speech} />
        ) : (
          <BookingFlow token={token} org={summary.data} speech={speech} />
        )}
      </Stack>
    </Shell>
  );
}

function OrganizationHeader({ org, speech }: { org: TPublicOrganization; speech: Speech }) {
  const { t } = speech;
  const formats = useFormats(speech.language, org);
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Title order={1} size="h2" data-testid="public-booking-name">
          {org.name}
        </Title>
        {speech.offered.length > 1 && (
          <Select
            aria-label={t('language')}
            data={speech.offered.map((l) => ({ value: l.iso, label: l.name }))}
            value={speech.language}
            onChange={(iso) => iso && speech.choose(iso)}
            allowDeselect={false}
            leftSection={<IconLanguage size={16} />}
            size="xs"
            w={140}
            style={{ flexShrink: 0 }}
            comboboxProps={{ withinPortal: true }}
            data-testid="public-booking-language"
          />
        )}
      </Group>
      {org.address && (
        <Group gap={4} wrap="nowrap" align="flex-start">
          <IconMapPin size={16} style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm" c="dimmed">
            {org.address}
          </Text>
        </Group>
      )}
      <Group gap="xs">
        <Badge
          size="lg"
          variant="light"
          tt="none"
          color={org.price > 0 ? 'blue' : 'teal'}
          data-testid="public-booking-price"
        >
          {org.price > 0 ? formats.price(org.price, org.currency) : t('free')}
        </Badge>
        {org.price > 0 && org.allow_offline_payment && (
          <Text size="xs" c="dimmed">
            {t('payAtClinic')}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

function BookingFlow({ token, org, speech }: { token: string; org: TPublicOrganization; speech: Speech }) {
  const { t } = speech;
  const formats = useFormats(speech.language, org);
  const days = usePublicDays(token, true);
  const [date, setDate] = useState<string | null>(null);
  const [slot, setSlot] = useState<TBookingSlot | null>(null);
  const [done, setDone] = useState<TPublicBooking | null>(null);
  const slots = usePublicSlots(token, date);

  if (done) return <BookingDone token={token} booking={done} org={org} speech={speech} />;
  const openDays = days.data ?? [];

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Text fw={600}>1. {t('chooseDay')}</Text>
        {days.isLoading && <Loader size="sm" />}
        {days.data && openDays.length === 0 && (
          <Text c="dimmed">{translated(t, BOOKING_MESSAGES.dateNotOffered)}</Text>
        )}
        <ScrollArea type="auto" offsetScrollbars>
          <Group gap="xs" wrap="nowrap" data-testid="public-booking-days">
            {openDays.map((d) => {
              const label = formats.day(d.date);
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
                    background: selected
                      ? 'var(--mantine-color-blue-8)'
                      : full
                        ? 'var(--mantine-color-gray-1)'
                        : 'white',
                    color: selected ? 'white' : full ? 'var(--mantine-color-gray-6)' : undefined,
                  }}
                >
                  <Text size="xs" fw={600}>
                    {label.weekday}
                  </Text>
                  <Text size="lg" fw={700} lh={1.1}>
                    {label.day}
                  </Text>
                  <Text size="xs">{label.month}</Text>
                  <VisuallyHidden>{`, ${t('placesLeftSpoken', { count: d.places_left })}`}</VisuallyHidden>
                </UnstyledButton>
              );
            })}
          </Group>
        </ScrollArea>
      </Stack>

      {date && (
        <Stack gap="xs">
          <Text fw={600}>2. {t('chooseTime')}</Text>
          {/* The slots are the clinic's wall clock: say whose, since the patient may be elsewhere (issue 23.7). */}
          <Text size="xs" c="dimmed" data-testid="public-booking-zone">
            {t('timesIn', { zone: formats.zoneName })}
          </Text>
          {slots.isLoading && <Loader size="sm" />}
          {slots.data && slots.data.length === 0 && (
            <Text c="dimmed">{translated(t, BOOKING_MESSAGES.dateNotOffered)}</Text>
          )}
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
                {formats.time(s.start)} ·{' '}
                {s.places_left === 0 ? t('full') : t('placesLeft', { count: s.places_left })}
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
          speech={speech}
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

type FormValues = {
  first_name: string;
  last_name: string;
  mobile: string;
  email: string;
  age: number | string;
};
const FORM_FIELDS = ['first_name', 'last_name', 'mobile', 'email', 'age'] as const;

function PatientForm({
  token,
  org,
  slot,
  speech,
  onBooked,
  onSlotGone,
}: {
  token: string;
  org: TPublicOrganization;
  slot: TBookingSlot;
  speech: Speech;
  onBooked: (b: TPublicBooking) => void;
  onSlotGone: () => void;
}) {
  const { t } = speech;
  const formats = useFormats(speech.language, org);
  const create = useCreatePublicBooking(token);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: { first_name: '', last_name: '', mobile: '', email: '', age: '' },
    validate: (values) => {
      const parsed = ZBookingCreate.safeParse({
        ...values,
        start: slot.start,
        age: values.age === '' ? undefined : Number(values.age),
      });
      const errors: Record<string, string> = {};
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const key = String(issue.path[0]);
          if (key !== 'start') errors[key] ??= translated(t, issue.message);
        }
      }
      if (!errors.mobile) {
        const problem = bookingMobileProblem(values.mobile, org.country_code);
        if (problem) errors.mobile = translated(t, problem);
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
        for (const key of FORM_FIELDS) {
          const msg = fields[key]?.[0];
          if (msg) form.setFieldError(key, translated(t, msg));
        }
        if (fields.start?.[0]) {
          setError(translated(t, fields.start[0]));
          onSlotGone();
        }
        return;
      }
      setError(translated(t, errorMessage(e)));
    }
  });

  return (
    <Card withBorder radius="md" p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>3. {t('yourDetails')}</Text>
          <Text size="sm" c="dimmed" data-testid="public-booking-chosen">
            {formats.date(slot.start)}, {formats.time(slot.start)} – {formats.time(slot.end)} (
            {formats.zoneShort(slot.start)})
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label={t('firstName')}
              required
              autoComplete="given-name"
              {...form.getInputProps('first_name')}
              data-testid="public-first-name"
            />
            <TextInput
              label={t('lastName')}
              autoComplete="family-name"
              {...form.getInputProps('last_name')}
              data-testid="public-last-name"
            />
          </SimpleGrid>
          <PhoneInput
            label={t('mobile')}
            required
            country={org.country_code}
            description={
              org.country_code ? t('mobileHint', { country: formats.country(org.country_code) }) : undefined
            }
            {...form.getInputProps('mobile')}
            value={form.values.mobile}
            onChange={(mobile) => form.setFieldValue('mobile', mobile)}
            translateMessage={(message) => translated(t, message)}
            testId="public-mobile"
          />
          <TextInput
            label={t('email')}
            type="email"
            autoComplete="email"
            {...form.getInputProps('email')}
            data-testid="public-email"
          />
          <NumberField
            label={t('age')}
            required
            min={BOOKING_AGE_MIN}
            max={BOOKING_AGE_MAX}
            integer
            rangeMessage={translated(t, BOOKING_MESSAGES.age)}
            {...form.getInputProps('age')}
            data-testid="public-age"
            w={140}
          />
          {error && (
            <Alert color="red" data-testid="public-booking-form-error">
              {error}
            </Alert>
          )}
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={create.isPending}
            data-testid="public-booking-confirm"
          >
            {t('confirm')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/** A booking status in the page's language; a status this page does not know keeps the console's label or code. */
const statusText = (t: TFunction, status: string): string =>
  t(`statuses.${status}`, { defaultValue: labelOf(BOOKING_STATUS_LABELS, status) });

/**
 * After booking: the slot, the status in words and the booking's own page as a link (open or copy). The booking
 * token is that page's key and nothing a patient needs to read, so it is not shown as text (issue 23 item 9).
 */
function BookingDone({
  token,
  booking,
  org,
  speech,
}: {
  token: string;
  booking: TPublicBooking;
  org: TPublicOrganization;
  speech: Speech;
}) {
  const { t } = speech;
  const formats = useFormats(speech.language, org);
  const path = bookingViewPath(token, booking.token);
  return (
    <Alert
      color="teal"
      icon={<IconCalendarCheck />}
      title={translated(t, booking.detail ?? BOOKING_MESSAGES.created)}
      data-testid="public-booking-done"
    >
      <Stack gap={8}>
        {booking.start && (
          <Text size="sm">
            {formats.date(booking.start)}, {formats.time(booking.start)} ({formats.zoneShort(booking.start)})
          </Text>
        )}
        <Text size="sm">
          {t('status')}: <b data-testid="public-booking-status">{statusText(t, booking.status)}</b>
        </Text>
        <Text size="sm">{t('linkIntro')}</Text>
        <Group gap="xs">
          <Button
            component={Link}
            to={path}
            size="sm"
            variant="filled"
            color="teal.9"
            leftSection={<IconExternalLink size={16} />}
            data-testid="public-booking-link"
          >
            {t('openBooking')}
          </Button>
          <CopyButton value={`${window.location.origin}${path}`}>
            {({ copied, copy }) => (
              <Button
                size="sm"
                variant="default"
                leftSection={<IconCopy size={16} />}
                onClick={copy}
                data-testid="public-booking-copy"
              >
                {copied ? t('linkCopied') : t('copyLink')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}

function BookingView({
  token,
  booking,
  org,
  speech,
}: {
  token: string;
  booking: string;
  org: TPublicOrganization;
  speech: Speech;
}) {
  const { t } = speech;
  const formats = useFormats(speech.language, org);
  const view = usePublicBooking(token, booking);
  const cancel = useCancelPublicBooking(token);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  if (view.isError) {
    const text = errorMessage(view.error);
    return <Alert color="gray">{text === 'Not found.' ? t('bookingNotFound') : translated(t, text)}</Alert>;
  }
  if (!view.data) return <Loader />;
  const b = view.data;
  const when = b.start ? `${formats.date(b.start)}, ${formats.time(b.start)}` : '';
  return (
    <Card withBorder radius="md" p="md" data-testid="public-booking-view">
      <Stack gap="sm">
        <Text fw={600}>
          {b.first_name} {b.last_name}
        </Text>
        {b.start && (
          <Text size="sm">
            {when}
            {b.end ? ` – ${formats.time(b.end)}` : ''} ({formats.zoneShort(b.start)})
          </Text>
        )}
        <Text size="sm">
          {t('status')}: <b data-testid="public-booking-status">{statusText(t, b.status)}</b>
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        {done && (
          <Alert color="teal" data-testid="public-booking-canceled">
            {done}
          </Alert>
        )}
        {b.can_cancel ? (
          <Button
            color="red"
            variant="light"
            onClick={() => setConfirming(true)}
            data-testid="public-booking-cancel"
          >
            {t('cancel')}
          </Button>
        ) : (
          b.status !== 'CANCELED' &&
          b.cancel_before && (
            <Text size="xs" c="dimmed" data-testid="public-booking-cancel-closed">
              {org.can_be_cancel_before
                ? t('cancelTooLate', { count: org.can_be_cancel_before })
                : t('cancelClosed')}
            </Text>
          )
        )}
      </Stack>
      {/* A patient's cancel frees the place at once: ask first. */}
      <ConfirmDialog
        opened={confirming}
        title={t('cancel')}
        message={t('cancelQuestion', { when })}
        confirmLabel={t('cancel')}
        cancelLabel={t('keep')}
        danger
        loading={cancel.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setError(null);
          cancel.mutate(booking, {
            onSuccess: (saved) => setDone(translated(t, saved.detail ?? BOOKING_MESSAGES.canceled)),
            onError: (e) => setError(translated(t, errorMessage(e))),
            onSettled: () => setConfirming(false),
          });
        }}
      />
    </Card>
  );
}
