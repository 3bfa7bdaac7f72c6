import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { PeriodTabs } from './PeriodTabs.tsx';

describe('PeriodTabs', () => {
  it('offers All Time, Last 30 Days and Custom Range, and clears the range on a preset', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<PeriodTabs value="custom_range" range={{ from: '2026-01-02', to: '2026-01-09' }} onChange={onChange} />);
    expect(screen.getByRole('tab', { name: 'All Time' })).toBeInTheDocument();
    // The chosen range labels the Custom Range tab.
    expect(screen.getByTestId('period-tab-custom_range')).toHaveTextContent('02 Jan 2026 – 09 Jan 2026');
    await user.click(screen.getByRole('tab', { name: 'Last 30 Days' }));
    expect(onChange).toHaveBeenCalledWith('30', { from: undefined, to: undefined });
  });

  it("shows the device list's extra tabs (part 2 §2.4)", () => {
    renderWithProviders(<PeriodTabs value="today" onChange={() => {}} kind="device" />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'All Time',
      'Yesterday',
      'Last 30 Days',
      'This Month',
      'Last Month',
      'Custom Range',
    ]);
  });

  it('opens the range dialog on the last 10 days and confirms them', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<PeriodTabs value="today" onChange={onChange} />);
    await user.click(screen.getByRole('tab', { name: 'Custom Range' }));
    const dialog = await screen.findByRole('dialog');
    const today = dayjs();
    const from = today.subtract(10, 'day');
    expect(within(dialog).getByTestId('date-range-from')).toHaveTextContent(from.format('DD MMM YYYY'));
    expect(within(dialog).getByTestId('date-range-to')).toHaveTextContent(today.format('DD MMM YYYY'));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(onChange).toHaveBeenCalledWith('custom_range', { from: from.format('YYYY-MM-DD'), to: today.format('YYYY-MM-DD') });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the current period when the dialog is cancelled', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<PeriodTabs value="30" onChange={onChange} />);
    await user.click(screen.getByRole('tab', { name: 'Custom Range' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Last 30 Days' })).toHaveAttribute('aria-selected', 'true');
  });

  it('confirms a start date alone as that one day', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<PeriodTabs value="custom_range" range={{ from: '2026-01-02', to: '2026-01-09' }} onChange={onChange} />);
    await user.click(screen.getByTestId('period-tab-custom_range'));
    const dialog = await screen.findByRole('dialog');
    // The dialog opens on the applied range; a click starts a new range.
    expect(within(dialog).getByTestId('date-range-from')).toHaveTextContent('02 Jan 2026');
    await user.click(within(dialog).getByRole('button', { name: '14 January 2026' }));
    expect(within(dialog).getByTestId('date-range-from')).toHaveTextContent('14 Jan 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(onChange).toHaveBeenCalledWith('custom_range', { from: '2026-01-14', to: '2026-01-14' });
  });

  it('ends the calendar at today for recorded dates, and runs past it for scheduled ones (issue 23.1)', async () => {
    const user = userEvent.setup();
    const nextMonth = dayjs().add(1, 'month').date(15);
    const label = nextMonth.format('D MMMM YYYY');
    const { unmount } = renderWithProviders(<PeriodTabs value="today" onChange={() => {}} />);
    await user.click(screen.getByRole('tab', { name: 'Custom Range' }));
    let dialog = await screen.findByRole('dialog');
    // The right-hand month is this month: the next one cannot be reached.
    expect(within(dialog).queryByRole('button', { name: label })).not.toBeInTheDocument();
    expect(dialog.querySelector('[data-direction="next"]')).toHaveAttribute('data-disabled', 'true');
    unmount();

    const onChange = vi.fn();
    renderWithProviders(<PeriodTabs value="today" onChange={onChange} dates="scheduled" />);
    await user.click(screen.getByRole('tab', { name: 'Custom Range' }));
    dialog = await screen.findByRole('dialog');
    await user.click(dialog.querySelector('[data-direction="next"]') as HTMLElement);
    await user.click(within(dialog).getByRole('button', { name: label }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const day = nextMonth.format('YYYY-MM-DD');
    expect(onChange).toHaveBeenCalledWith('custom_range', { from: day, to: day });
  });
});
