// The app version modal of the Release Notes page (part 3 §2, §4 modal mode, §5, §8) in the list kit's RecordDialog:
// an existing version opens read-only with Edit, Edit gives Cancel and Update, a new version opens with Create.
// Fields: Version name, Version code (at most 10), Tutorial version (optional, numeric), Release Notes. A server
// refusal (a code the app already has) is shown on its field and the modal stays open.
import { TextInput, Textarea } from '@mantine/core';
import {
  APP_VERSION_CODE_MAX,
  ZAppVersionInput,
  type TAppType,
  type TAppVersion,
} from '@sc/shared/app-versions';
import { RecordDialog, RecordForm, useRecordForm } from '../../../components/list/RecordDialog.tsx';
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
    <RecordDialog
      opened={opened}
      onClose={onClose}
      title={versionId === undefined ? 'Create app version' : 'App version details'}
      size="lg"
      testId="app-version"
      recordId={versionId}
      useRecord={useAppVersion}
    >
      {(version) => <AppVersionForm type={type} version={version} onClose={onClose} />}
    </RecordDialog>
  );
}

type Values = { name: string; code: string; tutorial_version: string; note: string };

const valuesOf = (v: TAppVersion | undefined): Values => ({
  name: v?.name ?? '',
  code: v?.code ?? '',
  tutorial_version: v?.tutorial_version === null || v?.tutorial_version === undefined ? '' : String(v.tutorial_version),
  note: v?.notes.note ?? '',
});

/** The form's field for an error path of the schema or of the API ('notes.note' and 'notes' are the note). */
function fieldOf(path: string): keyof Values | null {
  if (path === 'notes' || path === 'notes.note') return 'note';
  return path === 'name' || path === 'code' || path === 'tutorial_version' ? path : null;
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
  const form = useRecordForm({
    record: version,
    valuesOf,
    parse: (values: Values) =>
      ZAppVersionInput.safeParse({
        name: values.name,
        code: values.code,
        tutorial_version: values.tutorial_version,
        notes: { note: values.note },
        type,
      }),
    fieldOf,
    save: (input) => save.mutateAsync({ id: version?.id, input }),
    saving: save.isPending,
    onClose,
  });
  const { editing, textField } = form;

  return (
    <RecordForm form={form} testId="app-version">
      <TextInput
        label="Version name"
        {...textField('name', { required: true })}
        data-autofocus={editing || undefined}
        data-testid="app-version-name"
      />
      <TextInput
        label="Version code"
        {...textField('code', { required: true })}
        maxLength={editing ? APP_VERSION_CODE_MAX : undefined}
        description={editing ? `At most ${APP_VERSION_CODE_MAX} characters` : undefined}
        data-testid="app-version-code"
      />
      <TextInput
        label="Tutorial version"
        {...textField('tutorial_version')}
        inputMode="decimal"
        placeholder={editing ? 'Optional, e.g. 2.5' : undefined}
        data-testid="app-version-tutorial"
      />
      <Textarea
        label="Release Notes"
        {...textField('note', { required: true })}
        autosize
        minRows={4}
        maxRows={12}
        data-testid="app-version-note"
      />
    </RecordForm>
  );
}
