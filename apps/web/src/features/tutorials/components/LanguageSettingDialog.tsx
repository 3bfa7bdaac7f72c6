// The language setting modal of a module, quiz, quiz option or content item (part 3 §2, §5 translation rows):
// one block per extra language with a searchable picker (500 ms, English never offered, a language once) and the
// kind's text fields; blocks are added and deleted (after a confirm); nothing is saved until Submit, which PUTs
// the item with its `localize`. An invalid form scrolls to the first invalid field; a failure shows for 5 s.
import { useState } from 'react';
import { ActionIcon, Alert, Button, Card, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  BASE_LANGUAGE,
  LOCALIZE_ENTRY_SCHEMAS,
  LOCALIZE_FIELDS,
  LOCALIZE_LABELS,
  LOCALIZE_MULTILINE,
  LOCALIZE_REQUIRED,
  TUTORIAL_MESSAGES,
  type TLocalizeKind,
  type TLocalizeOut,
} from '@sc/shared/tutorials';
import { ERROR_BANNER_MS } from '@sc/shared/constants';
import { errorMessage } from '../../../api/client.ts';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { useTimedMessage } from '../../../components/useTimedMessage.ts';
import { LanguageSelect } from '../../organizations/form/LanguageSelect.tsx';
import { useLanguageOptions } from '../../organizations/form/organizationForm.api.ts';
import { StackedModal } from './StackedModal.tsx';

/** The language picker's list is at most 300 px high (part 3 §2 Language setting modal). */
const LANGUAGE_LIST_MAX_HEIGHT = 300;

type Block = { key: number; iso: string | null; name?: string; texts: Record<string, string> };
type Errors = Record<string, string>;

export type LanguageSettingDialogProps = {
  kind: TLocalizeKind;
  /** The item's name in the title ('Language setting – Getting started'). */
  itemName: string;
  localize: TLocalizeOut | undefined;
  opened: boolean;
  onClose: () => void;
  /** Saves the item with this localize; resolves to the success message. */
  onSubmit: (localize: Record<string, Record<string, string>>) => Promise<string>;
  onSaved?: (message: string) => void;
  /** Narrower over a modal of the same width (an option's, over its quiz form), so that one stays in view. */
  size?: 'md' | 'lg';
};

let nextKey = 1;
const blocksOf = (localize: TLocalizeOut | undefined, kind: TLocalizeKind): Block[] =>
  Object.entries(localize ?? {}).map(([iso, texts]) => ({
    key: nextKey++,
    iso,
    texts: Object.fromEntries(LOCALIZE_FIELDS[kind].map((f) => [f, texts[f] ?? ''])),
  }));

export function LanguageSettingDialog(props: LanguageSettingDialogProps) {
  return (
    <StackedModal
      opened={props.opened}
      onClose={props.onClose}
      title={`Language setting – ${props.itemName}`}
      size={props.size ?? 'lg'}
      data-testid="language-setting-dialog"
    >
      {props.opened && <LanguageSettingForm {...props} />}
    </StackedModal>
  );
}

function LanguageSettingForm({ kind, localize, onClose, onSubmit, onSaved }: LanguageSettingDialogProps) {
  const [blocks, setBlocks] = useState<Block[]>(() => blocksOf(localize, kind));
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const failure = useTimedMessage(ERROR_BANNER_MS);
  const names = useLanguageOptions('', 100);
  const nameOf = (iso: string) => names.data?.results.find((l) => l.iso_code === iso)?.name ?? iso;
  const fields = LOCALIZE_FIELDS[kind];

  const update = (key: number, change: Partial<Block>) =>
    setBlocks((all) => all.map((b) => (b.key === key ? { ...b, ...change } : b)));

  const remove = async (block: Block) => {
    const ok = await confirm({ title: 'Delete language', message: TUTORIAL_MESSAGES.deleteTranslation(kind), confirmLabel: 'Delete', danger: true });
    if (ok) setBlocks((all) => all.filter((b) => b.key !== block.key));
  };

  const validate = (): Errors => {
    const found: Errors = {};
    const seen = new Set<string>();
    for (const block of blocks) {
      if (!block.iso) found[`${block.key}.language`] = TUTORIAL_MESSAGES.selectLanguage;
      else if (seen.has(block.iso)) found[`${block.key}.language`] = TUTORIAL_MESSAGES.languageAlreadySelected;
      else if (block.iso === BASE_LANGUAGE) found[`${block.key}.language`] = TUTORIAL_MESSAGES.languageNotInList;
      if (block.iso) seen.add(block.iso);
      const parsed = LOCALIZE_ENTRY_SCHEMAS[kind].safeParse(block.texts);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) found[`${block.key}.${String(issue.path[0])}`] ??= issue.message;
      }
    }
    return found;
  };

  const submit = async () => {
    const found = validate();
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      document.querySelector(`[data-field="${first}"]`)?.scrollIntoView({ block: 'center' });
      return;
    }
    setSaving(true);
    try {
      const payload = Object.fromEntries(
        blocks.map((b) => [b.iso as string, Object.fromEntries(fields.map((f) => [f, (b.texts[f] ?? '').trim()]))]),
      );
      const message = await onSubmit(payload);
      onSaved?.(message);
      onClose();
    } catch (error) {
      failure.show(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md">
      {blocks.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="language-setting-empty">
          No translations yet. Add a language to translate this item; English is the item itself.
        </Text>
      )}
      {blocks.map((block, index) => (
        <Card key={block.key} withBorder padding="sm" data-testid={`language-block-${index}`}>
          <Stack gap="xs">
            <Group align="flex-end" wrap="nowrap" data-field={`${block.key}.language`}>
              <div style={{ flex: 1 }}>
                <LanguageSelect
                  value={block.iso}
                  valueName={block.name ?? (block.iso ? nameOf(block.iso) : undefined)}
                  excludeIso={blocks.filter((b) => b.key !== block.key && b.iso).map((b) => b.iso as string)}
                  hiddenIso={[BASE_LANGUAGE]}
                  error={errors[`${block.key}.language`]}
                  testId={`language-select-${index}`}
                  maxDropdownHeight={LANGUAGE_LIST_MAX_HEIGHT}
                  onChange={(language) => update(block.key, { iso: language?.iso_code ?? null, name: language?.name })}
                />
              </div>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label="Delete language"
                onClick={() => void remove(block)}
                data-testid={`language-delete-${index}`}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Group>
            {fields.map((field) => {
              const common = {
                key: field,
                label: LOCALIZE_LABELS[field],
                withAsterisk: LOCALIZE_REQUIRED.has(field),
                value: block.texts[field] ?? '',
                error: errors[`${block.key}.${field}`],
                'data-field': `${block.key}.${field}`,
                'data-testid': `language-${field}-${index}`,
                onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
                  update(block.key, { texts: { ...block.texts, [field]: e.currentTarget.value } }),
              };
              return LOCALIZE_MULTILINE.has(field) ? (
                <Textarea {...common} key={field} autosize minRows={2} maxRows={6} />
              ) : (
                <TextInput {...common} key={field} />
              );
            })}
          </Stack>
        </Card>
      ))}
      {failure.message && (
        <Alert color="red" data-testid="language-setting-error">
          {failure.message}
        </Alert>
      )}
      <Group justify="space-between">
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => setBlocks((all) => [...all, { key: nextKey++, iso: null, texts: Object.fromEntries(fields.map((f) => [f, ''])) }])}
          data-testid="language-add"
        >
          Add language
        </Button>
        <Button onClick={() => void submit()} loading={saving} data-testid="language-submit">
          Submit
        </Button>
      </Group>
    </Stack>
  );
}
