// Route `organization/{id}` (part 1 §2.4, part 3 "Organization detail tabs"): the name with a
// Distributor badge, Edit, and the organization's tabs. The open tab is `?tab=` in the URL; the
// default is Sub-Organization when shown, else Users. `?edit=true` opens the edit dialog.
import type { ReactNode } from 'react';
import { Anchor, Badge, Button, Center, Group, Loader, Paper, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconBuildingOff, IconPencil } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import dayjs from 'dayjs';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';
import { formatPositivity } from '@sc/shared/dashboard';
import { canDevice } from '@sc/shared/devices';
import type { TOrganization } from '@sc/shared/organizations';
import { canPatient } from '@sc/shared/patients';
import { canListOrca } from '@sc/shared/orca';
import { canListCervical } from '@sc/shared/cervical';
import { canListScans } from '@sc/shared/scans';
import type { TUserType } from '@sc/shared/roles';
import { canUser } from '@sc/shared/user-permissions';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { OrganizationList } from '../components/OrganizationList.tsx';
import { DeviceList } from '../../devices/components/DeviceList.tsx';
import { ScanList } from '../../scans/components/ScanList.tsx';
import { OrcaList } from '../../orca/components/OrcaList.tsx';
import { CervicalList } from '../../cervaical/components/CervicalList.tsx';
import { PatientList } from '../../patients/components/PatientList.tsx';
import { UserList } from '../../users/components/UserList.tsx';
import { OrganizationBookings } from '../../bookings/components/OrganizationBookings.tsx';
import { canHandleBookings } from '@sc/shared/bookings';
import { canEditFollowUpSettings } from '@sc/shared/follow-up';
import { FollowUpSettingsPanel } from '../../follow-up/components/FollowUpSettingsForm.tsx';
import { canManageWebhook } from '@sc/shared/webhooks';
import { WebhookPanel } from '../webhooks/WebhookPanel.tsx';
import { OrganizationFormDialog } from '../form/OrganizationFormDialog.tsx';
import { canEditOrganization, canSeeSubOrganizations } from '../organizationAccess.ts';
import { useInvalidateOrganizations, useOrganization } from '../organizations.api.ts';
import { RecordHistory } from '../../audit/components/RecordHistory.tsx';
import { canReadAudit } from '@sc/shared/audit';

type TabKey =
  | 'sub-organization'
  | 'users'
  | 'devices'
  | 'scans'
  | 'patients'
  | 'cervaical'
  | 'orca'
  | 'bookings'
  | 'follow-up'
  | 'webhook'
  | 'history';

type OrganizationTab = {
  key: TabKey;
  label: string;
  /** Whether this role sees the tab on this organization. */
  visible?: (role: TUserType, organization: TOrganization) => boolean;
  render: (organization: TOrganization) => ReactNode;
};

export const ORGANIZATION_TABS: readonly OrganizationTab[] = [
  {
    key: 'sub-organization',
    label: 'Sub-Organization',
    visible: (role, org) => canSeeSubOrganizations(role, org.can_create_organization),
    render: (org) => <OrganizationList embedded parentId={org.id} />,
  },
  {
    key: 'users',
    label: 'Users',
    visible: (role) => canUser(role, 'user.read'),
    render: (org) => <UserList mode="organization" organization={org} title={USER_MESSAGES.titleOrganization} />,
  },
  {
    key: 'devices',
    label: 'Devices',
    visible: (role) => canDevice(role, 'device.read'),
    render: (org) => <DeviceList embedded organizationId={org.id} />,
  },
  {
    key: 'scans',
    label: 'Breast Scans',
    visible: (role) => canListScans(role),
    render: (org) => <ScanList embedded organizationId={org.id} withMapToggle />,
  },
  {
    key: 'patients',
    label: 'Patients',
    visible: (role) => canPatient(role, 'patient.read'),
    render: (org) => <PatientList embedded organizationId={org.id} organizationName={org.name} />,
  },
  // Labels as the menu spells them (docs/decisions.md, "Labels"); keys keep the spec's spelling.
  {
    key: 'cervaical',
    label: 'Cervical Exams',
    visible: (role) => canListCervical(role),
    render: (org) => <CervicalList embedded organizationId={org.id} />,
  },
  {
    key: 'orca',
    label: 'ORCA Exams',
    visible: (role) => canListOrca(role),
    render: (org) => <OrcaList embedded organizationId={org.id} />,
  },
  // Issue 12: the public booking page's link and QR code, and the organization's bookings.
  {
    key: 'bookings',
    label: 'Bookings',
    visible: (role) => canHandleBookings(role),
    render: (org) => <OrganizationBookings organization={org} />,
  },
  // Issue 26: the due intervals and reminders of the organization's follow-up of screen-positive patients.
  {
    key: 'follow-up',
    label: 'Follow-up',
    visible: (role) => canEditFollowUpSettings(role),
    render: (org) => <FollowUpSettingsPanel organizationId={org.id} />,
  },
  // Issue 27: the webhook's signing secret and its delivery log with Replay (URL, token and switch: the edit form).
  {
    key: 'webhook',
    label: 'Webhook',
    visible: (role) => canManageWebhook(role),
    render: (org) => <WebhookPanel organizationId={org.id} />,
  },
  // Issue 27: the organization's audit rows (AUDIT_ROLES; a DISTRIBUTOR_ADMIN and an ORG_ADMIN see their scope's).
  {
    key: 'history',
    label: 'History',
    visible: (role) => canReadAudit(role),
    render: (org) => <RecordHistory targetType="organization" targetId={org.id} />,
  },
];

