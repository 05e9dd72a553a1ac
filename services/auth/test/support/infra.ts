import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { type EmbeddedKafka, startEmbeddedKafka } from '@smm/embedded-kafka';
import { type EmbeddedMongo, startEmbeddedMongo } from '@smm/embedded-mongo';
import { type EmbeddedRedis, startEmbeddedRedis } from '@smm/embedded-redis';

export type Infra = { kafka: EmbeddedKafka; mongo: EmbeddedMongo; redis: EmbeddedRedis; stop(): Promise<void> };

/** Real Kafka, MongoDB and Redis (the embedded servers) in this process, on free ports. */
export async function startInfra(): Promise<Infra> {
  const kafkaDir = mkdtempSync(join(tmpdir(), 'auth-kafka-'));
  const silent = pino({ level: 'silent' });
  const kafka = await startEmbeddedKafka({ port: 0, dataDir: kafkaDir, defaultPartitions: 3, fsync: false, logger: silent });
  const mongo = await startEmbeddedMongo({ port: 0, logger: silent });
  const redis = await startEmbeddedRedis({ port: 0, logger: silent });
  return {
    kafka,
    mongo,
    redis,
    async stop() {
      await redis.close();
      await kafka.close();
      await mongo.close();
      rmSync(kafkaDir, { recursive: true, force: true });
    },
  };
}

export async function eventually<T>(probe: () => T | Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await probe();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await probe();
  }
  return last;
}
