// The licence count input of part 3 §5: read-only, changed only by minus and plus buttons in steps of 100; minus is
// disabled at the minimum (100 when adding a licence, 0 for the amount a renewal adds).
import { ActionIcon, Group, Input, Text } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { canDecreaseCount, decreaseCount, increaseCount } from '@sc/shared/licences';

type LicenceCountStepperProps = {
  label: string;
  value: number;
  min: number;
  onChange: (value: number) => void;
  error?: string;
  testId: string;
};

export function LicenceCountStepper({
  label,
  value,
  min,
  onChange,
  error,
  testId,
}: LicenceCountStepperProps) {
  return (
    <Input.Wrapper label={label} withAsterisk error={error}>
      <Group gap="xs" wrap="nowrap" mt={4}>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={`Decrease ${label.toLowerCase()}`}
          disabled={!canDecreaseCount(value, min)}
          onClick={() => onChange(decreaseCount(value, min))}
          data-testid={`${testId}-minus`}
        >
          <IconMinus size={16} />
        </ActionIcon>
        <Text
          component="output"
          aria-live="polite"
          aria-label={label}
          fw={600}
          miw={80}
          ta="center"
          py={6}
          style={{
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
          data-testid={testId}
        >
          {value}
        </Text>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={`Increase ${label.toLowerCase()}`}
          onClick={() => onChange(increaseCount(value))}
          data-testid={`${testId}-plus`}
        >
          <IconPlus size={16} />
        </ActionIcon>
      </Group>
    </Input.Wrapper>
  );
}
