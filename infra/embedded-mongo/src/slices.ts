// Long operations (scans, in-memory sorts, background snapshots) run in slices and let the event
// loop serve other clients between them. They share one budget per turn of the loop: with n of
// them running each slice is 1/n of it, so a short operation waits about the same ~1 ms whether
// one long operation runs or several.
const TURN_MS = 1;
/** Below this a slice costs more in yielding than it does in work. */
const MIN_SLICE_MS = 0.2;

let running = 0;

/** How long a slice may run now, in milliseconds. */
export function sliceMs(): number {
  return Math.max(MIN_SLICE_MS, TURN_MS / Math.max(1, running));
}

/** Counts a long operation as running until the returned function is called (once is enough). */
export function startSliced(): () => void {
  running++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    running--;
  };
}

/** Lets the event loop serve pending I/O (other clients) before continuing. */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
