import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedKafka, SaslOptions } from '../src/index.ts';
import { Reader } from '../src/protocol/reader.ts';
import { FAST_GROUP, startTestBroker } from './helpers/broker.ts';
import { KCAT, kcat } from './helpers/kcat.ts';
import { pythonHas, runPython } from './helpers/python.ts';
import { RawClient } from './helpers/raw-client.ts';

const ORDER = 'order.events.v1';
const WALLET = 'wallet.events.v1';
const PASSWORDS = { admin: 'admin-secret-1', wallet: 'wallet-secret-1', order: 'order-secret-1' };

/** The devstack's shape in small: each service writes its own topic and reads the other's. */
const SASL: SaslOptions = {
  users: {
    admin: { password: PASSWORDS.admin, superUser: true },
    wallet: { password: PASSWORDS.wallet, produce: [WALLET, 'dlq.wallet*'], consume: [ORDER], create: [WALLET, ORDER, 'dlq.wallet*'], groups: ['wallet*'] },
    order: { password: PASSWORDS.order, produce: [ORDER], consume: [WALLET], create: [ORDER, WALLET], groups: ['order*'] },
  },
};

function client(brokers: string, user?: keyof typeof PASSWORDS, password?: string): Kafka {
  return new Kafka({
    clientId: `sasl-test-${user ?? 'anonymous'}`,
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
    // Refusals are final: retries would only slow the test down.
    retry: { retries: 0 },
    connectionTimeout: 3000,
    ...(user ? { sasl: { mechanism: 'plain' as const, username: user, password: password ?? PASSWORDS[user] } } : {}),
  });
}

async function produceWith(kafka: Kafka, topic: string, value: string): Promise<string> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  try {
    await producer.connect();
    const [res] = await producer.send({ topic, acks: -1, messages: [{ key: 'ord-1', value }] });
    return `offset ${res?.baseOffset}`;
  } catch (err) {
    const e = err as { type?: string; name?: string };
    return e.type ?? e.name ?? String(err);
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
}

const saslArgs = (user: string, password: string) => ['-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanisms=PLAIN', '-X', `sasl.username=${user}`, '-X', `sasl.password=${password}`];

