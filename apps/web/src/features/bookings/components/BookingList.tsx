// The booking list (part 3 §2 Booking list): search, the status dropdown (All Status and each status), period tabs
// All Time (hidden inside an organization) / Last 30 Days / Custom Range on the created date, and Slot Data (a
// range of slot days); a preset clears the ranges. Name sorts by first_name. Columns: Name and mobile, E-mail,
// Slot Data, Organization (outside an organization), Price (/100 with its currency), Status, Created, ID, Details.
// Below 1440 px and on a phone the status badge sits under the name instead of in a column of its own.
import { Fragment, useState } from 'react';
import { Anchor, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCalendarTime, IconEye } from '@tabler/icons-react';
import { Link } from 'react-router';
import { z } from 'zod';
import dayjs from 'dayjs';
import {
  BOOKING_DEFAULT_ORDERING,
  BOOKING_MESSAGES,
  BOOKING_STATUSES,
  clinicTime,
  formatBookingPrice,
  type TBooking,
  type TBookingStatus,
} from '@sc/shared/bookings';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';
import { BOOKING_STATUS_LABELS } from '@sc/shared/labels';
import { isIsoDate } from '@sc/shared/list';
import { clientTimezone } from '../../../api/client.ts';
import { DateRangeDialog } from '../../../components/list/DateRangeDialog.tsx';
import { SHORT_DATE_FORMAT } from '../../../components/list/ListDate.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListLoadError, ListParamsFooter, fullName } from '../../../components/list/ListParts.tsx';
import {
  ListTable,
  emptyText,
  type ListColumn,
  type RowAction,
} from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import {
  PERIOD_KINDS,
  formatRange,
  periodToQuery,
  type PeriodKind,
  type PeriodValue,
} from '../../../components/list/periods.ts';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useBookings } from '../bookings.api.ts';
import { BookingDialog } from './BookingDialog.tsx';

const isoDate = z.string().refine(isIsoDate);
const ZBookingListParams = listParamsSchema({
  status: z.enum(['all', ...BOOKING_STATUSES]).catch('all'),
  slot_from: isoDate.optional().catch(undefined),
  slot_to: isoDate.optional().catch(undefined),
});
const DEFAULTS = { ordering: BOOKING_DEFAULT_ORDERING };
/** Inside an organization All Time is hidden (part 3 §2): Last 30 Days is the tab selected by default. */
const EMBEDDED_DEFAULTS = { ordering: BOOKING_DEFAULT_ORDERING, period: PERIOD_KINDS.organizationBooking.default };
const TIME_FORMAT = 'hh:mm A';
const STATUS_OPTIONS = [
  { value: 'all', label: BOOKING_MESSAGES.allStatus },
  ...BOOKING_STATUSES.map((s) => ({ value: s, label: BOOKING_STATUS_LABELS[s] })),
];

/** Filled badges in shades that keep white text at AA contrast. */
export const STATUS_COLORS: Record<TBookingStatus, string> = {
  NEW: 'blue.9',
  PENDING_PAYMENT: 'grape.9',
  PAID: 'teal.9',
  COMPLETED: 'dark.6',
  CANCELED: 'gray.7',
};

/**
 * Below this viewport width the desktop list (beside the menu) has no room for a Status column (PENDING_PAYMENT's
 * badge makes it ~170 px): the badge goes under the name, as on a phone, and the nine columns fit 1280 px.
 */
export const STATUS_UNDER_NAME_QUERY = '(max-width: 1439px)';

