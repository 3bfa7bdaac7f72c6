import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { ListFooter, pagerPages } from './ListFooter.tsx';

function renderFooter(props: Partial<Parameters<typeof ListFooter>[0]> = {}) {
  const onPageChange = vi.fn();
  const onLimitChange = vi.fn();
  renderWithProviders(
    <ListFooter page={1} limit={10} total={235} onPageChange={onPageChange} onLimitChange={onLimitChange} {...props} />,
  );
  return { onPageChange, onLimitChange };
}

const pageLinks = () =>
  within(screen.getByTestId('list-pagination'))
    .getAllByRole('button')
    .map((b) => b.textContent)
    .filter((t) => t && /^\d+$/.test(t));

describe('ListFooter', () => {
  it('shows the total as "{n} items"', () => {
    renderFooter();
    expect(screen.getByTestId('list-total')).toHaveTextContent('235 items');
  });

  it('says "1 item" for a single record', () => {
    renderFooter({ total: 1 });
    expect(screen.getByTestId('list-total')).toHaveTextContent(/^1 item$/);
  });

  it('shows at most 5 page links, with first and last links', () => {
    renderFooter({ page: 10 });
    expect(pageLinks()).toEqual(['8', '9', '10', '11', '12']);
    expect(screen.getByRole('button', { name: 'first page' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'last page' })).toBeInTheDocument();
  });

  it.each([
    [1, 24, ['1', '2', '3', '4', '5']],
    [2, 24, ['1', '2', '3', '4', '5']],
    [23, 24, ['20', '21', '22', '23', '24']],
    [24, 24, ['20', '21', '22', '23', '24']],
    [1, 6, ['1', '2', '3', '4', '5']],
    [6, 6, ['2', '3', '4', '5', '6']],
    [1, 3, ['1', '2', '3']],
  ])('never shows more than 5 page links, near either end too (page %i of %i)', (page, pages, links) => {
    renderFooter({ page, total: pages * 10 });
    expect(pageLinks()).toEqual(links);
    expect(screen.getByRole('button', { name: String(page) })).toHaveAttribute('aria-current', 'page');
  });

  it('moves to the page clicked and to the last page', async () => {
    const user = userEvent.setup();
    const { onPageChange } = renderFooter();
    await user.click(screen.getByRole('button', { name: '2' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    await user.click(screen.getByRole('button', { name: 'last page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(24);
  });

  it('offers the page sizes 10, 20, 40, 60 and 100', async () => {
    const user = userEvent.setup();
    const { onLimitChange } = renderFooter();
    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['10 / page', '20 / page', '40 / page', '60 / page', '100 / page']);
    await user.click(screen.getByRole('option', { name: '40 / page' }));
    expect(onLimitChange).toHaveBeenCalledWith(40);
  });

  describe('with a capped total (count_capped: a text search counted 200 rows past the page)', () => {
    it('reads "More than {n} items"', () => {
      renderFooter({ total: 200, capped: true });
      expect(screen.getByTestId('list-total')).toHaveTextContent(/^More than 200 items$/);
    });

    it('without the cap reads the plain total and no "More than"', () => {
      renderFooter({ total: 200 });
      expect(screen.getByTestId('list-total')).toHaveTextContent(/^200 items$/);
    });

    it('offers one page past the counted ones: Next is enabled on the last counted page and leads there', async () => {
      const user = userEvent.setup();
      const { onPageChange } = renderFooter({ page: 20, total: 200, capped: true });
      expect(pageLinks()).toEqual(['17', '18', '19', '20', '21']);
      expect(screen.getByRole('button', { name: 'next page' })).toBeEnabled();
      await user.click(screen.getByRole('button', { name: 'next page' }));
      expect(onPageChange).toHaveBeenLastCalledWith(21);
    });

    it('sends Last to the page past the counted ones', async () => {
      const user = userEvent.setup();
      const { onPageChange } = renderFooter({ page: 1, total: 200, capped: true });
      await user.click(screen.getByRole('button', { name: 'last page' }));
      expect(onPageChange).toHaveBeenLastCalledWith(21);
    });

    it('grows with the count the server gives on that page', () => {
      renderFooter({ page: 21, total: 400, capped: true });
      expect(pageLinks()).toEqual(['19', '20', '21', '22', '23']);
      expect(screen.getByRole('button', { name: '21' })).toHaveAttribute('aria-current', 'page');
      expect(screen.getByRole('button', { name: 'next page' })).toBeEnabled();
    });

    it('without the cap ends the pager at the last counted page', () => {
      renderFooter({ page: 20, total: 200 });
      expect(pageLinks()).toEqual(['16', '17', '18', '19', '20']);
      expect(screen.getByRole('button', { name: 'next page' })).toBeDisabled();
    });
  });

  it.each([
    [200, 10, false, 20],
    [200, 10, true, 21],
    [205, 10, true, 22],
    [0, 10, false, 1],
    [0, 10, true, 1],
  ])('pagerPages(%i, %i, capped %s) is %i', (total, limit, capped, pages) => {
    expect(pagerPages(total, limit, capped)).toBe(pages);
  });
});
