import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startEmbeddedKafka } from '@smm/embedded-kafka';
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { startEmbeddedRedis } from '@smm/embedded-redis';

/** Which servers a suite ran against: chosen by `TEST_ENGINES` (see `engineChoice`). */
export type Engines = 'embedded' | 'containers';

/**
 * What the suites use of Kafka, MongoDB and Redis: addresses only, so the same test code runs
 * against the embedded servers and against real engines in containers.
 */
export type Infra = {
  engines: Engines;
  kafka: { brokers: string };
  mongo: { url: string; uri(db: string): string };
  redis: { url: string };
  stop(): Promise<void>;
};

/**
 * Real Kafka, MongoDB and Redis for integration tests. `TEST_ENGINES`:
 * - `embedded`: the embedded servers, in the test's process, on free ports;
 * - `containers`: Apache Kafka, a MongoDB replica set and Redis started by testcontainers (fails with
 *   a clear error when no Docker engine answers — never silently embedded);
 * - unset or `auto` (the default): containers when a Docker engine answers, embedded otherwise.
 * The first start in a process logs which it was and why.
 */
export async function startInfra(): Promise<Infra> {
  const choice = await engineChoice();
  if (!announced) {
    announced = true;
    process.stderr.write(`testkit: ${choice.engines === 'containers' ? 'real engines in containers (testcontainers)' : 'embedded Kafka, MongoDB and Redis'} — ${choice.why}\n`);
  }
  return choice.engines === 'containers' ? startContainers() : startEmbedded();
}
let announced = false;

/** The engines `startInfra` will use, and why; throws when `TEST_ENGINES` asks for what cannot be had. */
export async function engineChoice(env: NodeJS.ProcessEnv = process.env): Promise<{ engines: Engines; why: string }> {
  const wanted = (env.TEST_ENGINES ?? 'auto').trim() || 'auto';
  if (wanted !== 'auto' && wanted !== 'embedded' && wanted !== 'containers') {
    throw new Error(`TEST_ENGINES must be auto, embedded or containers (got "${wanted}")`);
  }
  if (wanted === 'embedded') return { engines: 'embedded', why: 'TEST_ENGINES=embedded' };
  const docker = await dockerEngine();
  if (wanted === 'containers') {
    if (docker.reachable) return { engines: 'containers', why: 'TEST_ENGINES=containers' };
    throw new Error(`TEST_ENGINES=containers but no Docker engine answers: ${docker.reason}`);
  }
  return docker.reachable ? { engines: 'containers', why: 'a Docker engine answers (TEST_ENGINES=embedded to use the embedded servers)' } : { engines: 'embedded', why: `no Docker engine answers (${docker.reason})` };
}

/** Asks testcontainers' own runtime discovery (DOCKER_HOST, the socket, ~/.testcontainers.properties). */
async function dockerEngine(): Promise<{ reachable: true } | { reachable: false; reason: string }> {
  // Without a socket or DOCKER_HOST there is nothing to discover: skip loading testcontainers.
  if (!process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock') && !existsSync(join(homedir(), '.testcontainers.properties'))) {
    return { reachable: false, reason: 'no DOCKER_HOST and no /var/run/docker.sock' };
  }
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return { reachable: true };
  } catch (error) {
    return { reachable: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

async function startEmbedded(): Promise<Infra> {
  const silent = pino({ level: 'silent' });
  const kafkaDir = mkdtempSync(join(tmpdir(), 'testkit-kafka-'));
  const kafka = await startEmbeddedKafka({ port: 0, dataDir: kafkaDir, defaultPartitions: 3, fsync: false, logger: silent });
  const mongo = await startEmbeddedMongo({ port: 0 });
  const redis = await startEmbeddedRedis({ port: 0, logger: silent });
  return {
    engines: 'embedded',
    kafka,
    mongo,
    redis,
    async stop() {
      await kafka.close();
      await mongo.close();
      await redis.close();
      rmSync(kafkaDir, { recursive: true, force: true });
    },
  };
}

/**
 * Image tags of the real engines: MongoDB and Redis as docker-compose.yml runs them; Kafka as the
 * image testcontainers' Kafka module drives in KRaft mode (Confluent's build of Apache Kafka 3.7).
 */
export const containerImages = { kafka: 'confluentinc/cp-kafka:7.7.1', mongo: 'mongo:8.0', redis: 'redis:7.4' } as const;

async function startContainers(): Promise<Infra> {
  const [{ KafkaContainer }, { MongoDBContainer }, { RedisContainer }] = await Promise.all([import('@testcontainers/kafka'), import('@testcontainers/mongodb'), import('@testcontainers/redis')]);
  // Three partitions per auto-created topic, as the embedded broker's defaultPartitions.
  const [kafka, mongo, redis] = await Promise.all([
    new KafkaContainer(containerImages.kafka).withKraft().withEnvironment({ KAFKA_NUM_PARTITIONS: '3' }).start(),
    new MongoDBContainer(containerImages.mongo).start(),
    new RedisContainer(containerImages.redis).start(),
  ]);
  // The replica set's member is known by its container name: connect directly to the mapped port.
  const mongoBase = `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}`;
  return {
    engines: 'containers',
    kafka: { brokers: `${kafka.getHost()}:${kafka.getMappedPort(9093)}` },
    mongo: { url: `${mongoBase}/?directConnection=true`, uri: (db) => `${mongoBase}/${db}?directConnection=true` },
    redis: { url: redis.getConnectionUrl() },
    async stop() {
      await Promise.all([kafka.stop(), mongo.stop(), redis.stop()]);
    },
  };
}

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
export { testServiceEnv } from './service-env.ts';
export { callerHeaders, forgedCallerHeaders, testServiceSecret, type TestCaller } from './service-credentials.ts';
export { serviceMain, type ServiceMain, type ListeningMain } from './service-main.ts';
export { decodeBase32, totpAt } from './totp.ts';
