// The server's notion of "now" for expiry. Normally the wall clock; while the append-only file
// is replayed it is pinned to each record's original time, so relative expiries (EXPIRE 10,
// SET EX) and "is this key still alive" decisions come out exactly as they did the first time.
let pinned: number | undefined;

export function now(): number {
  return pinned ?? Date.now();
}

/** Pins the clock (undefined releases it). */
export function pinClock(ms: number | undefined): void {
  pinned = ms;
}

export function clockPinned(): boolean {
  return pinned !== undefined;
}
