// The table of every list: mantine-datatable with sorting mapped to the API's `ordering`
// ('name', '-created'), a row actions menu, a loading overlay and the list's empty text. On a phone
// (≤ 600 px) columns marked `hideOnPhone` are left out. The actions column is pinned to the right
// edge, so a row's actions stay in reach however wide the other columns are.
// On a desktop the table fits its card (issue 23.12: 1,475 px of scan list in a 1,114 px card at 1440 px): when the
// drawn table is wider than its card, the columns a row can do without give way one at a time, lowest priority
// first, until it fits; a wider card brings them back. Nothing scrolls sideways at the common widths (1280–1920 px).
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Menu, VisuallyHidden } from '@mantine/core';
import { IconDotsVertical } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { usePhoneLayout } from './usePhoneLayout.ts';

export type ListColumn<T> = DataTableColumn<T> & {
  /** Left out on a phone: a column the row can do without (an id, a secondary detail). */
  hideOnPhone?: boolean;
  /**
   * Whether and when the column gives way on a card too narrow for the table: columns with a priority are left out
   * lowest first (ties: the rightmost first). Default: 1 for a `hideOnPhone` column, none (always shown) otherwise.
   */
  priority?: number;
};

/** The columns that may give way, in the order they do: lowest priority first, then the rightmost first. */
export function giveWayOrder<T>(columns: readonly ListColumn<T>[]): string[] {
  return columns
    .map((column, index) => ({ key: String(column.accessor), index, priority: column.priority ?? (column.hideOnPhone ? 1 : undefined) }))
    .filter((c): c is { key: string; index: number; priority: number } => c.priority !== undefined)
    .sort((a, b) => a.priority - b.priority || b.index - a.index)
    .map((c) => c.key);
}

export type RowAction = {
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  color?: string;
  /** Default: `row-action-<label in kebab case>`. */
  testId?: string;
};

type ListTableProps<T> = {
  records: T[] | undefined;
  /** A sortable column sorts by its `sortKey`, else its `accessor`: make it the API's ordering field. */
  columns: ListColumn<T>[];
  /** True while the first page or the next page loads. */
  fetching: boolean;
  /** 'No X yet!' or 'No X found!' (see `emptyText`). */
  emptyText: string;
  /** The API ordering: 'name' ascending, '-name' descending. */
  ordering?: string;
  onOrderingChange?: (ordering: string) => void;
  /** The actions of one row, shown in a menu at the end of the row; none → no menu. */
  rowActions?: (record: T) => RowAction[];
  /** Unique key of a record; default 'id'. */
  idAccessor?: keyof T & string;
  /** Accessible name of a row's menu button; default 'Actions'. */
  rowLabel?: (record: T) => string;
  /** A click on a row (outside its actions menu) opens the record, e.g. the dashboard's By Device rows. */
  onRowClick?: (record: T) => void;
  testId?: string;
};

/** The empty text of a list: 'No organizations yet!' without filters, 'No organizations found!' with one. */
export const emptyText = (noun: string, hasFilters: boolean): string => `No ${noun} ${hasFilters ? 'found' : 'yet'}!`;

export const kebab = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** 'name' ↔ {columnAccessor: 'name', direction: 'asc'}, '-created' ↔ desc. */
export function orderingToSortStatus<T>(ordering: string | undefined): DataTableSortStatus<T> | undefined {
  const first = ordering?.split(',')[0]?.trim();
  if (!first) return undefined;
  const desc = first.startsWith('-');
  const key = desc ? first.slice(1) : first;
  return { columnAccessor: key, sortKey: key, direction: desc ? 'desc' : 'asc' };
}

export const sortStatusToOrdering = <T,>(status: DataTableSortStatus<T>): string => {
  const key = status.sortKey ?? String(status.columnAccessor);
  return status.direction === 'desc' ? `-${key}` : key;
};

