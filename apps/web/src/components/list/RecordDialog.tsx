// The modal mode of a list's record dialog (part 3 §4 modal mode, §5, §8): an existing record opens read-only with
// an Edit button; Edit makes the fields editable with Cancel (back to read-only, changes dropped) and Update; a new
// record opens in edit mode with Create. Invalid fields are highlighted after a submit attempt, from the shared
// schema, and follow each change from then on; a server refusal (400) is shown on its fields and in the form's
// error area, and the dialog stays open; a save closes it with the API's success message. Used by the Languages and
// Release Notes dialogs: each gives its fields, its values, its schema and its save.
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, type ModalProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { UseQueryResult } from '@tanstack/react-query';
import { ApiError, errorMessage, fieldErrorList } from '../../api/client.ts';
import { FormErrorArea } from '../FormErrorArea.tsx';
import { useErrorArea } from '../useErrorArea.ts';

type RecordDialogProps<R> = {
  opened: boolean;
  onClose: (saved: boolean) => void;
  title: string;
  size?: ModalProps['size'];
  /** The test id prefix: `<p>-dialog`, `<p>-loading`. */
  testId: string;
  /** Undefined: create; an id: that record, read with `useRecord`, read-only until Edit. */
  recordId?: number;
  /** The feature's query hook of one record (a module-level function, so the same hook runs every render). */
  useRecord: (id: number) => UseQueryResult<R>;
  /** The form, mounted only while the dialog is open (each opening starts fresh); `undefined` to create. */
  children: (record: R | undefined) => ReactNode;
};

export function RecordDialog<R>({
  opened,
  onClose,
  title,
  size = 'md',
  testId,
  recordId,
  useRecord,
  children,
}: RecordDialogProps<R>) {
  return (
    <Modal opened={opened} onClose={() => onClose(false)} title={title} size={size} data-testid={`${testId}-dialog`}>
      {opened &&
        (recordId === undefined ? (
          children(undefined)
        ) : (
          <RecordLoader id={recordId} useRecord={useRecord} testId={testId}>
            {children}
          </RecordLoader>
        ))}
    </Modal>
  );
}

function RecordLoader<R>({
  id,
  useRecord,
  testId,
  children,
}: {
  id: number;
  useRecord: (id: number) => UseQueryResult<R>;
  testId: string;
  children: (record: R) => ReactNode;
}) {
  const record = useRecord(id);
  if (record.isPending) return <Loader size="sm" data-testid={`${testId}-loading`} />;
  if (!record.data) return <Alert color="red">{record.error ? errorMessage(record.error) : 'Not found.'}</Alert>;
  return children(record.data);
}

/** What `safeParse` of a zod schema answers, as far as the form reads it. */
type Parsed<I> =
  | { success: true; data: I }
  | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };

type RecordFormOptions<R, V, I> = {
  /** The record shown; undefined to create. */
  record: R | undefined;
  /** The form's values of a record (or of a new one). */
  valuesOf: (record: R | undefined) => V;
  /** The shared schema's safeParse of the values (adding what the page fixes, such as an app type). */
  parse: (values: V) => Parsed<I>;
  /** The form's field for an error path of the schema or of the API ('notes.note'), or null for none. */
  fieldOf: (path: string) => keyof V | null;
  /** POST (no record) or PUT; answers the API's success message. */
  save: (input: I) => Promise<{ detail: string }>;
  saving: boolean;
  onClose: (saved: boolean) => void;
};

export type RecordFormErrors<V> = Partial<Record<keyof V, string>>;

/** The keys of the form's text values. */
type TextKey<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V];

function errorsOf<V, I>(parsed: Parsed<I>, fieldOf: (path: string) => keyof V | null): RecordFormErrors<V> {
  const errors: RecordFormErrors<V> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path.map(String).join('.'));
    if (field !== null) errors[field] ??= issue.message;
  }
  return errors;
}

