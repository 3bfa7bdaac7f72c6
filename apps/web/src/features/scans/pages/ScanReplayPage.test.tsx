import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPLAY_FORMAT, REPLAY_MESSAGES, encodeReplaySide } from '@sc/shared/replay';
import type { TUserType } from '@sc/shared/roles';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { ScanReplayPage, parseReplayId } from './ScanReplayPage.tsx';

const replayBody = (frames = 4) => ({
  scan_id: 12,
  format: REPLAY_FORMAT,
  recorded_at: '2026-01-01T00:00:00.000Z',
  rows: 2,
  cols: 2,
  frame_count: frames,
  interval_ms: 250,
  timestamps_ms: Array.from({ length: frames }, (_, i) => i * 250),
  unit: 'kPa',
  value_min: 0,
  value_max: 40,
  sides: {
    left: { data: encodeReplaySide(Uint8Array.from({ length: frames * 4 }, (_, i) => i * 10)), findings: [] },
    right: { data: encodeReplaySide(new Uint8Array(frames * 4).fill(255)), findings: ['Lump'] },
  },
});

function renderReplay(path: string, role: TUserType = 'ORG_ADMIN') {
  return renderRoutes(
    [
      { path: '/chart', element: <SessionUserContext.Provider value={makeUser(role)}><ScanReplayPage /></SessionUserContext.Provider> },
      { path: '/dashboard', element: <p>dashboard</p> },
      { path: '/organization', element: <p>organizations</p> },
      { path: '/cervaical', element: <p>cervaical</p> },
    ],
    path,
  );
}

describe('ScanReplayPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads only a positive whole id from ?id=', () => {
    expect(parseReplayId('12')).toBe(12);
    expect(parseReplayId('0')).toBeNull();
    expect(parseReplayId('1e3')).toBeNull();
    expect(parseReplayId(null)).toBeNull();
    expect(parseReplayId('99999999999')).toBeNull();
  });

  it('plays the recorded frames of both sides with the findings, and the slider moves through them', async () => {
    const fetchMock = mockFetch({ 'GET /api/v1/scan/12/replay/': { body: replayBody() } });
    renderReplay('/chart/?id=12');
    expect(await screen.findByText('Frame 1 of 4 · 0.00 s of 1.00 s')).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('/api/v1/scan/12/replay/');
    expect(screen.getByText('Lump')).toBeInTheDocument();
    expect(screen.getByText('No findings')).toBeInTheDocument();
    expect(screen.getByText('Peak 40.0 kPa')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Left breast pressure map, frame 1 of 4' })).toBeInTheDocument();
    // The colour legend spans the recording's scale: the lowest non-zero reading (byte 1) to value_max.
    expect(screen.getByRole('img', { name: 'Colour scale from 0.2 to 40.0 kPa' })).toBeInTheDocument();

    const slider = screen.getByRole('slider', { name: 'Replay time' });
    slider.focus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByTestId('replay-position')).toHaveTextContent('Frame 3 of 4 · 0.50 s of 1.00 s');
    expect(screen.getByRole('img', { name: 'Left breast pressure map, frame 3 of 4' })).toBeInTheDocument();
  });

  it('switches Play to Pause while playing', async () => {
    mockFetch({ 'GET /api/v1/scan/12/replay/': { body: replayBody(400) } });
    renderReplay('/chart/?id=12');
    await userEvent.click(await screen.findByTestId('replay-play'));
    await userEvent.click(screen.getByTestId('replay-pause'));
    expect(screen.getByTestId('replay-play')).toBeInTheDocument();
  });

  it("shows the server's message for a scan without a replay", async () => {
    mockFetch({ 'GET /api/v1/scan/12/replay/': { status: 404, body: { detail: REPLAY_MESSAGES.notAvailable } } });
    renderReplay('/chart/?id=12');
    expect(await screen.findByTestId('replay-error')).toHaveTextContent(REPLAY_MESSAGES.notAvailable);
  });

  it('asks for a scan from the list when the id is missing, without calling the API', async () => {
    const fetchMock = mockFetch({});
    renderReplay('/chart/?id=abc');
    expect(await screen.findByTestId('replay-error')).toHaveTextContent(REPLAY_MESSAGES.badId);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a role without scans to its landing page', async () => {
    mockFetch({});
    renderReplay('/chart/?id=12', 'CERVAICAL_REVIEWER');
    await waitFor(() => expect(screen.getByText('cervaical')).toBeInTheDocument());
  });
});
