// Language setting dialog (part 1 §2.5, §4, §5): the per-language consent forms of one organization (English is
// the base list of the main form). Rows are added with a language picker and removed after confirmation;
// Submit saves them all — to the organization when it exists, else into the create form's state.
import { useEffect, useRef, useState } from 'react';
import { Button, Divider, Group, Loader, Modal, Paper, Stack, Text, Tooltip, ActionIcon, Center } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { BREAKPOINTS } from '@sc/shared/constants';
import {
  BASE_LANGUAGE_ISO,
  ORGANIZATION_MESSAGES,
  ZLocalizeRows,
  localizeFromRows,
  localizeToRows,
  type TLocalizeRow,
} from '@sc/shared/organization-input';
import type { TLocalize } from '@sc/shared/organizations';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { useOrganization } from '../organizations.api.ts';
import { ConsentListField, confirmDeleteValue } from './ConsentListField.tsx';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { LanguageSelect } from './LanguageSelect.tsx';
import { flattenServerErrors, type FormErrors } from './organizationFormValues.ts';
import { useSaveLocalize } from './organizationForm.api.ts';
import { useErrorArea } from '../../../components/useErrorArea.ts';

export type LanguageSettingDialogProps = {
  opened: boolean;
  onClose: (saved: boolean) => void;
  /** An existing organization: Submit saves its localize. Without it Submit only calls onChange. */
  organizationId?: number;
  /** The rows to start from; when absent they are loaded from the organization. */
  value?: TLocalize;
  onChange?: (localize: TLocalize) => void;
};

type Row = TLocalizeRow & { key: number };

const LISTS = [
  { field: 'ibe_consent_form', label: 'Breast consent' },
  { field: 'cervaical_consent_form', label: 'Cervical consent' },
  { field: 'orca_consent_form', label: 'ORCA consent' },
] as const;

let rowSeq = 0;
const toRows = (localize: TLocalize): Row[] => localizeToRows(localize).map((r) => ({ ...r, key: ++rowSeq }));
const emptyRow = (): Row => ({
  key: ++rowSeq,
  iso_code: '',
  name: '',
  ibe_consent_form: [''],
  cervaical_consent_form: [''],
  orca_consent_form: [''],
});

/** Checked rows (texts already normalised by the shared schema) → localize. */
function toLocalize(rows: readonly TLocalizeRow[]): TLocalize {
  const out: TLocalize = {};
  for (const [iso, v] of Object.entries(localizeFromRows(rows))) {
    out[iso] = {
      name: v.name ?? iso,
      ibe_consent_form: v.ibe_consent_form ?? [],
      cervaical_consent_form: v.cervaical_consent_form ?? [],
      orca_consent_form: v.orca_consent_form ?? [],
    };
  }
  return out;
}

