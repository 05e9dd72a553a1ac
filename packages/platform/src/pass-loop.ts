/** The sleep after a pass that rejected (a pass is meant to handle its own failures). */
const afterRejectedPassMs = 1000;

/** Wake-ups kept at most (the soonest); a later one dropped is the next sleep's to find. */
const maxWakes = 1000;

/**
 * Runs `pass` again and again, never two at once: after each pass it sleeps for as long as the pass
 * resolved with (ms), or less when a wake-up falls due sooner. `kick()` asks for a pass now, or right
 * after the one running (work that arrived during a pass is never left for the next sleep);
 * `wakeAt(at)` for a pass at a given time (work that falls due then), kept until a pass starts at or
 * after it, so a kick in between does not drop it. `runNow()` starts a pass at once (or joins the
 * one running). The background workers of the services (fulfillment's passes and syncs, the
 * scheduler's due poller) are built on it. A pass finds its work itself (in the database): wake-ups
 * only bring it sooner, so past the `maxWakes` soonest the latest are dropped, and what they were
 * for is found by a later pass (at most one sleep late). A pass that resolves with `Infinity` has
 * nothing due: no timer is set until a kick or a wake-up (idle means asleep, issue 42).
 */
export class PassLoop {
  private timer: NodeJS.Timeout | undefined;
  /** When the planned pass starts (epoch ms); undefined while none is planned. */
  private planned: number | undefined;
  /** Times asked for by `wakeAt` that no pass has started at or after yet (epoch ms, soonest first, each once). */
  private readonly wakes: number[] = [];
  private running: Promise<void> | undefined;
  private stopped = true;
  /** A kick arrived during the pass running: the next one starts right after it. */
  private again = false;

  constructor(private readonly pass: () => Promise<number>) {}

  start(delayMs = 0): void {
    this.stopped = false;
    this.schedule(delayMs);
  }

  /** Runs a pass now (or joins the one running); once stopped, no pass follows it. */
  runNow(): Promise<void> {
    if (this.running) return this.running;
    clearTimeout(this.timer);
    this.planned = undefined;
    this.again = false;
    const startedAt = Date.now();
    let served = 0;
    while (served < this.wakes.length && this.wakes[served]! <= startedAt) served++;
    this.wakes.splice(0, served);
    this.running = this.pass()
      .catch(() => afterRejectedPassMs)
      .then((sleepMs) => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.again ? 0 : this.untilNext(sleepMs));
      });
    return this.running;
  }

  /** When the next pass is planned (epoch ms); undefined while none is (running, stopped, or asleep until kicked). */
  get plannedAt(): number | undefined {
    return this.planned;
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  wakeAt(at: Date): void {
    if (this.stopped) return;
    const time = at.getTime();
    this.remember(time);
    if (!this.running && (this.planned === undefined || time < this.planned)) this.schedule(Math.max(0, time - Date.now()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.planned = undefined;
    await this.running;
  }

  /** The sleep after a pass: what it asked for, or less when a wake-up falls due sooner. */
  private untilNext(sleepMs: number): number {
    const now = Date.now();
    return Math.max(0, Math.min(now + sleepMs, this.wakes[0] ?? Number.POSITIVE_INFINITY) - now);
  }

  /** Keeps `time` among the wake-ups, in order and once; past `maxWakes`, the latest goes. */
  private remember(time: number): void {
    let low = 0;
    for (let high = this.wakes.length; low < high; ) {
      const mid = (low + high) >>> 1;
      if (this.wakes[mid]! < time) low = mid + 1;
      else high = mid;
    }
    if (this.wakes[low] === time) return;
    this.wakes.splice(low, 0, time);
    if (this.wakes.length > maxWakes) this.wakes.pop();
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    if (!Number.isFinite(delayMs)) {
      this.planned = undefined;
      return;
    }
    const at = Date.now() + delayMs;
    this.planned = at;
    // Node's timers run on the event loop's clock, which a long turn leaves behind the wall clock:
    // a timer can fire a few ms before its time by Date.now(). A pass started then would not serve
    // the wake-up (nor find the work due at it), and the wake-up would bring a second pass right
    // after; the timer is set again for the rest instead.
    const fire = () => {
      const early = at - Date.now();
      if (early > 0) this.timer = setTimeout(fire, early);
      else void this.runNow();
    };
    this.timer = setTimeout(fire, delayMs);
  }
}
