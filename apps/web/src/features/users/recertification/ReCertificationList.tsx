// The Technician Re-Certification page (part 2 §2.10, §4, §7; part 3): certified users by certificate expiry, search
// 'Search by technician name', the tabs All Time (from 2020-01-01) / Last 30 Days / Custom Range on the expiry date,
// the Filter dropdown (organization, badge, Clear all filters), the §2.10 columns and 'No records found.'. Re-Certify
// opens the technician scan modal, where the certificate is renewed.
import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Button, Stack, Text } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { RECERTIFICATION_MESSAGES } from '@sc/shared/scans';
import type { TOrganizationUser } from '@sc/shared/users';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, type ListColumn } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { toApiDate } from '../../../components/list/periods.ts';
import { useListParams } from '../../../components/list/useListParams.ts';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { useUsers } from '../users.api.ts';
import { fullName } from '../userAccess.ts';
import { ReCertificationFilter } from './ReCertificationFilter.tsx';
import {
  RECERTIFICATION_DEFAULT_ORDERING,
  ZReCertificationParams,
  toReCertificationQuery,
  type TReCertificationState,
} from './recertificationParams.ts';
import { CertificateDate } from './CertificateDate.tsx';
import { TechnicianScanModal } from './TechnicianScanModal.tsx';

const LIST_DEFAULTS: Partial<TReCertificationState> = { ordering: RECERTIFICATION_DEFAULT_ORDERING };
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

export function ReCertificationList({ title }: { title: string }) {
  const { params, setParams } = useListParams(ZReCertificationParams, LIST_DEFAULTS);
  const today = toApiDate(dayjs());
  const query = useUsers(toReCertificationQuery(params, today));
  const [openId, setOpenId] = useState<number | null>(null);
  const phone = usePhoneLayout();
  const failed = query.isError && !(query.error instanceof ApiError && query.error.status === 401);

  const columns: ListColumn<TOrganizationUser>[] = [
    { accessor: 'id', title: 'ID', sortable: true, hideOnPhone: true },
    {
      accessor: 'first_name',
      title: 'Technician Name',
      sortable: true,
      render: (u) => (
        <Anchor component="button" type="button" size="sm" fw={600} ta="left" onClick={() => setOpenId(u.id)}>
          {fullName(u)}
        </Anchor>
      ),
    },
    {
      accessor: 'mobile',
      title: 'Mobile',
      sortable: true,
      hideOnPhone: true,
      render: (u) => (
        <Text size="sm" style={NO_WRAP}>
          {u.mobile ?? '—'}
        </Text>
      ),
    },
    { accessor: 'email', title: 'E-mail', sortable: true, hideOnPhone: true, render: (u) => u.email ?? '—' },
    {
      accessor: 'certificate_issue_date',
      title: 'Issue Date',
      sortable: true,
      hideOnPhone: true,
      render: (u) => <CertificateDate value={u.certificate_issue_date} />,
    },
    {
      accessor: 'certificate_expiry_date',
      title: 'Expiry Date',
      sortable: true,
      render: (u) => (
        <Stack gap={2} align="flex-start">
          <CertificateDate value={u.certificate_expiry_date} />
          {u.certificate_expiry_date !== null && u.certificate_expiry_date < today && (
            <Badge size="xs" variant="light" color="red" c="red.9" style={{ flexShrink: 0 }}>
              Expired
            </Badge>
          )}
        </Stack>
      ),
    },
    {
      accessor: 'organization_name',
      title: 'Organization',
      sortable: true,
      hideOnPhone: true,
      render: (u) =>
        u.organization_data ? (
          <Anchor component={Link} to={`/organization/${u.organization_data.id}`} size="sm">
            {u.organization_data.name}
          </Anchor>
        ) : (
          '—'
        ),
    },
    {
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      render: (u) =>
        phone ? (
          <ActionIcon
            variant="light"
            size="lg"
            onClick={() => setOpenId(u.id)}
            aria-label={`Re-Certify ${fullName(u)}`}
            data-testid={`recertify-${u.id}`}
          >
            <IconCertificate size={18} />
          </ActionIcon>
        ) : (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconCertificate size={14} />}
            onClick={() => setOpenId(u.id)}
            aria-label={`Re-Certify ${fullName(u)}`}
            data-testid={`recertify-${u.id}`}
          >
            Re-Certify
          </Button>
        ),
    },
  ];

  return (
    <>
      <ListPage
        title={title}
        testId="recertification-list"
        filters={
          <>
            <SearchInput
              placeholder="Search by technician name"
              value={params.search}
              onChange={(search) => setParams({ search })}
              w={{ base: '100%', sm: 260 }}
            />
            <ReCertificationFilter
              organization={
                params.organization === undefined
                  ? null
                  : { id: params.organization, name: params.organization_name }
              }
              onChange={(o) => setParams({ organization: o?.id, organization_name: o?.name || undefined })}
            />
          </>
        }
        period={
          <PeriodTabs
            // The tabs filter expiry dates, which lie ahead as well (issue 23.1).
            dates="scheduled"
            value={params.period}
            range={{ from: params.from, to: params.to }}
            onChange={(period, range) => setParams({ period, ...range })}
          />
        }
        footer={
          <ListFooter
            page={params.page}
            limit={params.limit}
            total={query.data?.count ?? 0}
            onPageChange={(page) => setParams({ page })}
            onLimitChange={(limit) => setParams({ limit })}
          />
        }
      >
        {failed && (
          <Alert color="red" variant="light" m="md" data-testid="recertification-error">
            {errorMessage(query.error)}
          </Alert>
        )}
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={RECERTIFICATION_MESSAGES.empty}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          testId="recertification-table"
        />
      </ListPage>
      <TechnicianScanModal technicianId={openId} onClose={() => setOpenId(null)} />
    </>
  );
}
