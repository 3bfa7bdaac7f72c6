// Layout of a list page: the title with its actions (Add, Download) on top, a toolbar (search,
// filters, period tabs), then the table and footer in one card. Embedded in another page (an
// organization's tab) the title is hidden and the actions join the toolbar.
import type { ReactNode } from 'react';
import { Group, Paper, Stack } from '@mantine/core';
import { PageHeader } from '../PageHeader.tsx';

type ListPageProps = {
  title: ReactNode;
  /** Inside another page: no title (part 1 §2.4). */
  embedded?: boolean;
  /** Right of the title: Add, Download CSV. */
  actions?: ReactNode;
  /** Left of the toolbar: search and filter dropdowns. */
  filters?: ReactNode;
  /** Right of the toolbar: the period tabs. */
  period?: ReactNode;
  /** The table. */
  children: ReactNode;
  /** Under the table, inside the card: ListFooter. */
  footer?: ReactNode;
  testId?: string;
};

export function ListPage({ title, embedded = false, actions, filters, period, children, footer, testId }: ListPageProps) {
  return (
    <Stack gap="md" data-testid={testId}>
      {!embedded && <PageHeader title={title} actions={actions} />}
      {(filters || period || (embedded && actions)) && (
        <Group justify="space-between" align="center" gap="sm">
          {/* On a phone the filters take the whole line, so a search box's 100% is the screen's width. */}
          <Group gap="sm" align="center" w={{ base: '100%', sm: 'auto' }}>
            {filters}
          </Group>
          <Group gap="sm" align="center">
            {period}
            {embedded && actions}
          </Group>
        </Group>
      )}
      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        {children}
        {footer}
      </Paper>
    </Stack>
  );
}