export function visibleTabs(role: TUserType, organization: TOrganization): OrganizationTab[] {
  return ORGANIZATION_TABS.filter((tab) => !tab.visible || tab.visible(role, organization));
}

/** Sub-Organization when shown, else Users, else (a role that reads no users) the first tab shown. */
export const defaultTab = (tabs: OrganizationTab[]): TabKey =>
  tabs.some((t) => t.key === 'sub-organization')
    ? 'sub-organization'
    : tabs.some((t) => t.key === 'users')
      ? 'users'
      : (tabs[0]?.key ?? 'users');

const parseId = (raw: string | undefined): number | undefined => (raw && /^\d{1,10}$/.test(raw) ? Number(raw) : undefined);

export function OrganizationDetailPage() {
  const { id: rawId } = useParams();
  const id = parseId(rawId);
  const query = useOrganization(id);

  if (id === undefined || (query.isError && query.error instanceof ApiError && query.error.status === 404)) {
    return <OrganizationNotFound />;
  }
  if (query.isError) {
    return (
      <>
        <PageHeader title="Organization" />
        <Text c="red" data-testid="organization-error">
          {errorMessage(query.error)}
        </Text>
      </>
    );
  }
  if (!query.data) {
    return (
      <>
        <PageHeader title="Organization" />
        <Center h={200}>
          <Loader />
        </Center>
      </>
    );
  }
  return <OrganizationDetail organization={query.data} />;
}

function OrganizationDetail({ organization }: { organization: TOrganization }) {
  const user = useSessionUser();
  const role = user.user_type;
  const [searchParams, setSearchParams] = useSearchParams();
  const invalidate = useInvalidateOrganizations();
  const tabs = visibleTabs(role, organization);
  const requested = searchParams.get('tab');
  const tab = tabs.find((t) => t.key === requested)?.key ?? defaultTab(tabs);
  const mayEdit = canEditOrganization(role);
  const editing = mayEdit && searchParams.get('edit') === 'true';

  const setEditing = (on: boolean) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set('edit', 'true');
        else next.delete('edit');
        return next;
      },
      { replace: true },
    );

  return (
    <Stack gap="lg" data-testid="organization-detail">
      <Stack gap={6}>
        <Anchor component={Link} to="/organization" size="sm" c="dimmed">
          <Group gap={4}>
            <IconArrowLeft size={14} />
            Organization
          </Group>
        </Anchor>
        <Group justify="space-between" align="center" gap="sm">
          <Group gap="sm" align="center">
            <Title order={1} data-testid="page-title">
              {organization.name}
            </Title>
            {organization.can_create_organization && (
              <Badge variant="light" color="grape" size="lg" data-testid="organization-distributor-badge">
                Distributor
              </Badge>
            )}
          </Group>
          {mayEdit && (
            <Button
              variant="light"
              leftSection={<IconPencil size={16} />}
              onClick={() => setEditing(true)}
              data-testid="organization-edit"
            >
              Edit
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed" data-testid="organization-meta">
          {[organization.address_3, organization.state, organization.country].filter(Boolean).join(', ') || '—'} · ID{' '}
          {organization.id}
        </Text>
        <Group gap="lg" data-testid="organization-figures">
          <Figure label="Scans" value={organization.scans_count.toLocaleString('en-US')} testId="organization-scans" />
          <Figure
            label="Positivity"
            value={formatPositivity(organization.dynamic_positivity_percentage)}
            testId="organization-positivity"
          />
          <Figure
            label="Last sync"
            value={organization.last_sync_date ? dayjs(organization.last_sync_date).format(DATE_DISPLAY_FORMAT) : 'Never'}
            testId="organization-last-sync"
          />
        </Group>
      </Stack>

      <Tabs
        value={tab}
        // A new tab starts with a clean list: only `tab` stays in the URL.
        onChange={(next) => next && setSearchParams({ tab: next }, { replace: true })}
        keepMounted={false}
        data-testid="organization-tabs"
      >
        <Tabs.List mb="md">
          {tabs.map((t) => (
            <Tabs.Tab key={t.key} value={t.key} data-testid={`organization-tab-${t.key}`}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((t) => (
          <Tabs.Panel key={t.key} value={t.key}>
            {t.render(organization)}
          </Tabs.Panel>
        ))}
      </Tabs>

      <OrganizationFormDialog
        opened={editing}
        organizationId={organization.id}
        onClose={(saved) => {
          setEditing(false);
          // The form announces 'Organization updated Successfully'; the header and tabs reload.
          if (saved) void invalidate();
        }}
      />
    </Stack>
  );
}

function OrganizationNotFound() {
  return (
    <>
      <PageHeader title="Organization" />
      <Paper withBorder p="xl" data-testid="organization-not-found">
        <Stack align="center" gap="sm">
          <ThemeIcon size={56} radius="xl" variant="light" color="gray">
            <IconBuildingOff size={28} />
          </ThemeIcon>
          <Title order={2} size="h3">
            Organization not found
          </Title>
          <Text c="dimmed" ta="center" maw={420}>
            It does not exist, or it is not one of the organizations you can see.
          </Text>
          <Button component={Link} to="/organization" variant="light" mt="xs">
            Back to organizations
          </Button>
        </Stack>
      </Paper>
    </>
  );
}

/** One of part 1 §3's read-only figures (all time, from the statistics tables). */
function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Text size="sm">
      <Text span c="dimmed">
        {label}{' '}
      </Text>
      <Text span fw={600} data-testid={testId}>
        {value}
      </Text>
    </Text>
  );
}
