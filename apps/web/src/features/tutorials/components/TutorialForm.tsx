// The modal mode of the tutorial forms (part 3 §2 Modal forms, §4): an existing item opens read-only with Edit;
// Edit shows Cancel and Update; a new item opens in edit mode after about 300 ms and shows Create. A 404 on load
// shows 'Unauthorized access' with 'No module.' or 'No content.'; a save failure shows in the form error area 5 s.
import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { TUTORIAL_MESSAGES } from '@sc/shared/tutorials';
import { ApiError, fieldErrorList } from '../../../api/client.ts';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { useErrorArea } from '../../../components/useErrorArea.ts';

/** About 300 ms after a create form opens, it switches to edit mode (§2). */
export const CREATE_EDIT_DELAY_MS = 300;

export function useModalMode(isNew: boolean) {
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!isNew) return undefined;
    const timer = setTimeout(() => setEditing(true), CREATE_EDIT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isNew]);
  return { editing, setEditing };
}

/** 'Unauthorized access' with the item's 404 text. */
export function UnauthorizedAccess({ what }: { what: string }) {
  return (
    <Stack align="center" gap="xs" py="lg" data-testid="tutorial-unauthorized">
      <IconLock size={36} stroke={1.4} />
      <Title order={3} size="h4">
        {TUTORIAL_MESSAGES.unauthorized}
      </Title>
      <Text c="dimmed">{what}</Text>
    </Stack>
  );
}

export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

type FormFooterProps = {
  isNew: boolean;
  editing: boolean;
  saving: boolean;
  onEdit: () => void;
  onCancel: () => void;
  onSave: () => void;
  testPrefix: string;
};

export function FormFooter({ isNew, editing, saving, onEdit, onCancel, onSave, testPrefix }: FormFooterProps) {
  if (!editing) {
    return (
      <Group justify="flex-end">
        <Button onClick={onEdit} disabled={isNew} data-testid={`${testPrefix}-edit`}>
          Edit
        </Button>
      </Group>
    );
  }
  return (
    <Group justify="flex-end">
      {!isNew && (
        <Button variant="default" onClick={onCancel} data-testid={`${testPrefix}-cancel`}>
          Cancel
        </Button>
      )}
      <Button onClick={onSave} loading={saving} data-testid={`${testPrefix}-save`}>
        {isNew ? 'Create' : 'Update'}
      </Button>
    </Group>
  );
}

/** The error area and a helper turning a failed save into its list (5 s). */
export function useSaveErrors() {
  const area = useErrorArea();
  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.body) area.show(fieldErrorList(error.body));
    else area.show([{ title: 'error', text: error instanceof Error ? error.message : String(error) }]);
  };
  const view: ReactNode = <FormErrorArea errors={area.errors} testId="tutorial-form-errors" />;
  return { fail, view, clear: area.clear };
}

export function FormAlert({ children }: { children: ReactNode }) {
  return <Alert color="red">{children}</Alert>;
}
