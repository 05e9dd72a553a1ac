/** Wakes long-polling fetches when a partition they wait on receives data (or the broker stops). */
export class AppendNotifier {
  private readonly listeners = new Map<string, Set<() => void>>();

  private static key(topic: string, partition: number): string {
    return `${topic}\u0000${partition}`;
  }

  /** Registers one callback for several partitions; returns the function that unregisters it. */
  listen(partitions: { topic: string; partition: number }[], fn: () => void): () => void {
    const keys = partitions.map((p) => AppendNotifier.key(p.topic, p.partition));
    for (const k of keys) {
      let set = this.listeners.get(k);
      if (!set) {
        set = new Set();
        this.listeners.set(k, set);
      }
      set.add(fn);
    }
    return () => {
      for (const k of keys) {
        const set = this.listeners.get(k);
        if (!set) continue;
        set.delete(fn);
        if (set.size === 0) this.listeners.delete(k);
      }
    };
  }

  notify(topic: string, partition: number): void {
    const set = this.listeners.get(AppendNotifier.key(topic, partition));
    if (!set) return;
    for (const fn of [...set]) fn();
  }

  wakeAll(): void {
    for (const set of [...this.listeners.values()]) for (const fn of [...set]) fn();
  }
}
