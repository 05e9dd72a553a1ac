import type { Admin, Kafka } from 'kafkajs';

/** Dead-lettered events per consumer group, as the dashboard shows them. */
export type DeadLetterCounts = { total: number; topics: Array<{ consumer: string; topic: string; count: number }> };

const dlqTopic = /^dlq\.(.+)\.v1$/;

/**
 * Counts what the services' consumers dead-lettered (`dlq.<group>.v1`, written by the platform's
 * eventSorter with the reason in the `dlq-reason` header). It reads only topic metadata and
 * offsets (latest − earliest per partition) through Kafka's admin API: no consumer group, nothing
 * consumed, nothing stored here, and the figure survives restarts because Kafka holds it. The
 * messages themselves are read with kcat (see bff/README.md). Answers are kept `cacheMs` so a few
 * open dashboards do not each ask Kafka.
 */
export class DeadLetterReader {
  private admin: Admin | undefined;
  private cached: { at: number; value: DeadLetterCounts } | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly cacheMs = 5000,
  ) {}

  async counts(): Promise<DeadLetterCounts> {
    if (this.cached && Date.now() - this.cached.at < this.cacheMs) return this.cached.value;
    const admin = await this.connected();
    const topics = (await admin.listTopics()).filter((t) => dlqTopic.test(t)).sort();
    const rows = await Promise.all(
      topics.map(async (topic) => {
        const offsets = await admin.fetchTopicOffsets(topic);
        const count = offsets.reduce((sum, p) => sum + Math.max(0, Number(p.high) - Number(p.low)), 0);
        return { consumer: dlqTopic.exec(topic)![1]!, topic, count };
      }),
    );
    const value = { total: rows.reduce((sum, r) => sum + r.count, 0), topics: rows.filter((r) => r.count > 0) };
    this.cached = { at: Date.now(), value };
    return value;
  }

  async close(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = undefined;
  }

  private async connected(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }
}
