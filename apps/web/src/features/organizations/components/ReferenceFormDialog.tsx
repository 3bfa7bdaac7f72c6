// Add/Edit Reference (part 1 §2.6, §5): the name, checked by the shared rule in the browser and by
// the API; a field error from the API (a duplicate name) shows on the field.
import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import { REFERENCE_MESSAGES, ZReferenceName, type TReference } from '@sc/shared/references';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { useCreateReference, useUpdateReference } from '../organizations.api.ts';

const ZReferenceForm = z.object({ name: ZReferenceName });

type ReferenceFormDialogProps = {
  opened: boolean;
  onClose: (saved: boolean) => void;
  organizationId: number;
  /** The reference to edit; absent → add. */
  reference?: TReference | null;
};

export function ReferenceFormDialog({ opened, onClose, organizationId, reference }: ReferenceFormDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={reference ? 'Edit Reference' : 'Add Reference'}
      size="md"
      data-testid="reference-form-dialog"
    >
      {/* Remounted per opening so the field starts from the reference being edited. */}
      {opened && (
        <ReferenceForm key={reference?.id ?? 'new'} organizationId={organizationId} reference={reference} onClose={onClose} />
      )}
    </Modal>
  );
}

function ReferenceForm({ organizationId, reference, onClose }: Omit<ReferenceFormDialogProps, 'opened'>) {
  const create = useCreateReference();
  const update = useUpdateReference();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: reference?.name ?? '' },
    validate: schemaResolver(ZReferenceForm, { sync: true }),
  });
  const saving = create.isPending || update.isPending;

  const submit = form.onSubmit(async ({ name }) => {
    setFormError(null);
    const value = name.trim();
    try {
      const saved = reference
        ? await update.mutateAsync({ id: reference.id, patch: { name: value } })
        : await create.mutateAsync({ name: value, is_active: true, organization: organizationId });
      notifications.show({
        color: 'teal',
        message: saved.detail || (reference ? REFERENCE_MESSAGES.updated : REFERENCE_MESSAGES.created),
      });
      onClose(true);
    } catch (error) {
      const nameErrors = error instanceof ApiError ? error.body.name : undefined;
      if (Array.isArray(nameErrors) && typeof nameErrors[0] === 'string') {
        form.setFieldError('name', nameErrors[0]);
        return;
      }
      // 403 and 5xx are announced by the client; show anything else here.
      if (error instanceof ApiError && (error.status === 403 || error.status >= 500)) return;
      const fields = error instanceof ApiError ? fieldErrorList(error.body) : [];
      setFormError(fields.length ? fields.map((f) => `${f.title}: ${f.text}`).join(' ') : errorMessage(error));
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="reference-form">
      <Stack gap="md">
        {formError && (
          <Alert color="red" variant="light" data-testid="reference-form-error">
            {formError}
          </Alert>
        )}
        <TextInput
          label="Reference name"
          placeholder="Enter reference name"
          withAsterisk
          data-autofocus
          data-testid="reference-name"
          {...form.getInputProps('name')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onClose(false)} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving} data-testid="reference-submit">
            {reference ? 'Save' : 'Add'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
