import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedKafka } from '../src/index.ts';
import { kafkaFor, startTestBroker } from './helpers/broker.ts';
import { Writer } from '../src/protocol/writer.ts';
import { encodeBatch, RawClient } from './helpers/raw-client.ts';

const API_VERSIONS = 18;
const METADATA = 3;
const FETCH = 1;
const PRODUCE = 0;
const INIT_PRODUCER_ID = 22;
const JOIN_GROUP = 11;
const HEARTBEAT = 12;

describe('protocol edges', () => {
  let broker: EmbeddedKafka;
  const logs: { msg: string }[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n')) if (line) logs.push(JSON.parse(line) as { msg: string });
        done();
      },
    });
    broker = await startTestBroker({ logger: pino({ level: 'warn' }, sink) });
  });
  afterAll(async () => {
    await broker.close();
  });

  async function brokerStillServes(): Promise<void> {
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    await admin.listTopics();
    await admin.disconnect();
  }

  it('closes only the connection that sent an unknown API key', async () => {
    const bystander = await RawClient.connect(broker.port);
    const c = await RawClient.connect(broker.port);
    c.send(57, 0, 1, () => undefined);
    expect(await c.waitClosed(2000)).toBe(true);
    bystander.send(API_VERSIONS, 0, 7, () => undefined);
    await bystander.waitFrames(1, 2000);
    expect(bystander.received()[0]?.correlationId).toBe(7);
    expect(bystander.closed).toBe(false);
    bystander.close();
    await brokerStillServes();
    expect(logs.map((l) => l.msg)).toContain('unsupported request, connection closed');
  });

  it('closes the connection on a truncated body or an absurd frame size', async () => {
    const c = await RawClient.connect(broker.port);
    c.send(METADATA, 1, 1, (w) => void w.int32(1000).string('only-one')); // claims 1000 topics
    expect(await c.waitClosed(2000)).toBe(true);
    const d = await RawClient.connect(broker.port);
    d.sendRaw(Buffer.from([0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
    expect(await d.waitClosed(2000)).toBe(true);
    await brokerStillServes();
    expect(logs.filter((l) => l.msg === 'malformed request, connection closed')).toHaveLength(2);
  });

  it('survives random request bodies for every API and version', async () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const clients: RawClient[] = [];
    const keys = [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 22, 37, 42];
    for (const key of keys) {
      for (let version = 0; version <= 4; version++) {
        const c = await RawClient.connect(broker.port);
        clients.push(c);
        for (let i = 0; i < 5; i++) {
          const body = Buffer.from(Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256)));
          c.send(key, version, i, (w) => void w.raw(body));
        }
      }
    }
    // Valid requests with a few bytes flipped reach deeper into each decoder.
    const batch = encodeBatch(['fuzz']);
    const templates: [number, number, (w: Writer) => void][] = [
      [METADATA, 4, (w) => void w.int32(1).string('fuzz-topic').bool(true)],
      [PRODUCE, 3, (w) => void w.nullableString(null).int16(1).int32(1000).int32(1).string('fuzz-topic').int32(1).int32(0).nullableBytes(batch)],
      [FETCH, 4, (w) => void w.int32(-1).int32(10).int32(1).int32(1000).int8(0).int32(1).string('fuzz-topic').int32(1).int32(0).int64(0).int32(1000)],
      [11, 1, (w) => void w.string('fuzz-group').int32(1000).int32(1000).string('').string('consumer').int32(1).string('range').nullableBytes(Buffer.alloc(8))],
      [8, 2, (w) => void w.string('fuzz-group').int32(-1).string('').int64(-1).int32(1).string('fuzz-topic').int32(1).int32(0).int64(1).nullableString(null)],
      [2, 1, (w) => void w.int32(-1).int32(1).string('fuzz-topic').int32(1).int32(0).int64(-1)],
    ];
    for (let i = 0; i < 240; i++) {
      const [key, version, build] = templates[i % templates.length] as (typeof templates)[number];
      const w = new Writer();
      build(w);
      const body = w.frame(0).subarray(8);
      for (let flips = 1 + Math.floor(random() * 3); flips > 0; flips--) body[Math.floor(random() * body.length)] = Math.floor(random() * 256);
      const c = await RawClient.connect(broker.port);
      clients.push(c);
      c.send(key, version, i, (w) => void w.raw(body));
    }
    await new Promise((r) => setTimeout(r, 300));
    for (const c of clients) c.close();
    await brokerStillServes();
    // Every rejection was recognised as a bad request, not an internal failure.
    expect(logs.filter((l) => l.msg === 'request failed, connection closed')).toEqual([]);
    const producer = kafkaFor(broker.brokers).producer();
    await producer.connect();
    const [res] = await producer.send({ topic: 'after-fuzz', messages: [{ value: 'still here' }] });
    await producer.disconnect();
    expect(res?.errorCode).toBe(0);
  });

  it('answers an ApiVersions version it does not know with error 35 and its ranges, each from 0', async () => {
    const c = await RawClient.connect(broker.port);
    c.send(API_VERSIONS, 3, 1, (w) => void w.int8(0)); // header tagged fields as librdkafka sends them
    await c.waitFrames(1, 2000);
    const body = c.received()[0]?.body as Buffer;
    expect(body.readInt16BE(0)).toBe(35);
    const count = body.readInt32BE(2);
    const ranges = Array.from({ length: count }, (_, i) => [body.readInt16BE(6 + i * 6), body.readInt16BE(8 + i * 6), body.readInt16BE(10 + i * 6)]);
    expect(ranges.every(([, min]) => min === 0)).toBe(true);
    expect(ranges.find(([key]) => key === 11)).toEqual([11, 0, 3]); // JoinGroup from 0: kcat -G needs the overlap
    // kafka-python 2.0 infers Kafka 2.4 from Produce v8 and only then allows zstd.
    expect(ranges.find(([key]) => key === 0)).toEqual([0, 0, 8]);
    c.close();
  });

  it('answers a group request above its range with UNSUPPORTED_VERSION and keeps the connection', async () => {
    const c = await RawClient.connect(broker.port);
    // JoinGroup v5 (static membership), not served: throttle, error 35, generation -1, three empty
    // strings, no members.
    c.send(JOIN_GROUP, 5, 1, (w) => void w.string('g').int32(6000).int32(6000).string('').nullableString('inst-1').string('consumer').int32(0));
    // Heartbeat v4 is flexible: header tag byte, throttle, error, body tag byte.
    const compact = (v: string): Buffer => Buffer.concat([Buffer.from([v.length + 1]), Buffer.from(v)]);
    c.send(HEARTBEAT, 4, 2, (w) => void w.int8(0).raw(compact('g')).int32(1).raw(compact('m')).int8(0).int8(0));
    await c.waitFrames(2, 2000);
    const [join, beat] = c.received();
    expect(join?.correlationId).toBe(1);
    const jb = join?.body as Buffer;
    expect([jb.readInt32BE(0), jb.readInt16BE(4), jb.readInt32BE(6)]).toEqual([0, 35, -1]);
    expect(jb.length).toBe(4 + 2 + 4 + 2 + 2 + 2 + 4);
    expect(beat?.correlationId).toBe(2);
    expect([...(beat?.body as Buffer)]).toEqual([0, 0, 0, 0, 0, 0, 35, 0]);
    expect(c.closed).toBe(false);
    expect(logs.map((l) => l.msg)).toContain('unsupported version, answered UNSUPPORTED_VERSION');
    c.close();
  });

  it('holds a long-polling fetch on its own connection only, answers in order and wakes on produce', async () => {
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'longpoll' }] });
    await admin.disconnect();

    const poller = await RawClient.connect(broker.port);
    const sentAt = Date.now();
    poller.send(FETCH, 4, 1, (w) => {
      w.int32(-1).int32(5000).int32(1).int32(1 << 20).int8(0);
      w.int32(1).string('longpoll').int32(1).int32(0).int64(0).int32(1 << 20);
    });
    poller.send(API_VERSIONS, 0, 2, () => undefined); // pipelined behind the fetch

    const other = await RawClient.connect(broker.port);
    other.send(METADATA, 1, 9, (w) => void w.int32(-1));
    await other.waitFrames(1, 2000);
    expect(other.received()[0]?.at).toBeLessThan(sentAt + 1000);
    expect(poller.received()).toHaveLength(0);

    const producer = kafkaFor(broker.brokers).producer();
    await producer.connect();
    const producedAt = Date.now();
    await producer.send({ topic: 'longpoll', messages: [{ value: 'wake up' }] });
    await producer.disconnect();
    await poller.waitFrames(2, 3000);
    const [fetchRes, versionsRes] = poller.received();
    expect(fetchRes?.correlationId).toBe(1);
    expect(versionsRes?.correlationId).toBe(2);
    expect((fetchRes?.at ?? Infinity) - producedAt).toBeLessThan(1000); // well before max_wait (5 s)
    expect(fetchRes?.body.includes(Buffer.from('wake up'))).toBe(true);
    poller.close();
    other.close();
  });

  it('holds a fetch until min_bytes have arrived, or answers what there is at max_wait', async () => {
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'gather', numPartitions: 2 }] });
    await admin.disconnect();
    const producer = kafkaFor(broker.brokers).producer();
    await producer.connect();
    const fetchFrom = (c: RawClient, correlationId: number, minBytes: number, maxWaitMs: number) =>
      c.send(FETCH, 4, correlationId, (w) => {
        w.int32(-1).int32(maxWaitMs).int32(minBytes).int32(1 << 20).int8(0);
        w.int32(1).string('gather').int32(2).int32(0).int64(0).int32(1 << 20).int32(1).int64(0).int32(1 << 20);
      });

    // Nowhere near min_bytes: held to max_wait, then everything produced meanwhile, on both partitions.
    const gathering = await RawClient.connect(broker.port);
    const sentAt = Date.now();
    fetchFrom(gathering, 1, 1 << 20, 800);
    for (const [i, partition] of [0, 1, 0].entries()) await producer.send({ topic: 'gather', messages: [{ value: `gathered-${i}`, partition }] });
    await gathering.waitFrames(1, 5000);
    const held = gathering.received()[0]!;
    expect(held.at - sentAt).toBeGreaterThanOrEqual(750);
    for (const i of [0, 1, 2]) expect(held.body.includes(Buffer.from(`gathered-${i}`))).toBe(true);

    // min_bytes reached by the third append: answered then, long before max_wait (10 s).
    const early = await RawClient.connect(broker.port);
    const [p0] = await (async () => {
      const a = kafkaFor(broker.brokers).admin();
      await a.connect();
      const offsets = await a.fetchTopicOffsets('gather');
      await a.disconnect();
      return offsets.filter((o) => o.partition === 0).map((o) => Number(o.offset));
    })();
    early.send(FETCH, 4, 1, (w) => {
      w.int32(-1).int32(10_000).int32(900).int32(1 << 20).int8(0);
      w.int32(1).string('gather').int32(1).int32(0).int64(p0!).int32(1 << 20);
    });
    const big = 'x'.repeat(250);
    await producer.send({ topic: 'gather', messages: [{ value: `a${big}`, partition: 0 }] });
    await producer.send({ topic: 'gather', messages: [{ value: `b${big}`, partition: 0 }] });
    await new Promise((r) => setTimeout(r, 300));
    expect(early.received()).toHaveLength(0); // two batches of ~320 bytes are under 900
    const thirdAt = Date.now();
    await producer.send({ topic: 'gather', messages: [{ value: `c${big}`, partition: 0 }] });
    await early.waitFrames(1, 3000);
    const answer = early.received()[0]!;
    expect(answer.at - thirdAt).toBeLessThan(1000);
    for (const v of ['a', 'b', 'c']) expect(answer.body.includes(Buffer.from(`${v}${big}`))).toBe(true);
    await producer.disconnect();
    gathering.close();
    early.close();
  });

  it('sends no response to acks=0 produce, and later answers on that connection keep their order', async () => {
    const c = await RawClient.connect(broker.port);
    c.send(METADATA, 1, 1, (w) => void w.int32(1).string('acks0'));
    await c.waitFrames(1, 2000);
    const batch = encodeBatch(['fire', 'and', 'forget']);
    c.send(PRODUCE, 3, 2, (w) => {
      w.nullableString(null).int16(0).int32(1000);
      w.int32(1).string('acks0').int32(1).int32(0).nullableBytes(batch);
    });
    c.send(API_VERSIONS, 0, 3, () => undefined);
    await c.waitFrames(2, 2000);
    await new Promise((r) => setTimeout(r, 200));
    expect(c.received().map((f) => f.correlationId)).toEqual([1, 3]);
    c.close();
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    const [p0] = await admin.fetchTopicOffsets('acks0');
    await admin.disconnect();
    expect(p0?.high).toBe('3');
  });

  it('answers a retried idempotent batch with its original offset and rejects a sequence gap', async () => {
    const c = await RawClient.connect(broker.port);
    c.send(METADATA, 1, 1, (w) => void w.int32(1).string('idem-raw'));
    c.send(INIT_PRODUCER_ID, 0, 2, (w) => void w.nullableString(null).int32(60_000));
    await c.waitFrames(2, 2000);
    const init = c.received()[1]?.body as Buffer;
    expect(init.readInt16BE(4)).toBe(0);
    const producerId = Number(init.readBigInt64BE(6));
    const produce = (correlationId: number, sequence: number, values: string[]) =>
      c.send(PRODUCE, 3, correlationId, (w) => {
        w.nullableString(null).int16(-1).int32(1000);
        w.int32(1).string('idem-raw').int32(1).int32(0).nullableBytes(encodeBatch(values, { id: producerId, epoch: 0, sequence }));
      });
    const result = (i: number) => {
      const body = c.received()[i]?.body as Buffer;
      const nameLen = body.readInt16BE(4);
      const at = 6 + nameLen + 4; // topics count, name, partitions count
      return { error: body.readInt16BE(at + 4), baseOffset: Number(body.readBigInt64BE(at + 6)) };
    };
    produce(3, 0, ['a', 'b']);
    produce(4, 2, ['c']);
    produce(5, 2, ['c']); // the client's retry of an answer it did not see
    produce(6, 7, ['gap']);
    await c.waitFrames(6, 3000);
    expect(result(2)).toEqual({ error: 0, baseOffset: 0 });
    expect(result(3)).toEqual({ error: 0, baseOffset: 2 });
    expect(result(4)).toEqual({ error: 0, baseOffset: 2 });
    expect(result(5).error).toBe(45); // OUT_OF_ORDER_SEQUENCE_NUMBER
    c.close();
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    const [p0] = await admin.fetchTopicOffsets('idem-raw');
    await admin.disconnect();
    expect(p0?.high).toBe('3');
  });
});
