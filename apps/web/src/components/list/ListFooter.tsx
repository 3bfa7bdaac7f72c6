// The footer of every list: page size (10, 20, 40, 60, 100), the total as "{n} items" and a pager
// with at most 5 page links plus first/last links (part 1 §9, part 3 "Common list behaviour").
import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZES } from '@sc/shared/constants';

type ListFooterProps = {
  page: number;
  limit: number;
  total: number;
  onPageChange: (page: number) => void;
  onLimitChange: (limit: number) => void;
  pageSizes?: readonly number[];
};

const PAGE_SIBLINGS = 2; // the current page and two either side: 5 links

export function ListFooter({ page, limit, total, onPageChange, onLimitChange, pageSizes = PAGE_SIZES }: ListFooterProps) {
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <Group justify="space-between" gap="sm" px="md" py="sm" data-testid="list-footer">
      <Group gap="sm">
        <Select
          aria-label="Rows per page"
          data={pageSizes.map((n) => ({ value: String(n), label: `${n} / page` }))}
          value={String(limit)}
          onChange={(v) => v && onLimitChange(Number(v))}
          allowDeselect={false}
          w={120}
          size="xs"
          data-testid="list-page-size"
          comboboxProps={{ withinPortal: true }}
        />
        <Text size="sm" c="dimmed" data-testid="list-total">
          {total} {total === 1 ? 'item' : 'items'}
        </Text>
      </Group>
      <Pagination
        total={pages}
        value={Math.min(page, pages)}
        onChange={onPageChange}
        siblings={PAGE_SIBLINGS}
        boundaries={0}
        withEdges
        size="sm"
        data-testid="list-pagination"
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
      />
    </Group>
  );
}
