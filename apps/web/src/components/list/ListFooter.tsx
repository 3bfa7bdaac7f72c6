// The footer of every list: page size (10, 20, 40, 60, 100), the total as "{n} items" and a pager
// with at most 5 page links plus first/last links (part 1 §9, part 3 "Common list behaviour").
// A capped total (the list envelope's `count_capped`: a text search counted only SEARCH_COUNT_AHEAD rows past the
// page) reads "More than {n} items" and the pager offers one page past the counted ones.
import { Button, Group, Pagination, Select, Text } from '@mantine/core';
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

/** The footer's left side, the same on both pagers: rows per page and how many items. */
function PageSizeAndTotal({
  limit,
  total,
  capped,
  pageSizes,
  onLimitChange,
}: {
  limit: number;
  total: number;
  capped: boolean;
  pageSizes: readonly number[];
  onLimitChange: (limit: number) => void;
}) {
  return (
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
  );
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
      <PageSizeAndTotal limit={limit} total={total} capped={capped} pageSizes={pageSizes} onLimitChange={onLimitChange} />
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

/** The cursor a keyset answer's `next` / `previous` link names: `{before: id}` or `{after: id}`; null for no link. */
export type KeysetCursor = { before?: number; after?: number };
export function keysetCursor(link: string | null | undefined): KeysetCursor | null {
  if (!link) return null;
  const query = new URLSearchParams(link.includes('?') ? link.slice(link.indexOf('?') + 1) : '');
  const before = Number(query.get('before'));
  const after = Number(query.get('after'));
  if (Number.isInteger(before) && before > 0) return { before };
  if (Number.isInteger(after) && after > 0) return { after };
  return null;
}

type KeysetFooterProps = {
  limit: number;
  /** The answer's count from the current position (a lower bound when `capped`). */
  total: number;
  capped?: boolean;
  /** The answer's `next` (older rows) and `previous` (newer rows) links. */
  next: string | null | undefined;
  previous: string | null | undefined;
  /** Go to a cursor; `{}` is the newest rows (the first page). */
  onCursorChange: (cursor: KeysetCursor) => void;
  onLimitChange: (limit: number) => void;
  /** True while not on the first page: offers Newest. */
  paged?: boolean;
  pageSizes?: readonly number[];
};

/**
 * The footer of a keyset list (newest first; the audit trail): page size, the total ("More than {n} items" when the
 * count stopped counting), and Newest / Newer / Older buttons driven by the answer's `previous` and `next` links
 * instead of page numbers (a keyset list cannot jump to page 40 000).
 */
export function KeysetFooter({
  limit,
  total,
  capped = false,
  next,
  previous,
  onCursorChange,
  onLimitChange,
  paged = false,
  pageSizes = PAGE_SIZES,
}: KeysetFooterProps) {
  const older = keysetCursor(next);
  const newer = keysetCursor(previous);
  return (
    <Group justify="space-between" gap="sm" px="md" py="sm" data-testid="list-footer">
      <PageSizeAndTotal limit={limit} total={total} capped={capped} pageSizes={pageSizes} onLimitChange={onLimitChange} />
      <Group gap={6} wrap="nowrap" data-testid="list-keyset-pager">
        <Button size="compact-sm" variant="default" disabled={!paged} onClick={() => onCursorChange({})} data-testid="list-newest">
          Newest
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          disabled={!newer}
          onClick={() => newer && onCursorChange(newer)}
          data-testid="list-newer"
        >
          Newer
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          disabled={!older}
          onClick={() => older && onCursorChange(older)}
          data-testid="list-older"
        >
          Older
        </Button>
      </Group>
    </Group>
  );
}
