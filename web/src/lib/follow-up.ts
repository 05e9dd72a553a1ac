/**
 * Runs `check` once at each delay (milliseconds after the start) until it answers true, then stops.
 * Used where the server finishes a change a moment after it answered — the wallet credits a refund
 * or settles an order's payment asynchronously — so the screen re-reads a few times, bounded,
 * instead of showing a stale value until the member reloads. A check that throws counts as "not
 * yet". Returns a function that cancels the remaining checks.
 */
export function followUp(check: () => Promise<boolean> | boolean, delays: readonly number[]): () => void {
  let stopped = false;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const stop = () => {
    stopped = true;
    timers.forEach(clearTimeout);
  };
  // The checks run one after another: a slow answer is not overtaken by the next timer.
  let chain: Promise<void> = Promise.resolve();
  for (const delay of delays) {
    timers.push(
      setTimeout(() => {
        chain = chain.then(async () => {
          if (stopped) return;
          const done = await Promise.resolve()
            .then(check)
            .catch(() => false);
          if (done) stop();
        });
      }, delay),
    );
  }
  return stop;
}

/** 1 s, 2 s, … up to `seconds` seconds. */
export const everySecond = (seconds: number): number[] => Array.from({ length: seconds }, (_, i) => (i + 1) * 1000);
