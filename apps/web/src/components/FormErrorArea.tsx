// The form error area of part 1 §8: each server error as a title (underscores → spaces) and its text, for 5 s.
import { Alert, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { FieldError } from '../api/client.ts';

export function FormErrorArea({ errors, testId = 'org-form-errors' }: { errors: FieldError[]; testId?: string }) {
  if (errors.length === 0) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Please correct these errors" data-testid={testId}>
      <List size="sm" spacing={2}>
        {errors.map((e) => (
          <List.Item key={`${e.title}:${e.text}`}>
            <Text span fw={600} tt="capitalize" size="sm">
              {e.title}
            </Text>
            : {e.text}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
