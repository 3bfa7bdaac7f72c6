// The organization page's Bookings tab: the public booking page's link with a QR code to print at the clinic
// (issue 12), then the organization's bookings (the list embedded, All Time hidden).
import { Anchor, Button, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import type { TOrganization } from '@sc/shared/organizations';
import { useBookingLink } from '../bookings.api.ts';
import { BookingList } from './BookingList.tsx';

export function OrganizationBookings({ organization }: { organization: TOrganization }) {
  return (
    <Stack gap="lg">
      <BookingPageLink organization={organization} />
      <BookingList embedded organizationId={organization.id} />
    </Stack>
  );
}

function BookingPageLink({ organization }: { organization: TOrganization }) {
  const link = useBookingLink(organization.id);
  if (!link.data) return null;
  const url = `${window.location.origin}${link.data.path}`;
  return (
    <Paper withBorder p="md" radius="md" data-testid="booking-page-link">
      <Group align="center" gap="lg" wrap="wrap">
        <QRCodeSVG value={url} size={128} marginSize={2} title={`Booking page of ${organization.name}`} data-testid="booking-qr" />
        <Stack gap={6} style={{ flex: 1, minWidth: 220 }}>
          <Text fw={600}>Public booking page</Text>
          {!organization.is_booking_enabled && (
            <Text size="sm" c="orange.8">
              Booking mode is off for this organization: the page says it takes no bookings until it is switched on.
            </Text>
          )}
          <Anchor href={link.data.path} target="_blank" size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="booking-page-url">
            {url}
          </Anchor>
          <Group gap="xs">
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            <Button size="xs" variant="subtle" leftSection={<IconPrinter size={14} />} onClick={() => window.print()}>
              Print
            </Button>
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}
