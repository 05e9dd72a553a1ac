import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kafka, logLevel, type Consumer, type ConsumerConfig, type EachMessagePayload } from 'kafkajs';
import { pino } from 'pino';
import { afterAll } from 'vitest';
import { startEmbeddedKafka, type EmbeddedKafka, type EmbeddedKafkaOptions } from '../../src/index.ts';

const created: string[] = [];

// Registered in every test file that imports these helpers; runs after that file's own hooks.
afterAll(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'ek-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export async function startTestBroker(opts: Partial<EmbeddedKafkaOptions> = {}): Promise<EmbeddedKafka> {
  return startEmbeddedKafka({
    host: '127.0.0.1',
    port: 0,
    dataDir: opts.dataDir ?? tempDir(),
    logger: pino({ level: process.env.TEST_BROKER_LOG ?? 'silent' }),
    ...opts,
  });
}

export function kafkaFor(brokers: string, clientId = 'test'): Kafka {
  return new Kafka({ clientId, brokers: [brokers], logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 100 } });
}

/** Small timeouts so group tests finish in seconds rather than Kafka's default half-minute. */
export const FAST_GROUP: Omit<ConsumerConfig, 'groupId'> = {
  sessionTimeout: 3000,
  rebalanceTimeout: 4000,
  heartbeatInterval: 300,
  maxWaitTimeInMs: 200,
};

export interface Received {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

export function toReceived({ topic, partition, message }: EachMessagePayload): Received {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? null,
    value: message.value?.toString() ?? null,
    headers,
  };
}

export async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Runs a group consumer until `count` messages arrived, then disconnects it. */
export async function consumeN(kafka: Kafka, topic: string, count: number, groupId: string, timeoutMs = 20_000): Promise<Received[]> {
  const consumer: Consumer = kafka.consumer({ groupId, ...FAST_GROUP });
  const got: Received[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async (p) => void got.push(toReceived(p)) });
    await waitFor(() => got.length >= count, timeoutMs, `${count} messages on ${topic}`);
  } finally {
    await consumer.disconnect();
  }
  return got;
}
