// One Yes/No flag of Basic info: a switch for the roles that may change it, read-only Yes or No for the others
// (part 1 §6).
import { Group, Switch, Text } from '@mantine/core';

type FlagFieldProps = {
  label: string;
  checked: boolean;
  editable: boolean;
  disabled?: boolean;
  description?: string;
  testId: string;
  onChange: (checked: boolean) => void;
};

export function FlagField({ label, checked, editable, disabled, description, testId, onChange }: FlagFieldProps) {
  if (!editable) {
    return (
      <Group justify="space-between" wrap="nowrap" gap="xs" data-testid={testId} data-readonly="true">
        <Text size="sm">{label}</Text>
        <Text size="sm" fw={600} c={checked ? 'teal' : 'dimmed'} data-testid={`${testId}-value`}>
          {checked ? 'Yes' : 'No'}
        </Text>
      </Group>
    );
  }
  return (
    <Switch
      label={label}
      description={description}
      checked={checked}
      disabled={disabled}
      onChange={(e) => onChange(e.currentTarget.checked)}
      data-testid={testId}
    />
  );
}
