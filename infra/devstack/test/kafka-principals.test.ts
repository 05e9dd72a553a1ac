import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import { kafkaPrincipals } from '@smm/platform';
import { type EmbeddedKafka, type SaslOptions, startEmbeddedKafka } from '../../embedded-kafka/src/index.ts';
import { KAFKA_ADMIN, embeddedKafkaUsers, kafkaClientEnv, writeKafkaUsersFile } from '../src/kafka-users.ts';
import { DevSecrets } from '../src/secrets.ts';

const dir = mkdtempSync(join(tmpdir(), 'devstack-kafka-'));
let broker: EmbeddedKafka;
let secrets: DevSecrets;
const principals = Object.keys(kafkaPrincipals) as (keyof typeof kafkaPrincipals)[];
const topics = Object.values(Topics);

function clientOf(name: keyof typeof kafkaPrincipals | typeof KAFKA_ADMIN): Kafka {
  const password = name === KAFKA_ADMIN ? secrets.kafkaPassword(KAFKA_ADMIN) : kafkaClientEnv(name, secrets).KAFKA_SASL_PASSWORD!;
  return new Kafka({ clientId: name, brokers: [broker.brokers], logLevel: logLevel.NOTHING, retry: { retries: 0 }, sasl: { mechanism: 'plain', username: name, password } });
}

beforeAll(async () => {
  secrets = DevSecrets.load(dir, {});
  broker = await startEmbeddedKafka({ port: 0, dataDir: join(dir, 'kafka'), fsync: false, logger: pino({ level: 'silent' }), sasl: { users: embeddedKafkaUsers(secrets) } as unknown as SaslOptions });
  const admin = clientOf(KAFKA_ADMIN).admin();
  await admin.connect();
  await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: 1 })) });
  await admin.disconnect();
});
afterAll(async () => {
  await broker?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the devstack's Kafka principals", () => {
  it('keeps one password per principal in secrets.json and writes the users file owner-only', () => {
    expect(DevSecrets.load(dir, {}).kafkaPassword('wallet')).toBe(secrets.kafkaPassword('wallet'));
    expect(secrets.kafkaPassword('wallet')).not.toBe(secrets.kafkaPassword('order'));
    const args = writeKafkaUsersFile(dir, secrets);
    expect(args[0]).toBe('--users-file');
    expect(statSync(args[1]!).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(args[1]!, 'utf8')) as { users: Record<string, { superUser?: boolean }> };
    expect(Object.keys(file.users).sort()).toEqual([KAFKA_ADMIN, ...principals].sort());
    expect(file.users[KAFKA_ADMIN]?.superUser).toBe(true);
  });

  it('lets each service produce to its own topics only (kafkajs)', async () => {
    const outcomes: Record<string, string[]> = {};
    for (const name of principals) {
      const producer = clientOf(name).producer({ allowAutoTopicCreation: false });
      await producer.connect();
      outcomes[name] = [];
      for (const topic of topics) {
        const ok = await producer.send({ topic, messages: [{ value: `${name}→${topic}` }] }).then(
          () => true,
          // Refused at Produce, or already at Metadata when it may not even describe the topic.
          (err: { type?: string; cause?: { type?: string } }) => {
            expect(err.type ?? err.cause?.type, `${name} → ${topic}`).toBe('TOPIC_AUTHORIZATION_FAILED');
            return false;
          },
        );
        if (ok) outcomes[name].push(topic);
      }
      await producer.disconnect();
    }
    expect(outcomes).toEqual({
      auth: [Topics.auth, Topics.audit],
      catalog: [Topics.catalog, Topics.audit],
      wallet: [Topics.wallet, Topics.audit],
      order: [Topics.order, Topics.audit],
      scheduler: [Topics.scheduler],
      fulfillment: [Topics.fulfillment, Topics.audit],
      support: [Topics.support, Topics.audit],
      bff: [],
    });
    // Dead letters: a service creates and writes its own groups' (dlq.<group>.v1), not another's.
    const dlq = 'dlq.wallet-payments.v1';
    const wallet = clientOf('wallet').producer();
    await wallet.connect();
    await wallet.send({ topic: dlq, messages: [{ value: 'dead letter' }] });
    await wallet.disconnect();
    const order = clientOf('order').producer();
    await order.connect();
    await expect(order.send({ topic: dlq, messages: [{ value: 'forged dead letter' }] })).rejects.toMatchObject({ cause: { type: 'TOPIC_AUTHORIZATION_FAILED' } });
    await order.disconnect();
  });

  it("refuses the wallet's credential on the order topic with kcat too (librdkafka), and accepts the order's", async () => {
    const kcat = ['kcat', 'kafkacat'].find((bin) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0);
    if (!kcat) throw new Error('kcat is not installed (.ci/run installs it)');
    const produce = (name: 'wallet' | 'order') => {
      const { KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD } = kafkaClientEnv(name, secrets);
      return run(kcat, ['-b', broker.brokers, '-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanisms=PLAIN', '-X', `sasl.username=${KAFKA_SASL_USERNAME}`, '-X', `sasl.password=${KAFKA_SASL_PASSWORD}`, '-X', 'message.timeout.ms=3000', '-P', '-t', Topics.order], `RefundRequested from ${name}\n`);
    };
    const forged = await produce('wallet');
    expect(forged.status).not.toBe(0);
    // librdkafka 2.0 reports the refusal, or (a race of its own after a permanent topic error) the
    // message's expiry; either way nothing was written, which the admin's read below shows.
    expect(forged.stderr).toMatch(/Topic authorization failed|Message timed out/);
    expect((await produce('order')).status).toBe(0);
    const read = await run(kcat, ['-b', broker.brokers, '-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanisms=PLAIN', '-X', `sasl.username=${KAFKA_ADMIN}`, '-X', `sasl.password=${secrets.kafkaPassword(KAFKA_ADMIN)}`, '-C', '-t', Topics.order, '-e', '-o', 'beginning', '-q']);
    expect(read.stdout).toContain('RefundRequested from order');
    expect(read.stdout).not.toContain('RefundRequested from wallet');
  });

  it("lets the BFF's live feed join a group of its own on wallet, order and support events, and no service's group", async () => {
    const bff = clientOf('bff');
    const admin = bff.admin();
    await admin.connect();
    try {
      // A group per process (bff-live-…), which it deletes when it stops.
      const consumer = bff.consumer({ groupId: 'bff-live-test', sessionTimeout: 3000, rebalanceTimeout: 4000, heartbeatInterval: 300, maxWaitTimeInMs: 200 });
      await consumer.connect();
      const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
      await consumer.subscribe({ topics: [Topics.wallet, Topics.order, Topics.support], fromBeginning: true });
      await consumer.run({ eachMessage: async () => undefined });
      await joined;
      await consumer.disconnect();
      await admin.deleteGroups(['bff-live-test']);
      // GROUP_AUTHORIZATION_FAILED on FindCoordinator, which kafkajs reports under this name.
      await expect(admin.fetchOffsets({ groupId: 'wallet-payments', topics: [Topics.order] })).rejects.toMatchObject({ name: 'KafkaJSGroupCoordinatorNotFound' });
      // The dead-letter count reads every dlq topic's offsets.
      expect((await admin.fetchTopicOffsets(Topics.order)).length).toBe(1);
    } finally {
      await admin.disconnect();
    }
  });
});

/** kcat without blocking this process's event loop, which serves the broker under test. */
function run(bin: string, args: string[], input = ''): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(input);
  });
}
