// The replay's clock: play from the slider's time at real speed (requestAnimationFrame), pause, seek; stops at the end,
// and Play at the end starts again from the beginning.
import { useCallback, useEffect, useRef, useState } from 'react';

export function useReplayPlayer(durationMs: number) {
  const [timeMs, setTimeMs] = useState(0);
  const [playing, setPlaying] = useState(false);
  // The time when playing starts, read without making the effect depend on every tick.
  const timeRef = useRef(0);
  timeRef.current = timeMs;

  useEffect(() => {
    if (!playing) return;
    const from = timeRef.current >= durationMs ? 0 : timeRef.current;
    let start: number | null = null;
    let handle = 0;
    const tick = (now: number) => {
      start ??= now;
      const t = from + (now - start);
      if (t >= durationMs) {
        setTimeMs(durationMs);
        setPlaying(false);
        return;
      }
      setTimeMs(t);
      handle = requestAnimationFrame(tick);
    };
    handle = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(handle);
  }, [playing, durationMs]);

  const seek = useCallback(
    (ms: number) => {
      setPlaying(false);
      setTimeMs(Math.max(0, Math.min(durationMs, ms)));
    },
    [durationMs],
  );
  const play = useCallback(() => setPlaying(true), []);
  const pause = useCallback(() => setPlaying(false), []);

  return { timeMs, playing, play, pause, seek };
}
