import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FOLLOW_UP_MESSAGES,
  FOLLOW_UP_MOVES,
  FOLLOW_UP_STATUS_LABELS,
  type TFollowUpCase,
} from '@sc/shared/follow-up';
import { bodyOf, makeUser, mockFetch } from '../../../test/render.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { caseDetail, entry } from '../test/followUpFixtures.ts';
import { FollowUpCaseDialog } from './FollowUpCaseDialog.tsx';
import { offeredKinds } from './FollowUpActionForm.tsx';

const ACTIONS = 'POST /api/v1/follow-up/5/actions/';

function setup(kase: TFollowUpCase, actionReply: Parameters<typeof mockFetch>[0][string] = { body: kase }) {
  const fetchMock = mockFetch({
    'GET /api/v1/follow-up/5/': { body: kase },
    'GET /api/v1/follow-up/assignees/': { body: [{ id: 12, name: 'Nurse Cruz', user_type: 'ORG_ADMIN' }] },
    [ACTIONS]: actionReply,
  });
  renderScanRoutes(makeUser('ORG_ADMIN'), '/follow-up', {
    '/follow-up': <FollowUpCaseDialog id={5} onClose={() => undefined} />,
  });
  return fetchMock;
}

const pick = async (testId: string, option: string) => {
  await userEvent.click(screen.getByTestId(testId));
  await userEvent.click(await screen.findByRole('option', { name: option }));
};
const kind = async (label: string) =>
  userEvent.click(within(screen.getByTestId('follow-up-action-kind')).getByText(label));
const posted = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

afterEach(() => vi.unstubAllGlobals());

describe('FollowUpActionForm', () => {
  it('offers contact and referral only while the case is active, and a move only where the table has one', () => {
    expect(offeredKinds({ status: 'OPEN' })).toEqual([
      'CONTACT_ATTEMPT',
      'REFERRAL',
      'NOTE',
      'STATUS_CHANGE',
      'CORRECTION',
    ]);
    expect(offeredKinds({ status: 'LOST_TO_FOLLOW_UP' })).toEqual(['NOTE', 'STATUS_CHANGE', 'CORRECTION']);
    expect(offeredKinds({ status: 'CLOSED' })).toEqual(['NOTE', 'CORRECTION']);
    expect(offeredKinds({ status: 'DECLINED' })).toEqual(['NOTE', 'CORRECTION']);
  });

  it('offers exactly the moves of FOLLOW_UP_MOVES as the new status', async () => {
    setup(caseDetail(5, { status: 'CONTACTED' }));
    await screen.findByTestId('follow-up-case');
    await kind('Change status');
    await userEvent.click(screen.getByTestId('follow-up-action-status'));
    const offered = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(offered).toEqual(FOLLOW_UP_MOVES.CONTACTED.map((s) => FOLLOW_UP_STATUS_LABELS[s]));
  });

  it('refuses a contact attempt without method and result, sending nothing', async () => {
    const fetchMock = setup(caseDetail(5));
    await screen.findByTestId('follow-up-case');
    await userEvent.click(screen.getByTestId('follow-up-action-submit'));
    expect(await screen.findByText('Select a valid choice: CALL, SMS, VISIT.')).toBeInTheDocument();
    expect(posted(fetchMock)).toHaveLength(0);
  });

  it('posts a contact attempt that reached the patient and says it was saved', async () => {
    const fetchMock = setup(caseDetail(5));
    await screen.findByTestId('follow-up-case');
    await pick('follow-up-action-method', 'Call');
    await pick('follow-up-action-result', 'Reached');
    await userEvent.click(screen.getByTestId('follow-up-action-submit'));
    await waitFor(() =>
      expect(bodyOf(fetchMock, ACTIONS)).toEqual({
        kind: 'CONTACT_ATTEMPT',
        method: 'CALL',
        result: 'REACHED',
      }),
    );
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.actionSaved)).toBeInTheDocument();
  });

  it('asks a closing move for the outcome, and the site of a malignancy, before sending', async () => {
    const fetchMock = setup(
      caseDetail(5, { status: 'SEEN', next_statuses: ['CLOSED', 'LOST_TO_FOLLOW_UP'] }),
    );
    await screen.findByTestId('follow-up-case');
    await kind('Change status');
    await pick('follow-up-action-status', 'Closed');
    await userEvent.click(screen.getByTestId('follow-up-action-submit'));
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.outcomeRequired)).toBeInTheDocument();
    await pick('follow-up-action-outcome', 'Malignant');
    await userEvent.click(screen.getByTestId('follow-up-action-submit'));
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.siteRequired)).toBeInTheDocument();
    expect(screen.getByText(FOLLOW_UP_MESSAGES.diagnosisDateRequired)).toBeInTheDocument();
    expect(posted(fetchMock)).toHaveLength(0);
  });

  it('refuses a diagnosis date in the future', async () => {
    setup(caseDetail(5, { status: 'SEEN', next_statuses: ['CLOSED', 'LOST_TO_FOLLOW_UP'] }));
    await screen.findByTestId('follow-up-case');
    await kind('Change status');
    await pick('follow-up-action-status', 'Closed');
    await pick('follow-up-action-outcome', 'Benign');
    await userEvent.type(
      screen.getByTestId('follow-up-action-diagnosis-date'),
      dayjs().add(2, 'day').format('YYYY-MM-DD'),
    );
    await userEvent.click(screen.getByTestId('follow-up-action-submit'));
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.diagnosisDateFuture)).toBeInTheDocument();
  });

  it("shows the API's field error on its field", async () => {
    setup(caseDetail(5), { status: 400, body: { facility: ['Enter the facility.'] } });
    await screen.findByTestId('follow-up-case');
    await kind('Referral');
    await userEvent.type(screen.getByTestId('follow-up-action-facility'), 'Provincial Hospital');
    await userEvent.type(screen.getByTestId('follow-up-action-referral-date'), '2026-11-02');
    await userEvent.click(screen.getByTestId('follow-up-action-submit'));
    const field = await screen.findByText('Enter the facility.');
    expect(field.id).toMatch(/error/);
  });

  it('marks corrected entries and names the entry a correction corrects', async () => {
    setup(
      caseDetail(5, {
        timeline: [
          entry(1),
          entry(2, {
            kind: 'CONTACT_ATTEMPT',
            by: { id: 7, name: 'Asha Rao' },
            data: { method: 'CALL', result: 'NO_ANSWER' },
            corrected_by: [3],
          }),
          entry(3, {
            kind: 'CORRECTION',
            by: { id: 7, name: 'Asha Rao' },
            corrects: 2,
            note: 'It was an SMS',
            data: {},
          }),
        ],
      }),
    );
    await screen.findByTestId('follow-up-case');
    const entries = screen.getAllByTestId('follow-up-entry');
    expect(entries).toHaveLength(3);
    expect(entries[1]).toHaveTextContent('Corrected by #3');
    expect(entries[1]).toHaveTextContent('Method: Call');
    expect(entries[1]).toHaveTextContent('Result: No answer');
    expect(entries[2]).toHaveTextContent('Corrects #2');
    expect(entries[0]).toHaveTextContent('System');
  });
});