export function LanguageSettingDialog({ opened, onClose, organizationId, value, onChange }: LanguageSettingDialogProps) {
  const small = useMediaQuery(`(max-width: ${BREAKPOINTS.xs}px)`);
  // Loaded only when no value is handed in (opened from the list).
  const organization = useOrganization(opened && value === undefined ? organizationId : undefined);
  const save = useSaveLocalize(organizationId);
  const errorArea = useErrorArea();
  const [rows, setRows] = useState<Row[]>([]);
  const [errors, setErrors] = useState<FormErrors>({});
  const initialised = useRef(false);

  const source = value ?? organization.data?.localize;
  useEffect(() => {
    if (!opened) {
      initialised.current = false;
      return;
    }
    if (initialised.current || source === undefined) return;
    initialised.current = true;
    setRows(toRows(source));
    setErrors({});
    errorArea.clear();
  }, [opened, source, errorArea]);

  const update = (key: number, patch: Partial<TLocalizeRow>) => {
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setErrors({});
  };

  const removeRow = async (key: number) => {
    if (!(await confirmDeleteValue())) return;
    setRows((rs) => rs.filter((r) => r.key !== key));
    setErrors({});
  };

  /** Errors of row i: client paths are [i, …]; server paths are localize.<iso>.… */
  const errorOf = (index: number, iso: string, ...rest: (string | number)[]) =>
    errors[[index, ...rest].join('.')] ?? (iso ? errors[['localize', iso, ...rest].join('.')] : undefined);

  const submit = async () => {
    const check = ZLocalizeRows.safeParse(rows.map(({ key: _key, ...r }) => r));
    if (!check.success) {
      const next: FormErrors = {};
      for (const issue of check.error.issues) next[issue.path.map(String).join('.')] ??= issue.message;
      setErrors(next);
      return;
    }
    const localize = toLocalize(check.data);
    if (organizationId === undefined) {
      onChange?.(localize);
      onClose(true);
      return;
    }
    try {
      const saved = await save.mutateAsync(localize);
      onChange?.(saved.localize);
      notifications.show({ color: 'teal', message: ORGANIZATION_MESSAGES.updated });
      onClose(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setErrors(flattenServerErrors(error.body));
        errorArea.show(fieldErrorList(error.body));
      } else {
        errorArea.show([{ title: 'Error', text: errorMessage(error) }]);
      }
    }
  };

  const chosen = rows.map((r) => r.iso_code).filter(Boolean);
  const loading = value === undefined && organization.isPending && organizationId !== undefined;

  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={
        <Stack gap={0}>
          <span>Language setting</span>
          {/* Opened from the list, the dialog names the organization it edits. */}
          {value === undefined && organization.data && (
            <Text size="sm" c="dimmed" data-testid="language-setting-organization">
              {organization.data.name}
            </Text>
          )}
        </Stack>
      }
      size="xl"
      fullScreen={small}
      data-testid="language-setting-dialog"
    >
      {loading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            English is the base consent form of the organization. Add a language to give its consent texts for breast,
            cervical and ORCA screening.
          </Text>
          {rows.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" py="md" data-testid="language-setting-empty">
              No languages added.
            </Text>
          )}
          {rows.map((row, index) => {
            const testId = `language-row-${index}`;
            return (
              <Paper key={row.key} withBorder p="md" radius="md" data-testid={testId}>
                <Group align="flex-end" wrap="nowrap" mb="sm">
                  <div style={{ flex: 1 }}>
                    <LanguageSelect
                      value={row.iso_code || null}
                      valueName={row.name}
                      excludeIso={chosen.filter((c) => c !== row.iso_code)}
                      hiddenIso={[BASE_LANGUAGE_ISO]}
                      error={errorOf(index, row.iso_code, 'iso_code') ?? (row.iso_code ? errors[`localize.${row.iso_code}`] : undefined)}
                      onChange={(l) => l && update(row.key, { iso_code: l.iso_code, name: l.name })}
                      testId={`${testId}-language`}
                    />
                  </div>
                  <Tooltip label="Delete language">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      mb={errorOf(index, row.iso_code, 'iso_code') ? 22 : 0}
                      aria-label="Delete language"
                      onClick={() => void removeRow(row.key)}
                      data-testid={`${testId}-delete`}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
                <Stack gap="sm">
                  {LISTS.map(({ field, label }, i) => (
                    <div key={field}>
                      {i > 0 && <Divider mb="sm" variant="dashed" />}
                      <ConsentListField
                        label={label}
                        items={row[field] ?? []}
                        errorOf={(j) => errorOf(index, row.iso_code, field, j)}
                        onChange={(items) => update(row.key, { [field]: items })}
                        testId={`${testId}-${field}`}
                      />
                    </div>
                  ))}
                </Stack>
              </Paper>
            );
          })}
          <Group>
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setRows((rs) => [...rs, emptyRow()])} data-testid="language-add">
              Add language
            </Button>
          </Group>
          <FormErrorArea errors={errorArea.errors} testId="language-setting-errors" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onClose(false)} data-testid="language-cancel">
              Cancel
            </Button>
            <Button onClick={() => void submit()} loading={save.isPending} data-testid="language-submit">
              Submit
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