export function BookingStatusBadge({ status, size = 'md' }: { status: TBookingStatus; size?: 'sm' | 'md' }) {
  return (
    // Never narrower than its words (the theme's Badge): 'Pending payment' is never cut short.
    <Badge variant="filled" tt="none" size={size} color={STATUS_COLORS[status]} data-testid="booking-status">
      {BOOKING_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * An e-mail in a list cell: it may break before its '@' and after a dot of the name before it, so a long address
 * takes two or three lines, not the table's width (the browser breaks it only where the columns are tight).
 */
function EmailCell({ email }: { email: string | null }) {
  if (!email) return <Text c="dimmed">—</Text>;
  const at = email.lastIndexOf('@');
  const parts = at > 0 ? [...email.slice(0, at).split(/(?<=\.)/), email.slice(at)] : [email];
  return (
    <Text size="sm" style={{ overflowWrap: 'break-word' }}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </Text>
  );
}

/**
 * A slot in a list cell: its id with the clinic's zone, the day, and start – end on a line of their own, so the column
 * stays narrow. Times are the clinic's (its organization's time zone), as the patient booked them.
 */
function SlotCell({ slot, timeZone }: { slot: TBooking['slot_data']; timeZone: string }) {
  if (!slot) return <Text c="dimmed">—</Text>;
  const start = clinicTime(slot.start, timeZone);
  return (
    <Stack gap={0} style={{ whiteSpace: 'nowrap' }}>
      <Text size="xs" c="dimmed" title={`Clinic time, ${timeZone}`}>
        Slot {slot.id} · {start.zone}
      </Text>
      <Text component="time" dateTime={slot.start} size="sm">
        {start.date}
      </Text>
      <Text size="sm">
        {start.time} – {clinicTime(slot.end, timeZone).time}
      </Text>
    </Stack>
  );
}

/**
 * The created date in the list's desktop layout: the day over the time, like the slot beside it, so nine columns
 * fit a 1440 px screen; on a phone the column is left out (the modal shows it).
 */
function CreatedCell({ value }: { value: string }) {
  const date = dayjs(value);
  return (
    <Text
      component="time"
      dateTime={date.toISOString()}
      title={date.format(DATE_DISPLAY_FORMAT)}
      size="sm"
      style={{ whiteSpace: 'nowrap' }}
    >
      {date.format(SHORT_DATE_FORMAT)}
      <br />
      {date.format(TIME_FORMAT)}
    </Text>
  );
}

export function BookingList({
  embedded = false,
  organizationId,
  slotId,
  title = 'Booking',
}: {
  embedded?: boolean;
  organizationId?: number;
  slotId?: number;
  title?: string;
}) {
  const { params, setParams, hasFilters } = useListParams(ZBookingListParams, embedded ? EMBEDDED_DEFAULTS : DEFAULTS);
  const [detailId, setDetailId] = useState<number | undefined>(undefined);
  const [slotDialog, setSlotDialog] = useState(false);
  const slotActive = Boolean(params.slot_from);
  const query = useBookings({
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
    ...(params.search ? { search: params.search } : {}),
    ...(params.status === 'all' ? {} : { status: params.status }),
    ...(organizationId ? { organization: organizationId } : {}),
    ...(slotId ? { slot: slotId } : {}),
    ...(slotActive
      ? { slot_after: params.slot_from, slot_before: params.slot_to ?? params.slot_from }
      : periodToQuery(params, 'created')),
  });
  const phone = usePhoneLayout();
  const statusUnderName = useMediaQuery(STATUS_UNDER_NAME_QUERY, false, { getInitialValueInEffect: false }) || phone;
  const showOrganization = !embedded && organizationId === undefined;
  const periodKind: PeriodKind = embedded ? 'organizationBooking' : 'standard';

  const columns: ListColumn<TBooking>[] = [
    {
      accessor: 'first_name',
      title: 'Name',
      sortable: true,
      render: (b) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" fw={600}>
            {fullName(b)}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {b.mobile ?? '—'}
          </Text>
          {/* Without the Status column (a phone, a narrow desktop) the badge stays with the name; on a phone a size
              smaller, so PENDING_PAYMENT leaves the slot its width at 390 px. */}
          {statusUnderName && <BookingStatusBadge status={b.status} size={phone ? 'sm' : 'md'} />}
        </Stack>
      ),
    },
    {
      accessor: 'email',
      title: 'E-mail',
      hideOnPhone: true,
      render: (b) => <EmailCell email={b.email} />,
    },
    { accessor: 'slot_data', title: 'Slot Data', render: (b) => <SlotCell slot={b.slot_data} timeZone={b.organization_data.timezone} /> },
    ...(showOrganization
      ? [
          {
            accessor: 'organization_data.name',
            title: 'Organization',
            hideOnPhone: true,
            render: (b: TBooking) => (
              <Anchor component={Link} to={`/organization/${b.organization}`} size="sm">
                {b.organization_data.name}
              </Anchor>
            ),
          } satisfies ListColumn<TBooking>,
        ]
      : []),
    {
      accessor: 'price',
      title: 'Price',
      textAlign: 'right',
      hideOnPhone: true,
      // The amount and its currency (one space between) may take two lines when the columns are tight.
      render: (b) => formatBookingPrice(b.price, b.currency),
    },
    ...(statusUnderName
      ? []
      : [
          {
            accessor: 'status',
            title: 'Status',
            render: (b: TBooking) => <BookingStatusBadge status={b.status} />,
          } satisfies ListColumn<TBooking>,
        ]),
    {
      accessor: 'created',
      title: 'Created',
      hideOnPhone: true,
      render: (b) => <CreatedCell value={b.created} />,
    },
    { accessor: 'id', title: 'ID', hideOnPhone: true },
  ];

  const rowActions = (b: TBooking): RowAction[] => [
    { label: 'Details', icon: <IconEye size={16} />, onClick: () => setDetailId(b.id) },
  ];

  return (
    <>
      <ListPage
        title={title}
        embedded={embedded}
        testId="booking-list"
        filters={
          <Group gap="sm" wrap="wrap">
            <SearchInput
              placeholder={BOOKING_MESSAGES.searchPlaceholder}
              value={params.search}
              onChange={(search) => setParams({ search })}
              w={{ base: '100%', sm: 260 }}
            />
            <Select
              aria-label="Status"
              data={STATUS_OPTIONS}
              value={params.status}
              allowDeselect={false}
              onChange={(status) => setParams({ status: (status ?? 'all') as typeof params.status })}
              w={{ base: '100%', sm: 200 }}
              data-testid="booking-status-filter"
            />
          </Group>
        }
        period={
          <Group gap="xs" wrap="wrap">
            <PeriodTabs
              kind={periodKind}
              value={slotActive ? ('none' as PeriodValue) : params.period}
              range={{ from: params.from, to: params.to }}
              // A preset (or a custom created range) clears the Slot Data range, and the other way round.
              onChange={(period, range) =>
                setParams({ period, ...range, slot_from: undefined, slot_to: undefined })
              }
            />
            <Button
              variant={slotActive ? 'filled' : 'subtle'}
              radius="md"
              leftSection={<IconCalendarTime size={16} />}
              onClick={() => setSlotDialog(true)}
              data-testid="period-tab-slot"
            >
              {slotActive
                ? `Slot ${formatRange({ from: params.slot_from, to: params.slot_to })}`
                : 'Slot Data'}
            </Button>
          </Group>
        }
        footer={<ListParamsFooter params={params} setParams={setParams} total={query.data?.count ?? 0} />}
      >
        <ListLoadError error={query.error} testId="booking-list-error" />
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(b) => `Actions for booking ${b.id} of ${fullName(b)}`}
          emptyText={emptyText('booking', hasFilters || params.status !== 'all' || slotActive)}
        />
      </ListPage>
      <DateRangeDialog
        opened={slotDialog}
        title="Slot Data"
        // Slots are booked ahead: the calendar runs past today (issue 23.1).
        dates="scheduled"
        // The API reads slot_after/slot_before as whole days in the Timezone header's zone, the viewer's; each slot
        // in the list shows its clinic's time and zone.
        description={`Slot days in your time zone, ${clientTimezone()}. Each slot shows its clinic's time and zone.`}
        initialRange={slotActive ? { from: params.slot_from, to: params.slot_to } : undefined}
        onCancel={() => setSlotDialog(false)}
        onConfirm={(range) => {
          setSlotDialog(false);
          setParams({
            slot_from: range.from,
            slot_to: range.to,
            period: PERIOD_KINDS[periodKind].default,
            from: undefined,
            to: undefined,
          });
        }}
      />
      <BookingDialog id={detailId} onClose={() => setDetailId(undefined)} />
    </>
  );
}
