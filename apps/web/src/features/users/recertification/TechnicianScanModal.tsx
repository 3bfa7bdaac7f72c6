// The technician scan modal of re-certification (part 2 §2.11, §4; architecture §7): the technician's details and
// counts, the map and list of their scans, and Re-Certify (a confirm, then `POST organization/user/{id}/re-certify/`):
// a new year of certification from today; the page's list and this modal reload. A technician the API does not show
// (404) is a not-found state. Re-Certify shows only where the API would accept it (canReCertify).
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCertificate } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router';
import { RECERTIFICATION_MESSAGES, technicianScanWindow } from '@sc/shared/scans';
import { canReCertify } from '@sc/shared/user-permissions';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { toApiDate } from '../../../components/list/periods.ts';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { useReCertifyUser, useUser } from '../users.api.ts';
import { actorOf, fullName } from '../userAccess.ts';
import { TechnicianDetailTables } from './TechnicianDetailTables.tsx';
import { TechnicianScans, TECHNICIAN_URL_PREFIX } from './TechnicianScans.tsx';
import { useTechnicianSummary } from './technicianSummary.api.ts';

export const TECHNICIAN_MODAL_TITLE = 'Technician Scan List';

function TechnicianScanDetail({ id }: { id: number }) {
  const session = useSessionUser();
  const user = useUser(id);
  const today = toApiDate(dayjs());
  const window = technicianScanWindow(user.data?.certificate_expiry_date ?? null, today);
  const summary = useTechnicianSummary(id, window, user.isSuccess);
  const reCertify = useReCertifyUser();

  if (user.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the technician" />
      </Center>
    );
  }
  if (user.isError) {
    const missing = user.error instanceof ApiError && user.error.status === 404;
    return (
      <Alert color={missing ? 'gray' : 'red'} variant="light" data-testid={missing ? 'technician-not-found' : 'technician-error'}>
        {missing ? RECERTIFICATION_MESSAGES.notFound : errorMessage(user.error)}
      </Alert>
    );
  }
  const technician = user.data;
  const mayReCertify = canReCertify(actorOf(session), technician);

  const renew = async () => {
    const ok = await confirm({ title: 'Re-Certify', message: RECERTIFICATION_MESSAGES.confirm(fullName(technician)), confirmLabel: 'Re-Certify' });
    if (!ok) return;
    try {
      const saved = await reCertify.mutateAsync(technician.id);
      notifications.show({ color: 'teal', message: saved.detail || USER_MESSAGES.reCertified });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) notifications.show({ color: 'red', message: errorMessage(error) });
    }
  };

  const summaryError = summary.isError && !(summary.error instanceof ApiError && summary.error.status === 401) ? errorMessage(summary.error) : null;
  return (
    <Stack gap="md">
      {mayReCertify && (
        <Group justify="flex-end">
          <Button leftSection={<IconCertificate size={16} />} onClick={() => void renew()} loading={reCertify.isPending} data-testid="technician-recertify">
            Re-Certify
          </Button>
        </Group>
      )}
      <TechnicianDetailTables
        user={technician}
        summary={summary.data}
        summaryLoading={summary.isPending}
        summaryError={summaryError}
        window={window}
      />
      <TechnicianScans technicianId={technician.id} window={window} />
      {!mayReCertify && (
        <Text size="xs" c="dimmed">
          Only a Super Admin or Sub Admin can re-certify a certified user.
        </Text>
      )}
    </Stack>
  );
}

export function TechnicianScanModal({ technicianId, onClose }: { technicianId: number | null; onClose: () => void }) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [, setSearchParams] = useSearchParams();
  const close = () => {
    // The lists inside keep their state under the modal's prefixes: gone with the modal.
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of [...next.keys()]) if (key.startsWith(TECHNICIAN_URL_PREFIX)) next.delete(key);
        return next;
      },
      { replace: true },
    );
    onClose();
  };
  return (
    <Modal opened={technicianId !== null} onClose={close} title={TECHNICIAN_MODAL_TITLE} size="90rem" fullScreen={phone} data-testid="technician-scan-modal">
      {technicianId !== null && <TechnicianScanDetail id={technicianId} />}
    </Modal>
  );
}
