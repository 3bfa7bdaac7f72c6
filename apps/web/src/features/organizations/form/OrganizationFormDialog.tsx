// Organization create/edit dialog (part 1 §2.5) with the rules of §4 (auto-copy, parent forces the distributor
// flag off, booking mode), §5 (the shared ZOrganizationInput), §6 (who edits which flag) and §8 (server errors on
// their fields and in a 5-second error area). Opened from the list, the detail page and the user card.
import { useState } from 'react';
import { Button, Center, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { BREAKPOINTS } from '@sc/shared/constants';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { errorMessage } from '../../../api/client.ts';
import { useOrganization } from '../organizations.api.ts';
import { OrganizationForm } from './OrganizationForm.tsx';
import { emptyValues, valuesFromOrganization } from './organizationFormValues.ts';

export type OrganizationFormDialogProps = {
  opened: boolean;
  onClose: (saved: boolean) => void;
  /** Edit this organization; create when absent. */
  organizationId?: number;
  /** Create under this organization (fixed parent: no parent picker). */
  parentId?: number;
};

export function OrganizationFormDialog({ opened, onClose, organizationId, parentId }: OrganizationFormDialogProps) {
  const user = useSessionUser();
  const small = useMediaQuery(`(max-width: ${BREAKPOINTS.xs}px)`);
  const editing = organizationId !== undefined;
  const organization = useOrganization(opened && editing ? organizationId : undefined);
  // A new form each time the dialog opens.
  const [session, setSession] = useState(0);
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) setSession((s) => s + 1);
  }

  let body;
  if (editing && organization.isPending) {
    body = (
      <Center py={80}>
        <Loader />
      </Center>
    );
  } else if (editing && organization.isError) {
    body = (
      <Stack align="center" py="xl" gap="sm">
        <Text c="red">{errorMessage(organization.error)}</Text>
        <Button variant="default" onClick={() => onClose(false)}>
          Close
        </Button>
      </Stack>
    );
  } else {
    const org = editing ? organization.data : undefined;
    body = (
      <OrganizationForm
        key={`${session}-${org?.id ?? 'new'}`}
        role={user.user_type}
        organization={org}
        initialValues={org ? valuesFromOrganization(org) : emptyValues(parentId)}
        fixedParentId={parentId}
        onCancel={() => onClose(false)}
        onSaved={() => onClose(true)}
      />
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={editing ? 'Edit Organization' : 'Create Organization'}
      size="72rem"
      fullScreen={small}
      closeOnClickOutside={false}
      data-testid="org-form-dialog"
    >
      {opened && body}
    </Modal>
  );
}
