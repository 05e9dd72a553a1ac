import { Kafka, logLevel } from 'kafkajs';
import type { LogEntry } from 'kafkajs';
import type { Logger } from 'pino';

export type { Kafka } from 'kafkajs';

const levels: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** A kafkajs client whose own log lines go through the service's pino logger. */
export function createKafka(brokers: readonly string[], clientId: string, logger: Logger): Kafka {
  const kafkaLog = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId,
    brokers: [...brokers],
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, timestamp: _timestamp, logger: _logger, ...rest } = log;
        kafkaLog[levels[level] ?? 'info'](rest, message);
      },
    retry: { initialRetryTime: 200, retries: 8 },
  });
}

/** Creates the topics that do not exist yet; existing ones are left as they are. */
export async function ensureTopics(kafka: Kafka, topics: ReadonlyArray<{ topic: string; numPartitions?: number }>): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) {
      await admin.createTopics({ topics: missing.map((t) => ({ topic: t.topic, numPartitions: t.numPartitions ?? 3 })), waitForLeaders: true });
    }
  } finally {
    await admin.disconnect();
  }
}

/** A `/readyz` check: the cluster answers a metadata request. */
export function kafkaReady(kafka: Kafka) {
  const admin = kafka.admin();
  let connected = false;
  return async () => {
    if (!connected) {
      await admin.connect();
      connected = true;
    }
    await admin.describeCluster();
  };
}
