import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render.tsx';
import { ReCertificationFilter } from '../../features/users/recertification/ReCertificationFilter.tsx';
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

describe('the re-certification filter closes the same way (issue 23.16)', () => {
  it('closes with Escape while its Filter button has the focus', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/v1/organization/': { body: { count: 0, next: null, previous: null, results: [] } } });
    renderWithProviders(<ReCertificationFilter organization={null} onChange={() => {}} />);
    await user.click(screen.getByTestId('recert-filter-button'));
    expect(await screen.findByTestId('recert-filter-panel')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('recert-filter-panel')).not.toBeInTheDocument());
  });
});
