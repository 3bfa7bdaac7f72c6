import { useEffect, useState } from 'react';

/** Whole seconds left of a countdown that starts at `seconds` when the component mounts. */
export function useCountdown(seconds: number): number {
  // Measured against a deadline so a throttled background tab still ends on time.
  const [deadline] = useState(() => Date.now() + seconds * 1000);
  const [left, setLeft] = useState(seconds);

  const running = left > 0;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      setLeft(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    }, 250);
    return () => clearInterval(timer);
  }, [deadline, running]);

  return left;
}
