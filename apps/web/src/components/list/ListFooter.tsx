// The footer of every list: page size (10, 20, 40, 60, 100), the total as "{n} items" and a pager
// with at most 5 page links plus first/last links (part 1 §9, part 3 "Common list behaviour").
// A capped total (the list envelope's `count_capped`: a text search counted only SEARCH_COUNT_AHEAD rows past the
// page) reads "More than {n} items" and the pager offers one page past the counted ones.
import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZES, PAGER_LINKS } from '@sc/shared/constants';

type ListFooterProps = {
  page: number;
  limit: number;
  total: number;
  onPageChange: (page: number) => void;
  onLimitChange: (limit: number) => void;
  pageSizes?: readonly number[];
  /**
   * `total` is a lower bound (the answer's `count_capped`): more rows match. The total reads "More than {n} items"
   * and the pager has one page more than the counted ones, so Next (and Last) lead past them; there the server counts
   * further and the pager grows.
   */
  capped?: boolean;
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

/** The pages the pager offers: the counted ones (at least 1), plus one past them when the count is capped. */
export function pagerPages(total: number, limit: number, capped = false): number {
  const counted = Math.ceil(total / limit);
  return capped ? counted + 1 : Math.max(1, counted);
}

export function ListFooter({
  page,
  limit,
  total,
  onPageChange,
  onLimitChange,
  pageSizes = PAGE_SIZES,
  capped = false,
}: ListFooterProps) {
  const pages = pagerPages(total, limit, capped);
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
          {capped && 'More than '}
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
