import type { ReactNode } from 'react';
import { Group, Title } from '@mantine/core';

type PageHeaderProps = {
  title: ReactNode;
  /** Buttons or filters on the right. */
  actions?: ReactNode;
};

export function PageHeader({ title, actions }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="center" mb="lg" gap="sm">
      <Title order={1} data-testid="page-title">
        {title}
      </Title>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
