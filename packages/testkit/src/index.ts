import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { type EmbeddedKafka, startEmbeddedKafka } from '@smm/embedded-kafka';
import { type EmbeddedMongo, startEmbeddedMongo } from '@smm/embedded-mongo';
import { type EmbeddedRedis, startEmbeddedRedis } from '@smm/embedded-redis';

/**
 * Real Kafka, MongoDB and Redis for integration tests: the embedded servers, in the test's process, on
 * free ports, with a throwaway Kafka log directory.
 */
export async function startInfra(): Promise<Infra> {
  const silent = pino({ level: 'silent' });
  const kafkaDir = mkdtempSync(join(tmpdir(), 'testkit-kafka-'));
  const kafka = await startEmbeddedKafka({ port: 0, dataDir: kafkaDir, defaultPartitions: 3, fsync: false, logger: silent });
  const mongo = await startEmbeddedMongo({ port: 0 });
  const redis = await startEmbeddedRedis({ port: 0, logger: silent });
  return {
    kafka,
    mongo,
    redis,
    kafkaDir,
    async stop() {
      await kafka.close();
      await mongo.close();
      await redis.close();
      rmSync(kafkaDir, { recursive: true, force: true });
    },
  };
}

export type Infra = { kafka: EmbeddedKafka; mongo: EmbeddedMongo; redis: EmbeddedRedis; kafkaDir: string; stop(): Promise<void> };

/** Polls `probe` until `accept` holds; fails with the last value seen. */
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
export { spawnMain, killMains, type MainProcess } from './spawn-main.ts';
