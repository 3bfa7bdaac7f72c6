// An editable list of consent texts (part 1 §2.5): add a row, remove one after the shared confirmation; the
// texts are normalised when the form is saved.
import { ActionIcon, Button, Group, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { CONSENT_MAX_WORDS } from '@sc/shared/constants';
import { MESSAGES, countWords } from '@sc/shared/validation';
import { confirm } from '../../../components/ConfirmDialog.tsx';

type ConsentListFieldProps = {
  label: string;
  items: string[];
  /** Error of item i. */
  errorOf: (index: number) => string | undefined;
  testId: string;
  onChange: (items: string[]) => void;
  addLabel?: string;
};

/** Asks the spec's question before a consent text or language row is removed. */
export const confirmDeleteValue = () => confirm({ message: MESSAGES.deleteValueConfirm, confirmLabel: 'Delete', danger: true });

export function ConsentListField({ label, items, errorOf, testId, onChange, addLabel = 'Add consent' }: ConsentListFieldProps) {
  const remove = async (index: number) => {
    if (!(await confirmDeleteValue())) return;
    onChange(items.filter((_, i) => i !== index));
  };

  return (
    <Stack gap="xs" data-testid={testId}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {items.length === 0 && (
        <Text size="sm" c="dimmed">
          No consent texts yet.
        </Text>
      )}
      {items.map((text, index) => {
        const words = countWords(text);
        return (
          // Items have no identity of their own; the index is their position in the saved list.
          <Group key={index} align="flex-start" wrap="nowrap" gap="xs">
            <Textarea
              flex={1}
              autosize
              minRows={2}
              maxRows={8}
              aria-label={`${label} ${index + 1}`}
              placeholder={`Consent text ${index + 1}`}
              value={text}
              error={errorOf(index)}
              description={
                <Text span size="xs" c={words > CONSENT_MAX_WORDS ? 'red' : 'dimmed'}>
                  {words}/{CONSENT_MAX_WORDS} words
                </Text>
              }
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              onChange={(e) => onChange(items.map((t, i) => (i === index ? e.currentTarget.value : t)))}
              data-testid={`${testId}-${index}`}
            />
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                mt={6}
                aria-label={`Delete ${label} ${index + 1}`}
                onClick={() => void remove(index)}
                data-testid={`${testId}-delete-${index}`}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        );
      })}
      <Group>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...items, ''])}
          data-testid={`${testId}-add`}
        >
          {addLabel}
        </Button>
      </Group>
    </Stack>
  );
}
