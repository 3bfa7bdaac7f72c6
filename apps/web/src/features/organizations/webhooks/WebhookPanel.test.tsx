import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES, WEBHOOK_REPLAY_MAX, type TWebhookDelivery } from '@sc/shared/webhooks';
import { bodyOf, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { SECRET_TEXTS } from './WebhookSecretCard.tsx';
import { WebhookPanel } from './WebhookPanel.tsx';

const SECRET = 'GET /api/v1/organization/7/webhook/secret/';
const MAKE = 'POST /api/v1/organization/7/webhook/secret/';
const LOG = 'GET /api/v1/organization/webhook-deliveries/';
const NEW_SECRET = 'whsec_Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8';

const delivery = (id: number, over: Partial<TWebhookDelivery> = {}): TWebhookDelivery => ({
  id,
  organization: 7,
  event: 'scan.created',
  scan: 100 + id,
  follow_up_case: null,
  url: 'https://hooks.example.com/sc',
  status: 'delivered',
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  created: '2026-11-20T10:00:00.000Z',
  delivered_at: '2026-11-20T10:00:01.000Z',
  last_attempt_at: '2026-11-20T10:00:00.500Z',
  duration_ms: 420,
  replay_of: null,
  ...over,
});
const page = (results: TWebhookDelivery[]) => ({ count: results.length, next: null, previous: null, results });

describe('WebhookPanel', () => {
  it('generates a secret behind a confirm, shows it once with Copy and the warning, and forgets it on Done', async () => {
    const user = userEvent.setup();
    let configured = false;
    const fetchMock = mockFetch({
      [SECRET]: () => ({
        body: { organization: 7, configured, created: configured ? '2026-11-28T04:00:00.000Z' : null },
      }),
      [MAKE]: () => {
        configured = true;
        return {
          status: 201,
          body: { detail: WEBHOOK_MESSAGES.secretCreated, organization: 7, secret: NEW_SECRET, created: '2026-11-28T04:00:00.000Z', rotated: false },
        };
      },
      [LOG]: { body: page([]) },
    });
    renderWithProviders(<WebhookPanel organizationId={7} />);
    expect(await screen.findByText(SECRET_TEXTS.none)).toBeInTheDocument();

    await user.click(screen.getByTestId('webhook-secret-button'));
    expect(screen.getByText(SECRET_TEXTS.confirmGenerate)).toBeInTheDocument();
    // Nothing is made before the confirm.
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    await user.click(screen.getByTestId('confirm-dialog-confirm'));

    const dialog = await screen.findByTestId('webhook-secret-dialog');
    expect(within(dialog).getByTestId('webhook-secret-value')).toHaveTextContent(NEW_SECRET);
    expect(within(dialog).getByTestId('webhook-secret-warning')).toHaveTextContent(SECRET_TEXTS.onceWarning);
    expect(within(dialog).getByTestId('webhook-secret-copy')).toHaveTextContent('Copy');
    expect(bodyOf(fetchMock, MAKE)).toEqual({});

    await user.click(within(dialog).getByTestId('webhook-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret-value')).not.toBeInTheDocument());
    expect(document.body.textContent).not.toContain(NEW_SECRET);
    // The status now says a secret is in use, and the button rotates it (red confirm).
    expect(await screen.findByText('Rotate secret')).toBeInTheDocument();
    await user.click(screen.getByTestId('webhook-secret-button'));
    expect(screen.getByText(SECRET_TEXTS.confirmRotate)).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
  });

  it('lists deliveries with status, last answer and duration; Replay is offered on finished ones only', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [SECRET]: { body: { organization: 7, configured: true, created: '2026-11-01T00:00:00.000Z' } },
      [LOG]: {
        body: page([
          delivery(3, { status: 'failed', attempts: 6, last_status_code: 500, last_error: 'HTTP 500: boom', duration_ms: 1500 }),
          delivery(2, { status: 'pending', attempts: 1, last_status_code: null, duration_ms: null }),
          delivery(1, { replay_of: 9 }),
        ]),
      },
      'POST /api/v1/organization/webhook-deliveries/3/replay/': {
        status: 202,
        body: { detail: WEBHOOK_MESSAGES.replayQueued, delivery: delivery(4, { status: 'pending', attempts: 0, replay_of: 3 }) },
      },
    });
    renderWithProviders(<WebhookPanel organizationId={7} />);
    expect(await screen.findByTestId('delivery-status-3')).toHaveTextContent('Failed');
    expect(screen.getByText('HTTP 500: boom')).toBeInTheDocument();
    expect(screen.getByText('1.5 s')).toBeInTheDocument();
    expect(screen.getByText('420 ms')).toBeInTheDocument();
    expect(screen.getByText(/replay of #9/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions: delivery #2' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Actions: delivery #3' }));
    await user.click(await screen.findByText('Replay'));
    expect(await screen.findByText(`${WEBHOOK_MESSAGES.replayQueued} (#4)`)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u, init]) => String(u).includes('/webhook-deliveries/3/replay/') && init?.method === 'POST')).toBe(true);
  });

  it('explains the period limit and keeps Replay disabled until days are picked', async () => {
    const user = userEvent.setup();
    mockFetch({
      [SECRET]: { body: { organization: 7, configured: true, created: '2026-11-01T00:00:00.000Z' } },
      [LOG]: { body: page([]) },
    });
    renderWithProviders(<WebhookPanel organizationId={7} />);
    await user.click(await screen.findByTestId('webhook-replay-period'));
    const dialog = await screen.findByTestId('webhook-replay-dialog');
    expect(within(dialog).getByTestId('webhook-replay-submit')).toBeDisabled();
    expect(dialog).toHaveTextContent(`At most ${WEBHOOK_REPLAY_MAX.toLocaleString('en-US')}`);
  });
});
