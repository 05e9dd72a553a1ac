import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedKafka } from '../src/index.ts';
import { startTestBroker } from './helpers/broker.ts';
import { pythonHas, runPython } from './helpers/python.ts';

const range = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

// confluent-kafka is librdkafka: it negotiates every API version from the ApiVersions ranges and
// enables zstd only when Produce v7 and Fetch v10 are both served.
describe.skipIf(!pythonHas('confluent_kafka'))('confluent-kafka (Debian python3-confluent-kafka)', () => {
  let broker: EmbeddedKafka;

  beforeAll(async () => {
    broker = await startTestBroker({ fsync: false, defaultPartitions: 3 });
  });
  afterAll(async () => {
    await broker.close();
  });

  it('produces zstd idempotently, consumes as a group, commits and resumes', async () => {
    const [sent] = await runPython('confluent_kafka_client.py', ['produce', broker.brokers, 'ck-orders', 'a', '30']);
    expect(sent).toEqual({ sent: 30, unflushed: 0, errors: [] });
    const [first] = await runPython('confluent_kafka_client.py', ['consume', broker.brokers, 'ck-orders', 'ck-group', '30']);
    expect(first?.errors).toEqual([]);
    expect((first?.values as string[]).sort()).toEqual(range('a', 30).sort());

    await runPython('confluent_kafka_client.py', ['produce', broker.brokers, 'ck-orders', 'b', '12']);
    // Resumes at the commit: a re-delivered 'a' message would take the place of a 'b' one.
    const [second] = await runPython('confluent_kafka_client.py', ['consume', broker.brokers, 'ck-orders', 'ck-group', '12']);
    expect((second?.values as string[]).sort()).toEqual(range('b', 12).sort());
  });

  it('lists offsets: committed, earliest/latest and by timestamp', async () => {
    const base = Date.now() - 60_000;
    await runPython('confluent_kafka_client.py', ['produce-at', broker.brokers, 'ck-times', String(base), String(base + 1000), String(base + 2000)]);
    await runPython('confluent_kafka_client.py', ['consume', broker.brokers, 'ck-times', 'ck-times-group', '3']);
    const [mid] = await runPython('confluent_kafka_client.py', ['offsets', broker.brokers, 'ck-times', 'ck-times-group', String(base + 500)]);
    expect(mid).toEqual({ committed: 3, low: 0, high: 3, forTime: 1, forTimeError: null });
    const [exact] = await runPython('confluent_kafka_client.py', ['offsets', broker.brokers, 'ck-times', 'ck-times-group', String(base + 2000)]);
    expect(exact?.forTime).toBe(2);
    // Later than every message: Kafka answers -1 (librdkafka's OFFSET_END).
    const [after] = await runPython('confluent_kafka_client.py', ['offsets', broker.brokers, 'ck-times', 'ck-times-group', String(base + 5000)]);
    expect(after?.forTime).toBe(-1);
  });

  it('describes topic and broker configs, and refuses a per-topic config it would not apply', async () => {
    await runPython('confluent_kafka_client.py', ['produce', broker.brokers, 'ck-configs', 'c', '1']);
    const [res] = await runPython('confluent_kafka_client.py', ['admin', broker.brokers, 'ck-configs']);
    const configs = res?.configs as Record<string, Record<string, { value: string; readOnly: boolean }>>;
    expect(configs['ck-configs']?.['cleanup.policy']).toEqual({ value: 'delete', readOnly: true, source: 5 });
    expect(configs['ck-configs']?.['retention.bytes']?.value).toBe(String(1024 * 1024 * 1024));
    expect(configs['ck-configs']?.['segment.bytes']?.value).toBe(String(64 * 1024 * 1024));
    expect(configs['0']?.['num.partitions']?.value).toBe('3');
    expect(configs['0']?.['advertised.listeners']?.value).toBe(`PLAINTEXT://${broker.brokers}`);
    // INVALID_CONFIG with the reason; the topic is not created.
    expect(res?.refused).toEqual({ code: 40, message: expect.stringContaining('cleanup.policy is broker-wide here (delete)') });
    expect(res?.topics).not.toContain('ck-configs-compacted');
  });
});