export function ListTable<T>({
  records,
  columns,
  fetching,
  emptyText: noRecordsText,
  ordering,
  onOrderingChange,
  rowActions,
  idAccessor = 'id' as keyof T & string,
  rowLabel,
  onRowClick,
  testId = 'list-table',
}: ListTableProps<T>) {
  const phone = usePhoneLayout();
  const wrapper = useRef<HTMLDivElement>(null);
  const [dropped, setDropped] = useState(0);
  const [cardWidth, setCardWidth] = useState(0);
  const shown = columns.filter((column) => !(phone && column.hideOnPhone));
  const order = giveWayOrder(shown);
  const hidden = new Set(order.slice(0, dropped));

  // A new card width or other rows: start again from every column, then give way until the table fits.
  useLayoutEffect(() => {
    const element = wrapper.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setCardWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => setDropped(0), [cardWidth, records, phone]);
  // After each change, before the browser paints: one more column gives way while the table is too wide.
  useLayoutEffect(() => {
    const element = wrapper.current;
    const table = element?.querySelector('table');
    if (!element || !table || element.clientWidth === 0) return;
    if (table.scrollWidth > element.clientWidth + 1 && dropped < order.length) {
      // An update, not `dropped + 1`: the reset above may have run in the same commit.
      setDropped((d) => Math.min(d + 1, order.length));
    }
  }, [dropped, order.length, records, cardWidth, phone]);

  const actionColumn: ListColumn<T>[] = rowActions
    ? [
        {
          accessor: '__actions',
          // The spec's lists end with an Actions column (part 3 §2 'Licence list': 'Actions (Renew, Log)'): every list
          // names it; on a phone the narrow column keeps the name for screen readers only (issue 23.23).
          title: phone ? <VisuallyHidden>Actions</VisuallyHidden> : 'Actions',
          textAlign: 'right',
          width: phone ? 48 : 84,
          render: (record) => {
            const actions = rowActions(record);
            if (actions.length === 0) return null;
            const id = String(record[idAccessor]);
            return (
              <Menu position="bottom-end" withinPortal shadow="md" width={180}>
                <Menu.Target>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={rowLabel ? rowLabel(record) : 'Actions'}
                    data-testid={`row-actions-${id}`}
                    onClick={(event) => event.stopPropagation()}
                  >
                    <IconDotsVertical size={18} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  {actions.map((action) => (
                    <Menu.Item
                      key={action.label}
                      leftSection={action.icon}
                      color={action.color}
                      onClick={action.onClick}
                      data-testid={action.testId ?? `row-action-${kebab(action.label)}`}
                    >
                      {action.label}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            );
          },
        },
      ]
    : [];

  const sortStatus = orderingToSortStatus<T>(ordering);
  const empty = !fetching && (records?.length ?? 0) === 0;

  const allColumns: DataTableColumn<T>[] = [...shown, ...actionColumn]
    .filter((column) => !hidden.has(String(column.accessor)))
    .map(({ hideOnPhone: _hideOnPhone, priority: _priority, ...column }) => column);
  const table = {
    records: records ?? [],
    columns: allColumns,
    fetching,
    idAccessor,
    noRecordsText,
    // mantine-datatable keeps its empty state in the page and only fades it out; next to real rows
    // (or while loading) a screen reader would still read 'No X yet!'. Render it only when empty.
    ...(empty ? {} : { emptyState: <span hidden /> }),
    // The actions column stays on screen whenever the table is wider than its card (a phone, or a wide list such as
    // All Users beside the menu); pinned, it only gains a shadow once the table scrolls.
    pinLastColumn: rowActions !== undefined,
    minHeight: empty || !records ? 200 : undefined,
    highlightOnHover: true,
    verticalSpacing: 'sm' as const,
    horizontalSpacing: phone ? ('xs' as const) : ('md' as const),
    withTableBorder: false,
    ...(onRowClick ? { onRowClick: ({ record }: { record: T }) => onRowClick(record) } : {}),
    'data-testid': testId,
  };

  // mantine-datatable wants sortStatus and onSortStatusChange together or not at all.
  const dataTable = sortStatus && onOrderingChange ? (
    <DataTable<T>
      {...table}
      sortStatus={sortStatus}
      onSortStatusChange={(status) => {
        // A newly chosen column starts ascending; the sorted one flips.
        const isNewColumn = (status.sortKey ?? String(status.columnAccessor)) !== sortStatus.sortKey;
        onOrderingChange(sortStatusToOrdering(isNewColumn ? { ...status, direction: 'asc' } : status));
      }}
    />
  ) : (
    <DataTable<T> {...table} />
  );
  return (
    <div ref={wrapper} data-hidden-columns={order.slice(0, dropped).join(' ') || undefined}>
      {dataTable}
    </div>
  );
}
