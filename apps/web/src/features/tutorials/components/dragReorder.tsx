// Drag-and-drop reordering of a list page's rows (part 3 §2 Module page; issue 11) with the browser's own drag
// and drop (no library): a handle starts the drag, any cell of another row takes the drop, and the page's ids
// in their new order go to one reorder call. ReorderableTable puts it in a list.
import { useState, type DragEvent, type ReactNode } from 'react';
import { ActionIcon, Box } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import { moveId } from '../reorder.ts';

export function useDragRows(ids: readonly number[], enabled: boolean, onReorder: (ids: number[]) => void) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);

  const dropProps = (id: number) =>
    enabled
      ? {
          onDragOver: (e: DragEvent) => {
            if (dragging === null) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'move';
            if (over !== id) setOver(id);
          },
          onDrop: (e: DragEvent) => {
            e.preventDefault();
            const moved = dragging ?? Number(e.dataTransfer.getData('text/plain'));
            setDragging(null);
            setOver(null);
            if (moved && moved !== id) onReorder(moveId(ids, moved, id));
          },
        }
      : {};

  /** A cell's content inside the drop zone of its row (highlighted while a row is dragged over it). */
  const cell = (id: number, children: ReactNode) => (
    <Box
      {...dropProps(id)}
      data-testid={`drop-${id}`}
      style={{
        margin: 'calc(var(--mantine-spacing-xs) * -1) calc(var(--mantine-spacing-xs) * -1)',
        padding: 'var(--mantine-spacing-xs)',
        borderTop: over === id && dragging !== id ? '2px solid var(--mantine-color-blue-6)' : '2px solid transparent',
      }}
    >
      {children}
    </Box>
  );

  const handle = (id: number, label: string) =>
    cell(
      id,
      <ActionIcon
        component="span"
        variant="subtle"
        color="gray"
        draggable={enabled}
        // A picture of a grip for the mouse: keyboard users have the Move up / Move down row actions.
        role="img"
        aria-label={`Drag ${label} to reorder`}
        title={enabled ? 'Drag to reorder' : 'Clear the search to reorder'}
        style={{ cursor: enabled ? 'grab' : 'not-allowed', opacity: enabled ? 1 : 0.4 }}
        onDragStart={(e: DragEvent) => {
          e.dataTransfer.effectAllowed = 'move';
          e.dataTransfer.setData('text/plain', String(id));
          setDragging(id);
        }}
        onDragEnd={() => {
          setDragging(null);
          setOver(null);
        }}
        data-testid={`drag-${id}`}
      >
        <IconGripVertical size={16} />
      </ActionIcon>,
    );

  return { cell, handle };
}