/** The state of a record form in modal mode; render it with `RecordForm`. */
export function useRecordForm<R, V, I>({
  record,
  valuesOf,
  parse,
  fieldOf,
  save,
  saving,
  onClose,
}: RecordFormOptions<R, V, I>) {
  const errorArea = useErrorArea();
  const creating = record === undefined;
  const [editing, setEditing] = useState(creating);
  const [values, setValues] = useState<V>(() => valuesOf(record));
  const [errors, setErrors] = useState<RecordFormErrors<V>>({});
  const [submitted, setSubmitted] = useState(false);

  const set = <K extends keyof V>(key: K, value: V[K]) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (submitted) setErrors(errorsOf(parse(next), fieldOf));
  };

  const cancel = () => {
    setValues(valuesOf(record));
    setErrors({});
    setSubmitted(false);
    errorArea.clear();
    setEditing(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setSubmitted(true);
    const parsed = parse(values);
    setErrors(errorsOf(parsed, fieldOf));
    if (!parsed.success) return;
    errorArea.clear();
    try {
      const saved = await save(parsed.data);
      notifications.show({ color: 'teal', message: saved.detail });
      onClose(true);
    } catch (error) {
      // 401 and 5xx are the client's own (session dialog, alert); a refusal stays on screen with its fields.
      if (error instanceof ApiError && (error.status === 401 || error.status >= 500)) return;
      if (error instanceof ApiError && error.status === 400 && error.body) {
        const onFields: RecordFormErrors<V> = {};
        for (const [path, messages] of Object.entries(error.body)) {
          const field = fieldOf(path);
          if (field !== null && Array.isArray(messages) && typeof messages[0] === 'string') onFields[field] = messages[0];
        }
        setErrors(onFields);
      }
      const list = error instanceof ApiError ? fieldErrorList(error.body) : [];
      errorArea.show(list.length > 0 ? list : [{ title: 'error', text: errorMessage(error) }]);
    }
  };

  const readOnly = !editing;
  const fieldMode = { readOnly, variant: readOnly ? 'filled' : 'default' } as const;
  /** Spread on a TextInput or Textarea of a text value: its value, change, error, mode and required mark. */
  const textField = <K extends TextKey<V>>(key: K, options: { required?: boolean } = {}) => ({
    ...fieldMode,
    value: values[key] as string,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.currentTarget.value as V[K]),
    error: errors[key],
    withAsterisk: options.required ? editing : undefined,
  });
  return {
    creating,
    editing,
    readOnly,
    /** Spread on a field the form renders itself: read-only and filled until Edit. */
    fieldMode,
    textField,
    values,
    errors,
    set,
    edit: () => setEditing(true),
    cancel,
    submit,
    saving,
    areaErrors: errorArea.errors,
    onClose,
  };
}

export type RecordFormState = Pick<
  ReturnType<typeof useRecordForm>,
  'creating' | 'editing' | 'saving' | 'edit' | 'cancel' | 'submit' | 'areaErrors' | 'onClose'
>;

/**
 * The form of `useRecordForm`: the error area, the fields, and the buttons of the mode: Cancel and Create, Cancel
 * and Update, or Edit. Test ids `<p>-form`, `<p>-form-errors`, `<p>-submit`, `<p>-cancel`, `<p>-edit`.
 */
export function RecordForm({ form, testId, children }: { form: RecordFormState; testId: string; children: ReactNode }) {
  return (
    <form onSubmit={(e) => void form.submit(e)} noValidate data-testid={`${testId}-form`}>
      <Stack gap="sm">
        <FormErrorArea errors={form.areaErrors} testId={`${testId}-form-errors`} />
        {children}
        <Group justify="flex-end" gap="sm" mt="xs">
          {form.editing ? (
            <>
              <Button
                variant="default"
                onClick={form.creating ? () => form.onClose(false) : form.cancel}
                data-testid={form.creating ? undefined : `${testId}-cancel`}
              >
                Cancel
              </Button>
              <Button type="submit" loading={form.saving} data-testid={`${testId}-submit`}>
                {form.creating ? 'Create' : 'Update'}
              </Button>
            </>
          ) : (
            <Button onClick={form.edit} data-testid={`${testId}-edit`}>
              Edit
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
