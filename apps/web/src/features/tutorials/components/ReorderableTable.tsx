// The reorderable table of the tutorial lists (modules, a module's contents, its quizzes): the list kit's table
// with a drag grip before the columns, every cell a drop zone, and Move up / Move down after the row's own actions
// for the keyboard. A move writes the z_order of the whole list in one call and says so. Reordering is off while
// a search is active: the rows shown are then not a contiguous part of the list.
import type { ReactNode } from 'react';
import { notifications } from '@mantine/notifications';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { errorMessage } from '../../../api/client.ts';
import { ListTable, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import type { TReorderChange } from '../reorder.ts';
import { useReorder, type TReorderKind } from '../tutorials.api.ts';
import { useDragRows } from './dragReorder.tsx';

type Reorderable = { id: number };

type ReorderableTableProps<T extends Reorderable> = {
  kind: TReorderKind;
  /** The module whose quizzes or contents these are (none for modules). */
  moduleId?: number;
  records: T[] | undefined;
  /** The list's columns; the grip column is added before them. */
  columns: ListColumn<T>[];
  /** The row's name, for the grip's label ('Drag Intro video to reorder'). */
  nameOf: (record: T) => string;
  /** Where the page starts in the whole list, and the list's size (Move up / Move down cross pages). */
  offset: number;
  total: number;
  /** False while a search narrows the list. */
  canReorder: boolean;
  fetching: boolean;
  emptyText: string;
  rowActions: (record: T) => RowAction[];
  rowLabel: (record: T) => string;
  testId: string;
};

export function ReorderableTable<T extends Reorderable>({
  kind,
  moduleId,
  records,
  columns,
  nameOf,
  offset,
  total,
  canReorder,
  fetching,
  emptyText,
  rowActions,
  rowLabel,
  testId,
}: ReorderableTableProps<T>) {
  const reorder = useReorder(kind, moduleId);
  const enabled = canReorder && !reorder.isPending;
  const ids = (records ?? []).map((r) => r.id);

  const save = async (change: TReorderChange) => {
    try {
      const answer = await reorder.mutateAsync(change);
      notifications.show({ color: 'teal', message: answer.detail });
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  };
  const drag = useDragRows(ids, enabled, (pageIds) => void save({ pageIds, offset }));

  const cellOf = (column: ListColumn<T>) => (record: T, index: number) => {
    const content: ReactNode = column.render
      ? column.render(record, index)
      : String((record as Record<string, unknown>)[String(column.accessor)] ?? '');
    return drag.cell(record.id, content);
  };

  const allColumns: ListColumn<T>[] = [
    { accessor: 'drag', title: '', width: 48, render: (r) => drag.handle(r.id, nameOf(r)) },
    ...columns.map((column) => ({ ...column, render: cellOf(column) })),
  ];

  const actions = (record: T): RowAction[] => {
    const position = offset + ids.indexOf(record.id);
    const moves: RowAction[] = [];
    if (enabled && position > 0) {
      moves.push({ label: 'Move up', icon: <IconArrowUp size={16} />, onClick: () => void save({ id: record.id, step: -1 }) });
    }
    if (enabled && position < total - 1) {
      moves.push({ label: 'Move down', icon: <IconArrowDown size={16} />, onClick: () => void save({ id: record.id, step: 1 }) });
    }
    return [...rowActions(record), ...moves];
  };

  return (
    <ListTable
      records={records}
      columns={allColumns}
      fetching={fetching || reorder.isPending}
      emptyText={emptyText}
      rowActions={actions}
      rowLabel={rowLabel}
      testId={testId}
    />
  );
}
