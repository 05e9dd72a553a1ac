/**
 * Latency samples for the broker's own "where does the time go" report (logged at close).
 * Keeps a bounded reservoir so memory stays flat however long the broker runs.
 */
export class LatencyStats {
  private readonly samples: Float64Array;
  private seen = 0;
  private max = 0;

  constructor(capacity = 20_000) {
    this.samples = new Float64Array(capacity);
  }

  record(ms: number): void {
    if (ms > this.max) this.max = ms;
    if (this.seen < this.samples.length) this.samples[this.seen] = ms;
    else {
      const i = Math.floor(Math.random() * (this.seen + 1));
      if (i < this.samples.length) this.samples[i] = ms;
    }
    this.seen++;
  }

  summary(): { count: number; p50Ms: number; p99Ms: number; maxMs: number } | null {
    if (this.seen === 0) return null;
    const n = Math.min(this.seen, this.samples.length);
    const sorted = Array.from(this.samples.subarray(0, n)).sort((a, b) => a - b);
    const at = (p: number) => Math.round((sorted[Math.min(n - 1, Math.floor(p * n))] as number) * 100) / 100;
    return { count: this.seen, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(this.max * 100) / 100 };
  }
}

/** Per-API request latency (arrival to answer written) and fsync latency. */
export class BrokerStats {
  readonly fsync = new LatencyStats();
  private readonly requests = new Map<number, LatencyStats>();

  request(apiKey: number): LatencyStats {
    let s = this.requests.get(apiKey);
    if (!s) {
      s = new LatencyStats();
      this.requests.set(apiKey, s);
    }
    return s;
  }

  summary(apiNames: ReadonlyMap<number, string>): Record<string, unknown> {
    const requests: Record<string, unknown> = {};
    for (const [key, s] of [...this.requests.entries()].sort((a, b) => a[0] - b[0])) requests[apiNames.get(key) ?? String(key)] = s.summary();
    return { requests, fsync: this.fsync.summary() };
  }
}