describe('SASL/PLAIN and per-principal ACLs', () => {
  let broker: EmbeddedKafka;

  beforeAll(async () => {
    broker = await startTestBroker({ fsync: false, autoCreateTopics: true, sasl: SASL });
    const admin = client(broker.brokers, 'admin').admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: ORDER, numPartitions: 1 }, { topic: WALLET, numPartitions: 1 }] });
    await admin.disconnect();
  });
  afterAll(async () => {
    await broker.close();
  });

  async function orderTopicValues(): Promise<string[]> {
    const res = await kcat(['-b', broker.brokers, ...saslArgs('admin', PASSWORDS.admin), '-C', '-t', ORDER, '-e', '-o', 'beginning', '-q']);
    return res.stdout.split('\n').filter(Boolean);
  }

  it('kafkajs: the wallet credential cannot produce to the order topic; the order credential can', async () => {
    expect(await produceWith(client(broker.brokers, 'wallet'), ORDER, 'forged RefundRequested (kafkajs)')).toBe('TOPIC_AUTHORIZATION_FAILED');
    expect(await produceWith(client(broker.brokers, 'order'), ORDER, 'real OrderPlaced (kafkajs)')).toMatch(/^offset \d+$/);
    expect(await produceWith(client(broker.brokers, 'wallet'), WALLET, 'own topic')).toMatch(/^offset \d+$/);
    const values = await orderTopicValues();
    expect(values).toContain('real OrderPlaced (kafkajs)');
    expect(values).not.toContain('forged RefundRequested (kafkajs)');
  });

  it('kafkajs: a wrong password and an unauthenticated client are refused', async () => {
    expect(await produceWith(client(broker.brokers, 'order', 'not-the-password'), ORDER, 'wrong password')).toBe('KafkaJSSASLAuthenticationError');
    expect(await produceWith(client(broker.brokers, 'order', PASSWORDS.wallet), ORDER, 'another user password')).toBe('KafkaJSSASLAuthenticationError');
    // No SASL at all: the broker closes the connection at the first request after ApiVersions.
    expect(await produceWith(client(broker.brokers), ORDER, 'anonymous')).toMatch(/KafkaJSConnectionClosedError|KafkaJSConnectionError|KafkaJSNumberOfRetriesExceeded/);
    expect(await orderTopicValues()).not.toEqual(expect.arrayContaining(['wrong password', 'another user password', 'anonymous']));
  });

  it(`kcat (librdkafka, ${KCAT}): the same refusals and the same acceptance`, async () => {
    const produce = (user: string, password: string, value: string, extra: string[] = []) =>
      kcat(['-b', broker.brokers, ...extra, ...(user ? saslArgs(user, password) : []), '-X', 'message.timeout.ms=3000', '-P', '-t', ORDER], `${value}\n`);
    const forged = await produce('wallet', PASSWORDS.wallet, 'forged RefundRequested (kcat)');
    expect(forged.code).not.toBe(0);
    // librdkafka 2.0 reports the refusal, or (a race of its own after a permanent topic error) the
    // message's expiry; either way nothing is written, which the read below shows.
    expect(forged.stderr).toMatch(/Topic authorization failed|Message timed out/);
    const real = await produce('order', PASSWORDS.order, 'real OrderPlaced (kcat)');
    expect(real.code, real.stderr).toBe(0);
    const wrong = await produce('order', 'not-the-password', 'wrong password (kcat)');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('Invalid username or password');
    const anonymous = await produce('', '', 'anonymous (kcat)');
    expect(anonymous.code).not.toBe(0);
    const values = await orderTopicValues();
    expect(values).toContain('real OrderPlaced (kcat)');
    for (const refused of ['forged RefundRequested (kcat)', 'wrong password (kcat)', 'anonymous (kcat)']) expect(values).not.toContain(refused);
  });

  it.skipIf(!pythonHas('kafka'))('kafka-python (v0 handshake, bare PLAIN token): the same refusals and acceptance', async () => {
    const run = async (user: string, password: string) => (await runPython('kafka_python_sasl.py', [broker.brokers, ORDER, user, password]))[0];
    expect(await run('wallet', PASSWORDS.wallet)).toEqual({ error: 'TopicAuthorizationFailedError' });
    expect(await run('order', PASSWORDS.order)).toEqual({ offset: expect.any(Number) });
    expect(await run('order', 'not-the-password')).toEqual({ error: 'NoBrokersAvailable' });
  });

  it('consumer groups and topics a principal may not read are refused; metadata lists only what it may see', async () => {
    const wallet = client(broker.brokers, 'wallet');
    // The order service's group: GROUP_AUTHORIZATION_FAILED on FindCoordinator/JoinGroup.
    const intruder = wallet.consumer({ groupId: 'order-payments', ...FAST_GROUP });
    await intruder.connect();
    await intruder.subscribe({ topic: ORDER, fromBeginning: true });
    const crashed = new Promise<string>((resolve) => intruder.on(intruder.events.CRASH, (e) => resolve(e.payload.error.name)));
    await intruder.run({ eachMessage: async () => undefined });
    // kafkajs reports the broker's GROUP_AUTHORIZATION_FAILED on FindCoordinator under this name
    // (the raw test below reads the code itself).
    expect(await crashed).toBe('KafkaJSGroupCoordinatorNotFound');
    await intruder.disconnect();

    const admin = wallet.admin();
    await admin.connect();
    try {
      const topics = await admin.listTopics();
      expect(topics).toContain(ORDER);
      expect(topics).toContain(WALLET);
      // Fetch needs READ: the wallet reads the order topic, not an admin-only one.
      const superAdmin = client(broker.brokers, 'admin').admin();
      await superAdmin.connect();
      await superAdmin.createTopics({ topics: [{ topic: 'ops.private.v1', numPartitions: 1 }] });
      await superAdmin.disconnect();
      expect(await admin.listTopics()).not.toContain('ops.private.v1');
      await expect(admin.fetchTopicOffsets('ops.private.v1')).rejects.toMatchObject({ type: 'TOPIC_AUTHORIZATION_FAILED' });
      await expect(admin.createTopics({ topics: [{ topic: 'catalog.events.v1' }] })).rejects.toMatchObject({ errors: [expect.objectContaining({ type: 'TOPIC_AUTHORIZATION_FAILED' })] });
      await expect(admin.deleteTopics({ topics: [ORDER] })).rejects.toMatchObject({ type: 'TOPIC_AUTHORIZATION_FAILED' });
    } finally {
      await admin.disconnect();
    }
  });

  it('serves SaslAuthenticate v2 (flexible) and closes a connection that skips authentication', async () => {
    const c = await RawClient.connect(broker.port);
    c.send(17, 1, 1, (w) => void w.string('PLAIN'));
    const token = Buffer.from(`\0order\0${PASSWORDS.order}`);
    c.send(36, 2, 2, (w) => {
      w.int8(0).uvarint(token.length + 1).raw(token).int8(0);
    });
    c.send(3, 1, 3, (w) => void w.int32(0)); // Metadata: served once authenticated
    c.send(10, 1, 4, (w) => void w.string('wallet').int8(0)); // FindCoordinator for another service's group
    await c.waitFrames(4, 3000);
    const [handshake, auth, meta, coordinator] = c.received();
    const found = new Reader(coordinator!.body);
    found.int32(); // throttle
    expect(found.int16()).toBe(30); // GROUP_AUTHORIZATION_FAILED
    expect(new Reader(handshake!.body).int16()).toBe(0);
    const r = new Reader(auth!.body);
    expect(r.int8()).toBe(0); // response header v1 tags
    expect(r.int16()).toBe(0);
    expect(meta?.correlationId).toBe(3);
    c.close();

    const anonymous = await RawClient.connect(broker.port);
    anonymous.send(3, 1, 1, (w) => void w.int32(0));
    expect(await anonymous.waitClosed(3000)).toBe(true);
    expect(anonymous.received()).toEqual([]);

    // Another mechanism: error 33 with the enabled ones, then the connection is closed.
    const scram = await RawClient.connect(broker.port);
    scram.send(17, 1, 1, (w) => void w.string('SCRAM-SHA-256'));
    expect(await scram.waitClosed(3000)).toBe(true);
    const mechanisms = new Reader(scram.received()[0]!.body);
    expect(mechanisms.int16()).toBe(33);
    expect(mechanisms.array((r) => r.string())).toEqual(['PLAIN']);

    // SASL off: a handshake is answered ILLEGAL_SASL_STATE, as on Kafka's PLAINTEXT listener.
    const open = await startTestBroker({ fsync: false });
    const plain = await RawClient.connect(open.port);
    plain.send(17, 1, 1, (w) => void w.string('PLAIN'));
    await plain.waitFrames(1, 3000);
    expect(new Reader(plain.received()[0]!.body).int16()).toBe(34);
    plain.close();
    await open.close();

    const wrong = await RawClient.connect(broker.port);
    wrong.send(17, 1, 1, (w) => void w.string('PLAIN'));
    wrong.send(36, 1, 2, (w) => void w.nullableBytes(Buffer.from('\0order\0nope')));
    expect(await wrong.waitClosed(3000)).toBe(true);
    const answer = new Reader(wrong.received()[1]!.body);
    expect(answer.int16()).toBe(58); // SASL_AUTHENTICATION_FAILED, then the connection is closed
    expect(answer.nullableString()).toBe('Authentication failed: Invalid username or password');
  });
});
