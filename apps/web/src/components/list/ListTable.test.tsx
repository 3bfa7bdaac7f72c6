import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { ListDate } from './ListDate.tsx';
import { PHONE_QUERY } from './usePhoneLayout.ts';
import { ListTable, emptyText, orderingToSortStatus, sortStatusToOrdering, type ListColumn } from './ListTable.tsx';
import { matchMediaFor } from '../../test/media.ts';

type Row = { id: number; name: string; created: string };
const columns: ListColumn<Row>[] = [
  { accessor: 'name', title: 'Name', sortable: true },
  { accessor: 'created', title: 'Date', sortable: true },
  { accessor: 'id', title: 'ID', hideOnPhone: true },
];

const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent);

/** The screen is a phone: the media queries of a 390 px viewport match. */
function onPhone() {
  vi.stubGlobal('matchMedia', matchMediaFor(PHONE_QUERY));
}
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

  it('does not leave the empty text for screen readers next to real rows', () => {
    renderWithProviders(<ListTable records={rows} columns={columns} fetching={false} emptyText="No devices yet!" />);
    expect(screen.getByText('North')).toBeInTheDocument();
    expect(screen.queryByText('No devices yet!')).not.toBeInTheDocument();
  });

  it('does not announce the empty text while the first page loads', () => {
    renderWithProviders(<ListTable records={undefined} columns={columns} fetching emptyText="No devices yet!" />);
    expect(screen.queryByText('No devices yet!')).not.toBeInTheDocument();
  });

  it('keeps every row’s actions in reach on a phone: low-priority columns go and the actions column is pinned', async () => {
    onPhone();
    // mantine-datatable pins only cells it has measured; jsdom lays nothing out.
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 80, 40));
    renderWithProviders(
      <ListTable records={rows} columns={columns} fetching={false} emptyText="" rowActions={() => [{ label: 'Details', onClick: () => {} }]} />,
    );
    expect(headers()).toEqual(['Name', 'Date', 'Actions']);
    await waitFor(() => expect(screen.getByTestId('row-actions-1').closest('td')).toHaveAttribute('data-pinned', 'right'));
  });

  it('pins the actions column on a wide screen too, so a wide table never scrolls them away', async () => {
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 80, 40));
    renderWithProviders(
      <ListTable records={rows} columns={columns} fetching={false} emptyText="" rowActions={() => [{ label: 'Details', onClick: () => {} }]} />,
    );
    expect(headers()).toEqual(['Name', 'Date', 'ID', 'Actions']);
    await waitFor(() => expect(screen.getByTestId('row-actions-1').closest('td')).toHaveAttribute('data-pinned', 'right'));
  });

  it('shows every column on a wide screen', () => {
    renderWithProviders(<ListTable records={rows} columns={columns} fetching={false} emptyText="" />);
    expect(headers()).toEqual(['Name', 'Date', 'ID']);
  });
});

describe('ListDate', () => {
  it('shows date and time on one line on a wide screen', () => {
    renderWithProviders(<ListDate value="2026-01-05T09:30:00Z" />);
    const cell = screen.getByText(/^05 Jan 2026 \d\d:\d\d [AP]M$/);
    expect(cell).toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it('shows only the day on a phone, with the full date as its title', () => {
    onPhone();
    renderWithProviders(<ListDate value="2026-01-05T09:30:00Z" />);
    const cell = screen.getByText('05 Jan 2026');
    expect(cell).toHaveAttribute('title', expect.stringMatching(/^05 Jan 2026 \d\d:\d\d [AP]M$/));
    expect(cell).toHaveStyle({ whiteSpace: 'nowrap' });
  });
});

describe('ListTable: fits its card on a desktop (issue 23.12)', () => {
  type Wide = { id: number; a: string; b: string; c: string; d: string; e: string };
  const wideColumns: ListColumn<Wide>[] = [
    { accessor: 'a', title: 'A' },
    { accessor: 'b', title: 'B', hideOnPhone: true },
    { accessor: 'c', title: 'C', hideOnPhone: true, priority: 3 },
    { accessor: 'd', title: 'D', hideOnPhone: true },
    { accessor: 'e', title: 'E' },
  ];
  const wide: Wide[] = [{ id: 1, a: 'a', b: 'b', c: 'c', d: 'd', e: 'e' }];

  /** jsdom lays nothing out: a column is 100 px and the card `card` px wide. */
  function layout(card: number) {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.tagName === 'DIV' ? card : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.tagName === 'TABLE' ? this.querySelectorAll('thead th').length * 100 : 0;
    });
  }

  it('leaves out the columns a row can do without, lowest priority and rightmost first, until the table fits', async () => {
    layout(320);
    renderWithProviders(<ListTable records={wide} columns={wideColumns} fetching={false} emptyText="No rows yet!" />);
    await waitFor(() => expect(headers()).toEqual(['A', 'C', 'E']));
    vi.restoreAllMocks();
  });

  it('keeps every column when the card is wide enough, and never drops one without a priority', async () => {
    layout(1000);
    renderWithProviders(<ListTable records={wide} columns={wideColumns} fetching={false} emptyText="No rows yet!" />);
    expect(headers()).toEqual(['A', 'B', 'C', 'D', 'E']);
    vi.restoreAllMocks();
    layout(50);
    renderWithProviders(<ListTable records={wide} columns={wideColumns} fetching={false} emptyText="No rows yet!" />);
    await waitFor(() => expect(headers().slice(-2)).toEqual(['A', 'E']));
    vi.restoreAllMocks();
  });
});
