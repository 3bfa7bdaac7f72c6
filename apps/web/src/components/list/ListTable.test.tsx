import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { ListTable, emptyText, orderingToSortStatus, sortStatusToOrdering, type ListColumn } from './ListTable.tsx';

type Row = { id: number; name: string; created: string };
const columns: ListColumn<Row>[] = [
  { accessor: 'name', title: 'Name', sortable: true },
  { accessor: 'created', title: 'Date', sortable: true },
  { accessor: 'id', title: 'ID' },
];
const rows: Row[] = [
  { id: 1, name: 'North', created: '2026-01-01' },
  { id: 2, name: 'South', created: '2026-01-02' },
];

describe('ListTable', () => {
  it('words the empty state by whether a filter is active', () => {
    expect(emptyText('organizations', false)).toBe('No organizations yet!');
    expect(emptyText('organizations', true)).toBe('No organizations found!');
  });

  it('shows the empty text when there are no rows', () => {
    renderWithProviders(<ListTable records={[]} columns={columns} fetching={false} emptyText="No devices yet!" />);
    expect(screen.getByText('No devices yet!')).toBeInTheDocument();
  });

  it('maps column sorting to the API ordering', async () => {
    const user = userEvent.setup();
    const onOrderingChange = vi.fn();
    renderWithProviders(
      <ListTable records={rows} columns={columns} fetching={false} emptyText="" ordering="-created" onOrderingChange={onOrderingChange} />,
    );
    await user.click(screen.getByText('Name'));
    expect(onOrderingChange).toHaveBeenLastCalledWith('name');
    await user.click(screen.getByText('Date'));
    // The sorted column flips direction.
    expect(onOrderingChange).toHaveBeenLastCalledWith('created');
    expect(onOrderingChange).toHaveBeenCalledTimes(2);
  });

  it('converts orderings both ways', () => {
    expect(orderingToSortStatus('-created,id')).toEqual({ columnAccessor: 'created', sortKey: 'created', direction: 'desc' });
    expect(sortStatusToOrdering({ columnAccessor: 'name', direction: 'asc' })).toBe('name');
    expect(sortStatusToOrdering({ columnAccessor: 'x', sortKey: 'first_name', direction: 'desc' })).toBe('-first_name');
  });

  it('offers each row’s actions in a menu', async () => {
    const user = userEvent.setup();
    const onDetails = vi.fn();
    renderWithProviders(
      <ListTable
        records={rows}
        columns={columns}
        fetching={false}
        emptyText=""
        rowActions={(row) => [{ label: 'Details', onClick: () => onDetails(row.id) }]}
      />,
    );
    await user.click(screen.getByTestId('row-actions-2'));
    await user.click(await screen.findByTestId('row-action-details'));
    expect(onDetails).toHaveBeenCalledWith(2);
  });
});
