import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { type EmbeddedKafka, startEmbeddedKafka } from '@smm/embedded-kafka';
import { type EmbeddedMongo, startEmbeddedMongo } from '@smm/embedded-mongo';

/** Real servers for the platform's Kafka and MongoDB helpers: the embedded ones, in this process. */
export async function startInfra(): Promise<{ kafka: EmbeddedKafka; mongo: EmbeddedMongo; kafkaDir: string; stop(): Promise<void> }> {
  const kafkaDir = mkdtempSync(join(tmpdir(), 'platform-kafka-'));
  const kafka = await startEmbeddedKafka({ port: 0, dataDir: kafkaDir, defaultPartitions: 3, fsync: false, logger: pino({ level: 'silent' }) });
  const mongo = await startEmbeddedMongo({ port: 0 });
  return {
    kafka,
    mongo,
    kafkaDir,
    async stop() {
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
