// 'Language details' (part 3 §2 Languages page, §4 modal mode, §5, §8) in the list kit's RecordDialog: an existing
// language opens read-only with Edit, Edit gives Cancel and Update, a new language opens with Create. Fields: name,
// ISO code (at most 2 characters: 'Invalid ISO code, Maximum 2 characters'), tutorial available, and the app
// version, chosen among the IBE app's versions. A server refusal (an ISO code already taken) is shown on its field
// and the modal stays open.
import { Select, Switch, TextInput } from '@mantine/core';
import { ISO_CODE_MAX, ZLanguageInput, type TLanguage } from '@sc/shared/languages';
import { RecordDialog, RecordForm, useRecordForm } from '../../../components/list/RecordDialog.tsx';
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
    <RecordDialog
      opened={opened}
      onClose={onClose}
      title="Language details"
      testId="language"
      recordId={languageId}
      useRecord={useLanguage}
    >
      {(language) => <LanguageForm language={language} onClose={onClose} />}
    </RecordDialog>
  );
}

type Values = { name: string; iso_code: string; is_tutorial_available: boolean; app_version: number | null };
const FIELDS: readonly (keyof Values)[] = ['name', 'iso_code', 'is_tutorial_available', 'app_version'];

const valuesOf = (l: TLanguage | undefined): Values => ({
  name: l?.name ?? '',
  iso_code: l?.iso_code ?? '',
  is_tutorial_available: l?.is_tutorial_available ?? false,
  app_version: l?.app_version ?? null,
});

const fieldOf = (path: string): keyof Values | null => FIELDS.find((f) => f === path) ?? null;

function LanguageForm({ language, onClose }: { language?: TLanguage; onClose: (saved: boolean) => void }) {
  const save = useSaveLanguage();
  const form = useRecordForm({
    record: language,
    valuesOf,
    parse: (values: Values) => ZLanguageInput.safeParse(values),
    fieldOf,
    save: (input) => save.mutateAsync({ id: language?.id, input }),
    saving: save.isPending,
    onClose,
  });
  const { editing, readOnly, values, errors, set, textField } = form;

  return (
    <RecordForm form={form} testId="language">
      <TextInput
        label="Name"
        {...textField('name', { required: true })}
        data-autofocus={editing || undefined}
        data-testid="language-name"
      />
      <TextInput
        label="ISO code"
        {...textField('iso_code', { required: true })}
        description={editing ? `At most ${ISO_CODE_MAX} letters, e.g. hi` : undefined}
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
    </RecordForm>
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
