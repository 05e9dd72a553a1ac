import type { Connection } from 'mongoose';
import type { RecordMetadata } from 'kafkajs';

type Acked = { topic: string; partition: number; offset: string };
type AckedState = { _id: string; partitions: Acked[] };

/**
 * Where Kafka put the last batch the relay sent to each partition (its first offset), kept in the
 * service database with the relay's "published" marks. Kafka acknowledges a produce once it is
 * written, not once it is on disk (the embedded broker flushes on an interval, as Kafka does), so a
 * machine crash can take the last window of published events with it; when the broker comes back,
 * a partition that ends at or before the offset stored here has lost them, and the relay publishes
 * that window again (see OutboxRelay).
 */
export class AckedOffsets {
  private readonly latest = new Map<string, Acked>();
  private loaded = false;

  constructor(private readonly connection: Connection) {}

  private get collection() {
    return this.connection.collection<AckedState>('outbox_relay_state');
  }

  /** What a send was acknowledged with: the latest per partition (after a loss, offsets go back). */
  sent(topic: string, acked: readonly RecordMetadata[]): void {
    for (const a of acked) {
      if (a.baseOffset === undefined || Number(a.errorCode) !== 0) continue;
      this.latest.set(`${topic}\u0000${a.partition}`, { topic, partition: a.partition, offset: a.baseOffset });
    }
  }

  /** Reads what an earlier run stored (once); a partition sent to since keeps its newer offset. */
  async load(): Promise<void> {
    if (this.loaded) return;
    const stored = await this.collection.findOne({ _id: 'acked' });
    for (const a of stored?.partitions ?? []) {
      const key = `${a.topic}\u0000${a.partition}`;
      if (!this.latest.has(key)) this.latest.set(key, a);
    }
    this.loaded = true;
  }

  /** Stores the offsets (with a marks write: every marked record's send is covered). */
  async write(): Promise<void> {
    if (!this.loaded || this.latest.size === 0) return;
    await this.collection.replaceOne({ _id: 'acked' }, { partitions: [...this.latest.values()] }, { upsert: true });
  }

  /** Topics one of whose partitions ends at or before its last acknowledged batch: the broker lost it. */
  lostTopics(ends: ReadonlyMap<string, bigint>): string[] {
    const lost = new Set<string>();
    for (const [key, a] of this.latest) {
      const end = ends.get(key);
      if (end !== undefined && end <= BigInt(a.offset)) lost.add(a.topic);
    }
    return [...lost];
  }

  topics(): string[] {
    return [...new Set([...this.latest.values()].map((a) => a.topic))];
  }
}
