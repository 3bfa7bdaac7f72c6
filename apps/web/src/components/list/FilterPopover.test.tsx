import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { FilterPopover, YesNoSelect } from './FilterPopover.tsx';

function renderPopover() {
  return renderWithProviders(
    <>
      <p data-testid="outside">The list</p>
      <FilterPopover testId="f" count={0} onClear={() => {}}>
        <YesNoSelect label="Survivor" value={undefined} onChange={() => {}} testId="f-survivor" />
      </FilterPopover>
    </>,
  );
}

const panelGone = () => waitFor(() => expect(screen.queryByTestId('f-panel')).not.toBeInTheDocument());

describe('FilterPopover closes as people expect (issue 23.16)', () => {
  it('closes with Escape while the Filter button has the focus', async () => {
    const user = userEvent.setup();
    renderPopover();
    await user.click(screen.getByTestId('f-button'));
    expect(await screen.findByTestId('f-panel')).toBeInTheDocument();
    expect(screen.getByTestId('f-button')).toHaveFocus();
    await user.keyboard('{Escape}');
    await panelGone();
  });

  it('closes with Escape from inside the panel', async () => {
    const user = userEvent.setup();
    renderPopover();
    await user.click(screen.getByTestId('f-button'));
    await user.click(await screen.findByTestId('f-survivor'));
    await user.keyboard('{Escape}{Escape}');
    await panelGone();
  });

  it('closes with a click or a tap outside', async () => {
    const user = userEvent.setup();
    renderPopover();
    await user.click(screen.getByTestId('f-button'));
    expect(await screen.findByTestId('f-panel')).toBeInTheDocument();
    await user.click(screen.getByTestId('outside'));
    await panelGone();
    await user.click(screen.getByTestId('f-button'));
    expect(await screen.findByTestId('f-panel')).toBeInTheDocument();
    fireEvent.touchStart(screen.getByTestId('outside'));
    await panelGone();
  });
});
