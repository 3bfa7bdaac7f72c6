// The app version modal of the Release Notes page (part 3 §2, §4 modal mode, §5, §8): an existing version opens
// read-only with an Edit button; Edit makes the fields editable with Cancel (back to read-only, changes dropped)
// and Update; a new version opens in edit mode with Create. Fields: Version name, Version code (at most 10),
// Tutorial version (optional, numeric), Release Notes. Invalid fields are highlighted after a submit attempt, from
// the shared schema; a server refusal (a code the app already has) is shown on its field and the modal stays open.
import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  APP_VERSION_CODE_MAX,
  ZAppVersionInput,
  type TAppType,
  type TAppVersion,
  type TAppVersionInput,
} from '@sc/shared/app-versions';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { useErrorArea } from '../../../components/useErrorArea.ts';
import { useAppVersion, useSaveAppVersion } from '../appVersions.api.ts';

type AppVersionDialogProps = {
  opened: boolean;
  /** The app of the page: a new version is created for it. */
  type: TAppType;
  /** Undefined: create; an id: that version, read-only until Edit. */
  versionId?: number;
  onClose: (saved: boolean) => void;
};

export function AppVersionDialog({ opened, type, versionId, onClose }: AppVersionDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={versionId === undefined ? 'Create app version' : 'App version details'}
      size="lg"
      data-testid="app-version-dialog"
    >
      {opened &&
        (versionId === undefined ? (
          <AppVersionForm type={type} onClose={onClose} />
        ) : (
          <AppVersionLoader id={versionId} type={type} onClose={onClose} />
        ))}
    </Modal>
  );
}

function AppVersionLoader({ id, type, onClose }: { id: number; type: TAppType; onClose: (saved: boolean) => void }) {
  const version = useAppVersion(id);
  if (version.isPending) return <Loader size="sm" data-testid="app-version-loading" />;
  if (!version.data) return <Alert color="red">{version.error ? errorMessage(version.error) : 'Not found.'}</Alert>;
  return <AppVersionForm type={type} version={version.data} onClose={onClose} />;
}

type Values = { name: string; code: string; tutorial_version: string; note: string };

const valuesOf = (v: TAppVersion | undefined): Values => ({
  name: v?.name ?? '',
  code: v?.code ?? '',
  tutorial_version: v?.tutorial_version === null || v?.tutorial_version === undefined ? '' : String(v.tutorial_version),
  note: v?.notes.note ?? '',
});

type Errors = Partial<Record<keyof Values, string>>;

/** The form's field for an error path of the schema or of the API ('notes.note' and 'notes' are the note). */
function fieldOf(path: string): keyof Values | null {
  if (path === 'notes' || path === 'notes.note') return 'note';
  return path === 'name' || path === 'code' || path === 'tutorial_version' ? path : null;
}

function validate(values: Values, type: TAppType): { input?: TAppVersionInput; errors: Errors } {
  const parsed = ZAppVersionInput.safeParse({
    name: values.name,
    code: values.code,
    tutorial_version: values.tutorial_version,
    notes: { note: values.note },
    type,
  });
  if (parsed.success) return { input: parsed.data, errors: {} };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path.join('.'));
    if (field) errors[field] ??= issue.message;
  }
  return { errors };
}

function AppVersionForm({
  type,
  version,
  onClose,
}: {
  type: TAppType;
  version?: TAppVersion;
  onClose: (saved: boolean) => void;
}) {
  const save = useSaveAppVersion();
  const errorArea = useErrorArea();
  const creating = version === undefined;
  const [editing, setEditing] = useState(creating);
  const [values, setValues] = useState<Values>(() => valuesOf(version));
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);

  const set = (key: keyof Values, value: string) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (submitted) setErrors(validate(next, type).errors);
  };

  const cancel = () => {
    setValues(valuesOf(version));
    setErrors({});
    setSubmitted(false);
    errorArea.clear();
    setEditing(false);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setSubmitted(true);
    const checked = validate(values, type);
    setErrors(checked.errors);
    if (!checked.input) return;
    errorArea.clear();
    try {
      const saved = await save.mutateAsync({ id: version?.id, input: checked.input });
      notifications.show({ color: 'teal', message: saved.detail });
      onClose(true);
    } catch (error) {
      // 401 and 5xx are the client's own (session dialog, alert); a refusal stays on screen with its fields.
      if (error instanceof ApiError && (error.status === 401 || error.status >= 500)) return;
      if (error instanceof ApiError && error.status === 400 && error.body) {
        const onFields: Errors = {};
        for (const [path, messages] of Object.entries(error.body)) {
          const field = fieldOf(path);
          if (field && Array.isArray(messages) && typeof messages[0] === 'string') onFields[field] = messages[0];
        }
        setErrors(onFields);
      }
      const list = error instanceof ApiError ? fieldErrorList(error.body) : [];
      errorArea.show(list.length > 0 ? list : [{ title: 'error', text: errorMessage(error) }]);
    }
  };

  const readOnly = !editing;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="app-version-form">
      <Stack gap="sm">
        <FormErrorArea errors={errorArea.errors} testId="app-version-form-errors" />
        <TextInput
          label="Version name"
          withAsterisk={editing}
          readOnly={readOnly}
          variant={readOnly ? 'filled' : 'default'}
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.name}
          data-autofocus={editing || undefined}
          data-testid="app-version-name"
        />
        <TextInput
          label="Version code"
          withAsterisk={editing}
          readOnly={readOnly}
          variant={readOnly ? 'filled' : 'default'}
          maxLength={editing ? APP_VERSION_CODE_MAX : undefined}
          description={editing ? `At most ${APP_VERSION_CODE_MAX} characters` : undefined}
          value={values.code}
          onChange={(e) => set('code', e.currentTarget.value)}
          error={errors.code}
          data-testid="app-version-code"
        />
        <TextInput
          label="Tutorial version"
          readOnly={readOnly}
          variant={readOnly ? 'filled' : 'default'}
          inputMode="decimal"
          placeholder={editing ? 'Optional, e.g. 2.5' : undefined}
          value={values.tutorial_version}
          onChange={(e) => set('tutorial_version', e.currentTarget.value)}
          error={errors.tutorial_version}
          data-testid="app-version-tutorial"
        />
        <Textarea
          label="Release Notes"
          withAsterisk={editing}
          readOnly={readOnly}
          variant={readOnly ? 'filled' : 'default'}
          autosize
          minRows={4}
          maxRows={12}
          value={values.note}
          onChange={(e) => set('note', e.currentTarget.value)}
          error={errors.note}
          data-testid="app-version-note"
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          {creating ? (
            <>
              <Button variant="default" onClick={() => onClose(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending} data-testid="app-version-submit">
                Create
              </Button>
            </>
          ) : editing ? (
            <>
              <Button variant="default" onClick={cancel} data-testid="app-version-cancel">
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending} data-testid="app-version-submit">
                Update
              </Button>
            </>
          ) : (
            <Button onClick={() => setEditing(true)} data-testid="app-version-edit">
              Edit
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
