// The user dialog in details mode (part 2 §2.3, §6): the user read-only, the Edit button (an alert 'Access denied for
// your permission level.' when the user is above the caller), Reset Pin, Reset Password, Certify and the report
// buttons, the scan counts and tutorial status, and a manager's organization links.
import type { ReactNode } from 'react';
import { Anchor, Button, Divider, Group, Stack, Table } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ROLE_LABELS } from '@sc/shared/roles';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { canEditUser, canManageOrganizationLinks, canUser, showsTrainerFlags, userTypeTakesOrganization } from '@sc/shared/user-permissions';
import type { TUserDetail } from '@sc/shared/users';
import { countryLabel, useCountries } from '../../../api/countries.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { openAlert } from '../../../components/AlertDialog.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { actorOf, fullName, trainingStatusLabel } from '../userAccess.ts';
import { ManagerOrganizationLinks } from './ManagerOrganizationLinks.tsx';
import { UserActionButtons } from './UserActionButtons.tsx';
import { UserTrainingPanel } from './UserTrainingPanel.tsx';
import { RecordHistoryButton } from '../../audit/components/RecordHistory.tsx';

type UserDetailsProps = {
  user: TUserDetail;
  onEdit: () => void;
  onClose: () => void;
};

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

const organizationCell = (user: TUserDetail): ReactNode =>
  user.organization_data ? (
    <Anchor component={Link} to={`/organization/${user.organization_data.id}`} size="sm">
      {user.organization_data.name}
    </Anchor>
  ) : (
    'Unassigned'
  );

export function UserDetails({ user, onEdit, onClose }: UserDetailsProps) {
  const session = useSessionUser();
  const actor = actorOf(session);
  const { data: countries } = useCountries();
  const country = countries?.find((c) => c.code === user.mobile_country_code);

  const edit = () => {
    // Part 2 §6: a role that edits users, on a user above its level, is told so instead.
    if (canEditUser(actor, user)) onEdit();
    else void openAlert({ variant: 'error', title: 'Not allowed', message: USER_MESSAGES.accessDenied, autoClose: false });
  };

  const rows: [string, ReactNode][] = [
    ['Name', fullName(user)],
    ['E-mail', user.email ?? '—'],
    ['Mobile', user.mobile ?? '—'],
    ['Country', country ? countryLabel(country) : (user.mobile_country_code ?? '—')],
    ['User type', ROLE_LABELS[user.user_type]],
    // A manager reaches organizations through its links (below); a Super Admin through none.
    ...(userTypeTakesOrganization(user.user_type) || user.organization_data
      ? ([['Organization', organizationCell(user)]] as [string, ReactNode][])
      : []),
    [
      'IBE training status',
      <Group key="s" gap={6} wrap="nowrap">
        {user.ibe_training_status === 'CERTIFIED' && <IconCertificate size={16} aria-hidden />}
        <span>{trainingStatusLabel(user.ibe_training_status)}</span>
      </Group>,
    ],
    ...(user.certificate_issue_date
      ? ([
          ['Certificate issued', user.certificate_issue_date],
          ['Certificate expires', user.certificate_expiry_date ?? '—'],
        ] as [string, ReactNode][])
      : []),
    ...(showsTrainerFlags(user.user_type)
      ? ([
          ['Trainer', yesNo(user.is_trainer)],
          ['Demo available', yesNo(user.is_available_demo)],
        ] as [string, ReactNode][])
      : []),
    ...(user.pin_reset_request ? ([['PIN', 'Reset requested: the user sets a new PIN in the app']] as [string, ReactNode][]) : []),
    ['Created', <ListDate key="c" value={user.created} />],
    ['ID', user.id],
  ];

  return (
    <Stack gap="md" data-testid="user-details">
      <Table withRowBorders={false} verticalSpacing={4} layout="fixed">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={150} fw={500} c="dimmed">
                {label}
              </Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>

      <UserActionButtons user={user} onEdit={canUser(session.user_type, 'user.edit') ? edit : undefined} />

      {canManageOrganizationLinks(actor, user) && (
        <>
          <Divider />
          <ManagerOrganizationLinks user={user} />
        </>
      )}

      <Divider />
      <UserTrainingPanel user={user} />

      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <RecordHistoryButton targetType="user" targetId={user.id} />
      </Group>
    </Stack>
  );
}
