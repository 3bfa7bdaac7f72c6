// 'Language details' (part 3 §2 Languages page, §4 modal mode, §5, §8): an existing language opens read-only with an
// Edit button; Edit makes the fields editable with Cancel (back to read-only, changes dropped) and Update; a new
// language opens in edit mode with Create. Fields: name, ISO code (at most 2 characters: 'Invalid ISO code,
// Maximum 2 characters'), tutorial available, and the app version, chosen among the IBE app's versions. Invalid
// fields are highlighted after a submit attempt, from the shared schema; a server refusal (an ISO code already
// taken) is shown on its field and the modal stays open.
import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ISO_CODE_MAX, ZLanguageInput, type TLanguage, type TLanguageInput } from '@sc/shared/languages';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { useErrorArea } from '../../../components/useErrorArea.ts';
import { useAppVersion, useAppVersions } from '../../app-versions/appVersions.api.ts';
import { useLanguage, useSaveLanguage } from '../languages.api.ts';

/** The picker offers the IBE app's newest versions (a release or two a month: years of them fit). */
export const APP_VERSION_PICKER_LIMIT = 100;

type LanguageDialogProps = {
  opened: boolean;
  /** Undefined: create; an id: that language, read-only until Edit. */
  languageId?: number;
  onClose: (saved: boolean) => void;
};

export function LanguageDialog({ opened, languageId, onClose }: LanguageDialogProps) {
  return (
    <Modal opened={opened} onClose={() => onClose(false)} title="Language details" size="md" data-testid="language-dialog">
      {opened &&
        (languageId === undefined ? (
          <LanguageForm onClose={onClose} />
        ) : (
          <LanguageLoader id={languageId} onClose={onClose} />
        ))}
    </Modal>
  );
}

function LanguageLoader({ id, onClose }: { id: number; onClose: (saved: boolean) => void }) {
  const language = useLanguage(id);
  if (language.isPending) return <Loader size="sm" data-testid="language-loading" />;
  if (!language.data) return <Alert color="red">{language.error ? errorMessage(language.error) : 'Not found.'}</Alert>;
  return <LanguageForm language={language.data} onClose={onClose} />;
}

type Values = { name: string; iso_code: string; is_tutorial_available: boolean; app_version: number | null };
type Errors = Partial<Record<keyof Values, string>>;
const FIELDS: readonly (keyof Values)[] = ['name', 'iso_code', 'is_tutorial_available', 'app_version'];

const valuesOf = (l: TLanguage | undefined): Values => ({
  name: l?.name ?? '',
  iso_code: l?.iso_code ?? '',
  is_tutorial_available: l?.is_tutorial_available ?? false,
  app_version: l?.app_version ?? null,
});

function validate(values: Values): { input?: TLanguageInput; errors: Errors } {
  const parsed = ZLanguageInput.safeParse(values);
  if (parsed.success) return { input: parsed.data, errors: {} };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = FIELDS.find((f) => f === issue.path[0]);
    if (field) errors[field] ??= issue.message;
  }
  return { errors };
}

function LanguageForm({ language, onClose }: { language?: TLanguage; onClose: (saved: boolean) => void }) {
  const save = useSaveLanguage();
  const errorArea = useErrorArea();
  const creating = language === undefined;
  const [editing, setEditing] = useState(creating);
  const [values, setValues] = useState<Values>(() => valuesOf(language));
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (submitted) setErrors(validate(next).errors);
  };

  const cancel = () => {
    setValues(valuesOf(language));
    setErrors({});
    setSubmitted(false);
    errorArea.clear();
    setEditing(false);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setSubmitted(true);
    const checked = validate(values);
    setErrors(checked.errors);
    if (!checked.input) return;
    errorArea.clear();
    try {
      const saved = await save.mutateAsync({ id: language?.id, input: checked.input });
      notifications.show({ color: 'teal', message: saved.detail });
      onClose(true);
    } catch (error) {
      // 401 and 5xx are the client's own (session dialog, alert); a refusal stays on screen with its fields.
      if (error instanceof ApiError && (error.status === 401 || error.status >= 500)) return;
      if (error instanceof ApiError && error.status === 400 && error.body) {
        const onFields: Errors = {};
        for (const [path, messages] of Object.entries(error.body)) {
          const field = FIELDS.find((f) => f === path);
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
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="language-form">
      <Stack gap="sm">
        <FormErrorArea errors={errorArea.errors} testId="language-form-errors" />
        <TextInput
          label="Name"
          withAsterisk={editing}
          readOnly={readOnly}
          variant={readOnly ? 'filled' : 'default'}
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.name}
          data-autofocus={editing || undefined}
          data-testid="language-name"
        />
        <TextInput
          label="ISO code"
          withAsterisk={editing}
          readOnly={readOnly}
          variant={readOnly ? 'filled' : 'default'}
          description={editing ? `At most ${ISO_CODE_MAX} letters, e.g. hi` : undefined}
          value={values.iso_code}
          onChange={(e) => set('iso_code', e.currentTarget.value)}
          error={errors.iso_code}
          data-testid="language-iso-code"
        />
        <AppVersionPicker
          value={values.app_version}
          readOnly={readOnly}
          error={errors.app_version}
          onChange={(id) => set('app_version', id)}
        />
        <Switch
          label="Tutorial available"
          checked={values.is_tutorial_available}
          // Read-only, not disabled: a disabled switch is greyed out and its state is hard to read.
          aria-readonly={readOnly || undefined}
          onChange={(e) => {
            if (!readOnly) set('is_tutorial_available', e.currentTarget.checked);
          }}
          error={errors.is_tutorial_available}
          data-testid="language-tutorial"
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          {creating ? (
            <>
              <Button variant="default" onClick={() => onClose(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending} data-testid="language-submit">
                Create
              </Button>
            </>
          ) : editing ? (
            <>
              <Button variant="default" onClick={cancel} data-testid="language-cancel">
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending} data-testid="language-submit">
                Update
              </Button>
            </>
          ) : (
            <Button onClick={() => setEditing(true)} data-testid="language-edit">
              Edit
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** The IBE app's versions (part 3 §3: the language form offers versions of type IBE), searchable by name or code. */
function AppVersionPicker({
  value,
  readOnly,
  error,
  onChange,
}: {
  value: number | null;
  readOnly: boolean;
  error?: string;
  onChange: (id: number | null) => void;
}) {
  const versions = useAppVersions({ type: 'IBE', limit: APP_VERSION_PICKER_LIMIT, ordering: '-created' });
  const listed = versions.data?.results ?? [];
  // A chosen version older than the newest ones is read on its own so its label shows.
  const chosen = useAppVersion(value !== null && !listed.some((v) => v.id === value) && versions.isSuccess ? value : null);
  const options = [...listed, ...(chosen.data && chosen.data.type === 'IBE' ? [chosen.data] : [])].map((v) => ({
    value: String(v.id),
    label: `${v.name} (${v.code})`,
  }));
  return (
    <Select
      label="App version"
      placeholder={readOnly ? 'None' : 'Select an IBE app version'}
      data={options}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v === null ? null : Number(v))}
      searchable
      clearable={!readOnly}
      readOnly={readOnly}
      variant={readOnly ? 'filled' : 'default'}
      nothingFoundMessage={versions.isFetching ? 'Loading…' : 'No app version found'}
      maxDropdownHeight={300}
      error={error}
      comboboxProps={{ withinPortal: true }}
      data-testid="language-app-version"
    />
  );
}
