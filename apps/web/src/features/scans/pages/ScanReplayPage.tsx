// The scan replay page `/chart/?id=` (part 2 §2.7 row action "Scan replay"; issue 8): the scan's recorded sensor
// frames (`GET scan/{id}/replay/`, format 'sc-replay/1' in @sc/shared/replay) played back as a heat map per side,
// with play, pause and a time slider.
import { useMemo } from 'react';
import { Alert, Badge, Button, Center, Group, Loader, Paper, SimpleGrid, Slider, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import { landingPathFor } from '@sc/shared/roles';
import {
  REPLAY_MESSAGES,
  REPLAY_SIDES,
  canReplayScans,
  ZReplay,
  decodeReplaySide,
  replayDurationMs,
  replayFrame,
  replayFrameAt,
  replayPath,
  replayValue,
  type TReplay,
} from '@sc/shared/replay';
import { api, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { HeatMapCanvas } from '../replay/HeatMapCanvas.tsx';
import { HEAT_GRADIENT_CSS } from '../replay/heatColor.ts';
import { useReplayPlayer } from '../replay/useReplayPlayer.ts';

const SIDE_LABELS = { left: 'Left breast', right: 'Right breast' } as const;

export const parseReplayId = (raw: string | null): number | null => {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 && id <= 2_147_483_647 ? id : null;
};

const formatSeconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

export function ScanReplayPage() {
  const user = useSessionUser();
  if (!canReplayScans(user.user_type)) return <Navigate to={landingPathFor(user.user_type)} replace />;
  return <ScanReplay />;
}

function ScanReplay() {
  const [search] = useSearchParams();
  const id = parseReplayId(search.get('id'));
  const query = useQuery({
    queryKey: ['scan', 'replay', id],
    queryFn: async ({ signal }) => ZReplay.parse(await api.get<unknown>(replayPath(id ?? 0), { signal })),
    enabled: id !== null,
    staleTime: Infinity,
  });

  return (
    <Stack gap="md" data-testid="scan-replay-page">
      <Title order={2}>Scan replay{id !== null ? ` — scan ${id}` : ''}</Title>
      {id === null ? (
        <Alert color="yellow" data-testid="replay-error">
          {REPLAY_MESSAGES.badId}
        </Alert>
      ) : query.isPending ? (
        <Center h={300}>
          <Loader />
        </Center>
      ) : query.isError ? (
        <Alert color="red" data-testid="replay-error">
          {errorMessage(query.error)}
        </Alert>
      ) : (
        <ReplayPlayer replay={query.data} />
      )}
    </Stack>
  );
}

function ReplayPlayer({ replay }: { replay: TReplay }) {
  const sides = useMemo(
    () => ({ left: decodeReplaySide(replay.sides.left.data), right: decodeReplaySide(replay.sides.right.data) }),
    [replay],
  );
  const duration = replayDurationMs(replay);
  const player = useReplayPlayer(duration);
  const index = replayFrameAt(replay, player.timeMs);

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {REPLAY_SIDES.map((side) => {
            const frame = replayFrame(sides[side], replay, index);
            let peak = 0;
            for (const b of frame) if (b > peak) peak = b;
            return (
              <Stack key={side} gap={6} align="center">
                <Text fw={600}>{SIDE_LABELS[side]}</Text>
                <HeatMapCanvas
                  frame={frame}
                  rows={replay.rows}
                  cols={replay.cols}
                  label={`${SIDE_LABELS[side]} pressure map, frame ${index + 1} of ${replay.frame_count}`}
                  testId={`replay-canvas-${side}`}
                />
                <Text size="sm" c="dimmed">
                  Peak {replayValue(peak, replay).toFixed(1)} {replay.unit}
                </Text>
                <Group gap={4} justify="center">
                  {replay.sides[side].findings.length === 0 ? (
                    <Text size="sm">No findings</Text>
                  ) : (
                    replay.sides[side].findings.map((f) => (
                      <Badge key={f} color="red" variant="light">
                        {f}
                      </Badge>
                    ))
                  )}
                </Group>
              </Stack>
            );
          })}
        </SimpleGrid>
        <Stack gap={2} maw={420} w="100%" mx="auto" data-testid="replay-legend">
          <div
            role="img"
            aria-label={`Colour scale from ${replayValue(1, replay).toFixed(1)} to ${replay.value_max.toFixed(1)} ${replay.unit}`}
            style={{ height: 10, borderRadius: 4, background: HEAT_GRADIENT_CSS }}
          />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {replayValue(1, replay).toFixed(1)} {replay.unit}
            </Text>
            <Text size="xs" c="dimmed">
              {replay.value_max.toFixed(1)} {replay.unit}
            </Text>
          </Group>
        </Stack>
        <Group gap="md" wrap="nowrap" align="center">
          {player.playing ? (
            <Button leftSection={<IconPlayerPauseFilled size={16} />} onClick={player.pause} data-testid="replay-pause">
              Pause
            </Button>
          ) : (
            <Button leftSection={<IconPlayerPlayFilled size={16} />} onClick={player.play} data-testid="replay-play">
              Play
            </Button>
          )}
          <Slider
            style={{ flex: 1 }}
            min={0}
            max={duration}
            step={replay.interval_ms}
            value={Math.min(player.timeMs, duration)}
            onChange={player.seek}
            label={formatSeconds}
            thumbLabel="Replay time"
            data-testid="replay-slider"
          />
        </Group>
        <Text size="sm" c="dimmed" data-testid="replay-position">
          Frame {index + 1} of {replay.frame_count} · {formatSeconds(player.timeMs)} of {formatSeconds(duration)}
        </Text>
      </Stack>
    </Paper>
  );
}
