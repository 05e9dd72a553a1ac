import net from 'node:net';
import tls from 'node:tls';
import { Kafka, logLevel } from 'kafkajs';
import type { ISocketFactory, LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ConfigError, env, parseConfig } from '../config.ts';
import './request-queue.ts';

export type { Kafka } from 'kafkajs';

const levels: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

type Credentials = { username: string; password: string };
export type KafkaSasl = ({ mechanism: 'plain' } & Credentials) | ({ mechanism: 'scram-sha-256' } & Credentials) | ({ mechanism: 'scram-sha-512' } & Credentials);

/**
 * SASL credentials for a real cluster (KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD, optional
 * KAFKA_SASL_MECHANISM, default plain), or none. Read here rather than by each service's
 * configuration so every process that talks to Kafka authenticates the same way.
 */
export function kafkaSaslFromEnv(source: Record<string, string | undefined> = process.env): KafkaSasl | undefined {
  const parsed = parseConfig(
    {
      KAFKA_SASL_USERNAME: env.string().optional(),
      KAFKA_SASL_PASSWORD: env.string().optional(),
      KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512'], { error: 'must be plain, scram-sha-256 or scram-sha-512' }).default('plain'),
    },
    source,
  );
  if (parsed.KAFKA_SASL_USERNAME === undefined && parsed.KAFKA_SASL_PASSWORD === undefined) return undefined;
  if (parsed.KAFKA_SASL_USERNAME === undefined || parsed.KAFKA_SASL_PASSWORD === undefined) {
    throw new ConfigError('Invalid configuration: KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD must be set together');
  }
  const credentials = { username: parsed.KAFKA_SASL_USERNAME, password: parsed.KAFKA_SASL_PASSWORD };
  return { mechanism: parsed.KAFKA_SASL_MECHANISM, ...credentials } as KafkaSasl;
}

/** kafkaSaslFromEnv at start-up: a bad pair stops the process with one line and exit code 2, as loadConfig does. */
function startupSasl(): KafkaSasl | undefined {
  try {
    return kafkaSaslFromEnv();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

/**
 * kafkajs's own socket factory without Nagle's algorithm: kafkajs leaves it on (net.connect's
 * default), so a small request written while an earlier one on the same connection is not yet
 * acknowledged by TCP (an offset commit next to a heartbeat, concurrent partitions' commits) can sit
 * in the kernel until the peer's delayed ACK. Every other client here (http, the MongoDB driver,
 * ioredis) and the embedded servers already send at once.
 */
export const noDelaySocketFactory: ISocketFactory = ({ host, port, ssl, onConnect }) => {
  const socket = ssl ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }), ...ssl }, onConnect) : net.connect({ host, port }, onConnect);
  socket.setKeepAlive(true, 60_000);
  socket.setNoDelay(true);
  return socket;
};

/**
 * A kafkajs client whose own log lines go through the service's pino logger. `sasl`: the
 * credentials, `null` for none; left out, they are read from the process's environment.
 */
export function createKafka(brokers: readonly string[], clientId: string, logger: Logger, sasl: KafkaSasl | null | undefined = startupSasl()): Kafka {
  const kafkaLog = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId,
    brokers: [...brokers],
    socketFactory: noDelaySocketFactory,
    ...(sasl ? { sasl } : {}),
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
