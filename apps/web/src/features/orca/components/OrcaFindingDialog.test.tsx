import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ORCA_MESSAGES } from '@sc/shared/orca';
import { mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { orcaDetail } from '../test/orcaFixtures.ts';
import { OrcaFindingDialog } from './OrcaFindingDialog.tsx';

function open(detail = orcaDetail(5)) {
  const fetchMock = mockFetch({ [`GET /api/v1/orca/5/`]: { body: detail } });
  renderWithProviders(<OrcaFindingDialog examId={5} onClose={() => undefined} />);
  return fetchMock;
}

describe('OrcaFindingDialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is titled 'ORCA Finding', shows name, age and gender, and the four sections in order", async () => {
    const fetchMock = open();
    expect(await screen.findByText('Asha Rao5')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: ORCA_MESSAGES.findingTitle })).toBeInTheDocument();
    expect(screen.getByTestId('orca-finding-patient')).toHaveTextContent('Age: 52');
    expect(screen.getByTestId('orca-finding-patient')).toHaveTextContent('Gender: Female');
    const controls = within(screen.getByTestId('orca-accordion'))
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(controls).toEqual([
      'Case History',
      'Extra Oral Examination',
      'Intra Oral Examination',
      'Lymph Node Examination',
    ]);
    // The finding modal sends no query (part 3 §7).
    expect(String(fetchMock.mock.calls[0]?.[0])).not.toContain('?');
  });

  it('lists the case history with months shown as years', async () => {
    open();
    const history = await screen.findByTestId('orca-case-history');
    expect(within(history).getByTestId('orca-alcohol')).toHaveTextContent('Weekly');
    expect(within(history).getByTestId('orca-other-substances')).toHaveTextContent('Areca nut');
    expect(within(history).getByTestId('orca-conditions')).toHaveTextContent('Hypertension: Yes');
    expect(within(history).getByTestId('orca-conditions')).toHaveTextContent('Stroke: No');
    const smoking = within(history).getByTestId('orca-smoking');
    expect(smoking).toHaveTextContent('Bidi, Cigarette');
    expect(smoking).toHaveTextContent('Former');
    expect(smoking).toHaveTextContent('2.5 years'); // 30 months
    expect(smoking).toHaveTextContent('1.5 years'); // quit 18 months ago
    expect(smoking).toHaveTextContent('5 per day');
    const smokeless = within(history).getByTestId('orca-smokeless');
    expect(smokeless).toHaveTextContent('2 years'); // 24 months
    expect(smokeless).toHaveTextContent('2 packets per day');
  });

  it("groups findings by body part in index order, with 'No symptom found' and 'No abnormality found.'", async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Asha Rao5');
    await user.click(screen.getByRole('button', { name: 'Intra Oral Examination' }));
    const intra = screen.getByTestId('orca-section-intra_oral_exam');
    await waitFor(() => expect(within(intra).getAllByTestId('orca-part')).toHaveLength(2));
    const parts = within(intra).getAllByTestId('orca-part');
    expect(parts.map((p) => p.querySelector('h4')?.textContent)).toEqual(['Buccal mucosa', 'Tongue']);
    const tongue = within(parts[1]!)
      .getAllByTestId(/orca-finding-/)
      .map((c) => c.getAttribute('data-testid'));
    expect(tongue).toEqual(['orca-finding-3', 'orca-finding-1']);
    expect(within(screen.getByTestId('orca-finding-1')).getByText('Ulcer')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('orca-finding-3')).getByText(ORCA_MESSAGES.noSymptom),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Lymph Node Examination' }));
    expect(await screen.findByTestId('orca-empty-lymph_node_exam')).toHaveTextContent(
      ORCA_MESSAGES.noAbnormality,
    );
  });

  it('says so when the exam has no case history', async () => {
    open(orcaDetail(5, { case_history: null, findings: [] }));
    expect(await screen.findByTestId('orca-case-history-none')).toBeInTheDocument();
  });
});
