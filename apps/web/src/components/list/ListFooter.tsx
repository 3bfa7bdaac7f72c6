// The footer of every list: page size (10, 20, 40, 60, 100), the total as "{n} items" and a pager
// with at most 5 page links plus first/last links (part 1 §9, part 3 "Common list behaviour").
import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZES, PAGER_LINKS } from '@sc/shared/constants';

type ListFooterProps = {
  page: number;
  limit: number;
  total: number;
  onPageChange: (page: number) => void;
  onLimitChange: (limit: number) => void;
  pageSizes?: readonly number[];
};

/**
 * The page numbers the pager links to: at most `links` (5), the current page centred where it can be
 * (1–5 on page 1, 8–12 on page 10, 20–24 on the last of 24). Mantine's own range shows six numbers
 * near either end, so the pager is composed from its parts with this window.
 */
export function pagerWindow(page: number, pages: number, links = PAGER_LINKS): number[] {
  const count = Math.min(links, pages);
  const start = Math.min(Math.max(1, page - Math.floor(links / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

export function ListFooter({ page, limit, total, onPageChange, onLimitChange, pageSizes = PAGE_SIZES }: ListFooterProps) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const current = Math.min(page, pages);
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
      <Pagination.Root
        total={pages}
        value={current}
        onChange={onPageChange}
        size="sm"
      >
        <Group gap={6} wrap="nowrap" data-testid="list-pagination">
          <Pagination.First aria-label="first page" />
          <Pagination.Previous aria-label="previous page" />
          {pagerWindow(current, pages).map((n) => (
            <Pagination.Control
              key={n}
              active={n === current}
              aria-current={n === current ? 'page' : undefined}
              onClick={() => onPageChange(n)}
            >
              {n}
            </Pagination.Control>
          ))}
          <Pagination.Next aria-label="next page" />
          <Pagination.Last aria-label="last page" />
        </Group>
      </Pagination.Root>
    </Group>
  );
}
