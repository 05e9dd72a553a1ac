import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { Topics } from '@smm/contracts';
import { connectMongo, createKafka, outboxModel } from '@smm/platform';
import { checkLedger } from '../src/ledger-check.ts';
import { createStore } from '../src/store/store.ts';
import { settleMoneyRequests } from '../src/use-cases/settle-money-requests.ts';
import { type Wallet, balanceOf, client, eventually, fund, logger, startWallet, withNewId, walletSuite } from './support.ts';

const suite = walletSuite({ collector: 'wallet-test-collector' });
let nextOrderId = 1000;

async function newMember(won = 0): Promise<string> {
  const userId = await suite.member();
  if (won > 0) await fund(suite.wallet.base, userId, won);
  return userId;
}

const outcomesOf = (orderId: number) => suite.received.events.filter((e) => (e.type === 'PointDebited' || e.type === 'PointDebitRejected') && (e.data as { orderId: number }).orderId === orderId);
const quiet = () => new Promise((r) => setTimeout(r, 800));
type LedgerPage = { items: Array<{ seq: number; deltaDeci: number; balanceAfterDeci: number; kind: string; source: string; referenceId: string }> };
/** `wallet_money_decisions_total{decision}` as the wallet's /metrics serves it (0 before the first decision of that kind). */
async function decisionsCounted(decision: string): Promise<number> {
  const text = await (await fetch(`${suite.wallet.base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`wallet_money_decisions_total{decision="${decision}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}
const ledgerOf = async (userId: string) => (await client(suite.wallet.base, 'operator-1', 'admin').get<LedgerPage>(`/admin/accounts/${userId}/ledger?pageSize=100`)).body.items;

describe('paying for orders (OrderPlaced → PointDebited | PointDebitRejected)', () => {
  it('debits exactly once under redelivery and under a copy with a new event id', async () => {
    const userId = await newMember(10_000);
    const orderId = nextOrderId++;
    const debitedBefore = await decisionsCounted('debited');
    const placed = suite.publisher.orderPlaced(userId, orderId, 12_345);
    await suite.publisher.publish(Topics.order, [placed, placed]);
    await suite.publisher.publish(Topics.order, [placed, withNewId(placed)]);
    await suite.publisher.publish(Topics.order, [withNewId(placed)]);

    await eventually(() => outcomesOf(orderId), (e) => e.length >= 1);
    await suite.wallet.flush();
    await quiet();
    expect(outcomesOf(orderId)).toHaveLength(1);
    // Operators see the decisions at /metrics: one debit, the copies counted as duplicates.
    expect(await decisionsCounted('debited')).toBe(debitedBefore + 1);
    expect(await decisionsCounted('duplicate')).toBeGreaterThanOrEqual(1);
    expect(outcomesOf(orderId)[0]).toMatchObject({
      type: 'PointDebited',
      aggregateId: `account-${userId}`,
      correlationId: placed.correlationId,
      causationId: placed.eventId,
      data: { userId, kind: 'order', orderId, amountDeci: 12_345, balanceAfterDeci: 87_655 },
    });
    expect(await balanceOf(suite.wallet.base, userId)).toBe(87_655);
    expect((await ledgerOf(userId))[0]).toMatchObject({ seq: 2, deltaDeci: -12_345, balanceAfterDeci: 87_655, kind: 'debit', source: 'order', referenceId: `order-${orderId}` });
  });

  it('charges an auto order in full under its own reference (auto-<id>)', async () => {
    const userId = await newMember(5_000);
    const orderId = nextOrderId++;
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, orderId, 40_000, 'auto')]);
    const [debited] = await eventually(() => outcomesOf(orderId), (e) => e.length === 1);
    expect(debited).toMatchObject({ type: 'PointDebited', data: { kind: 'auto', orderId, amountDeci: 40_000, balanceAfterDeci: 10_000 } });
    expect((await ledgerOf(userId))[0]!.referenceId).toBe(`auto-${orderId}`);
  });

  it('refuses what the balance does not cover, and a refused order stays refused when money arrives later', async () => {
    const userId = await newMember(5_000);
    const orderId = nextOrderId++;
    const placed = suite.publisher.orderPlaced(userId, orderId, 50_001);
    await suite.publisher.publish(Topics.order, [placed]);
    const [rejected] = await eventually(() => outcomesOf(orderId), (e) => e.length === 1);
    expect(rejected).toMatchObject({
      type: 'PointDebitRejected',
      aggregateId: `account-${userId}`,
      data: { userId, kind: 'order', orderId, amountDeci: 50_001, balanceDeci: 50_000, reason: 'INSUFFICIENT_POINTS' },
    });

    await fund(suite.wallet.base, userId, 10_000);
    await suite.publisher.publish(Topics.order, [withNewId(placed), placed]);
    await suite.wallet.flush();
    await quiet();
    expect(outcomesOf(orderId)).toHaveLength(1);
    expect(await balanceOf(suite.wallet.base, userId)).toBe(150_000);
  });

  it('emits nothing for a copy of a paid order even when the balance no longer covers it', async () => {
    const userId = await newMember(5_000);
    const orderId = nextOrderId++;
    const placed = suite.publisher.orderPlaced(userId, orderId, 50_000);
    await suite.publisher.publish(Topics.order, [placed]);
    await eventually(() => outcomesOf(orderId), (e) => e.length === 1);
    await suite.publisher.publish(Topics.order, [withNewId(placed)]);
    await suite.wallet.flush();
    await quiet();
    expect(outcomesOf(orderId).map((e) => e.type)).toEqual(['PointDebited']);
    expect(await balanceOf(suite.wallet.base, userId)).toBe(0);
  });

  it('refuses members without an account (NO_ACCOUNT)', async () => {
    const orderId = nextOrderId++;
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced('nobody-here', orderId, 100)]);
    const [rejected] = await eventually(() => outcomesOf(orderId), (e) => e.length === 1);
    expect(rejected).toMatchObject({ type: 'PointDebitRejected', data: { userId: 'nobody-here', reason: 'NO_ACCOUNT', balanceDeci: 0, amountDeci: 100 } });
  });

  it('200 concurrent orders of one member whose balance covers exactly 50: 50 paid, 150 refused, balance 0', async () => {
    const userId = await newMember(5_000); // 50,000 deci-won
    const first = nextOrderId;
    nextOrderId += 200;
    const orders = Array.from({ length: 200 }, (_, i) => suite.publisher.orderPlaced(userId, first + i, 1_000));
    // Four producers at once, as four order-service replicas would publish.
    await Promise.all([0, 1, 2, 3].map((q) => suite.publisher.publish(Topics.order, orders.filter((_, i) => i % 4 === q))));

    const mine = () => suite.received.events.filter((e) => (e.type === 'PointDebited' || e.type === 'PointDebitRejected') && (e.data as { userId: string }).userId === userId);
    await eventually(mine, (e) => e.length >= 200, 30_000);
    await suite.wallet.flush();
    await quiet();
    const outcomes = mine();
    expect(outcomes).toHaveLength(200);
    expect(new Set(outcomes.map((e) => (e.data as { orderId: number }).orderId)).size).toBe(200);
    expect(outcomes.filter((e) => e.type === 'PointDebited')).toHaveLength(50);
    expect(outcomes.filter((e) => e.type === 'PointDebitRejected')).toHaveLength(150);
    expect(await balanceOf(suite.wallet.base, userId)).toBe(0);
    const balances = outcomes.filter((e) => e.type === 'PointDebited').map((e) => (e.data as { balanceAfterDeci: number }).balanceAfterDeci);
    expect(new Set(balances).size).toBe(50);
    expect(Math.min(...balances)).toBe(0);
    expect((await ledgerOf(userId)).length).toBe(51);
    const report = await checkLedger(suite.wallet.store.connection);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe('accounts remembered between payment runs (the read skipped, the write guarded)', () => {
  it('debits from the stored balance when money arrived outside the payment runs since the last debit', async () => {
    const userId = await newMember(10_000);
    const [a, b] = [nextOrderId++, nextOrderId++];
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, a, 10_000)]);
    await eventually(() => outcomesOf(a), (e) => e.length === 1);
    await fund(suite.wallet.base, userId, 5_000); // a credit the payment runs did not make: seq and balance move on
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, b, 20_000)]);
    const [debited] = await eventually(() => outcomesOf(b), (e) => e.length === 1);
    expect(debited).toMatchObject({ type: 'PointDebited', data: { amountDeci: 20_000, balanceAfterDeci: 120_000 } });
    expect(await balanceOf(suite.wallet.base, userId)).toBe(120_000);
    expect((await ledgerOf(userId)).map((e) => [e.seq, e.balanceAfterDeci])).toEqual([
      [4, 120_000],
      [3, 140_000],
      [2, 90_000],
      [1, 100_000],
    ]);
    expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
  });

  it('does not refuse from memory: a member who spent everything and topped up is debited', async () => {
    const userId = await newMember(5_000);
    const [a, b] = [nextOrderId++, nextOrderId++];
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, a, 50_000)]);
    await eventually(() => outcomesOf(a), (e) => e.length === 1);
    await fund(suite.wallet.base, userId, 5_000);
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, b, 50_000)]);
    const [outcome] = await eventually(() => outcomesOf(b), (e) => e.length === 1);
    expect(outcome).toMatchObject({ type: 'PointDebited', data: { balanceAfterDeci: 0 } });
  });
});

describe('a refusal and a debit of one order decided at the same moment (two replicas, a top-up between their reads)', () => {
  it('never both commit: the refusal writes the account too, conflicts with the debit and is decided again', async () => {
    const userId = await newMember(0);
    const placed = suite.publisher.orderPlaced(userId, nextOrderId++, 10_000);
    // Replica A reads the account (no points), then waits; meanwhile the member tops up and replica B debits.
    const secondConnection = await connectMongo(suite.infra.mongo.uri(suite.wallet.database), logger, 'wallet-test-b');
    const replica = (store: Awaited<ReturnType<typeof createStore>>) => ({ store, logger, relay: { kick: () => undefined }, topUpExpirySeconds: 3600 });
    const a = replica(suite.wallet.store);
    const b = replica(await createStore(secondConnection));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const read = a.store.accounts.findMany.bind(a.store.accounts);
    let first = true;
    const spy = vi.spyOn(a.store.accounts, 'findMany').mockImplementation(async (ids, session) => {
      const found = await read(ids, session);
      if (first) {
        first = false;
        await gate;
      }
      return found;
    });
    try {
      const decidedByA = settleMoneyRequests(a, [placed]);
      await eventually(() => first, (f) => !f);
      await fund(suite.wallet.base, userId, 5_000);
      expect((await settleMoneyRequests(b, [placed])).map((d) => d.type)).toEqual(['debited']);
      release();
      expect((await decidedByA).map((d) => d.type)).toEqual(['duplicate']);
      expect(await suite.wallet.store.rejections.model.countDocuments({ _id: `order-${placed.data.orderId}` })).toBe(0);
      expect(await balanceOf(suite.wallet.base, userId)).toBe(40_000);
      expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
    } finally {
      spy.mockRestore();
      await secondConnection.close();
    }
  });
});

describe('two wallet replicas sharing the order topic', () => {
  it('never overdraw one member whose orders land on different partitions (conflicting transactions retry)', async () => {
    const second = await startWallet(suite.infra, { database: suite.wallet.database });
    try {
      await new Promise((r) => setTimeout(r, 4000)); // let the groups rebalance over both replicas
      const userId = await newMember(10_000); // covers exactly 100 orders of 1,000 deci-won
      const first = nextOrderId;
      nextOrderId += 300;
      const orders = Array.from({ length: 300 }, (_, i) => suite.publisher.orderPlaced(userId, first + i, 1_000));
      await Promise.all([0, 1, 2].map((q) => suite.publisher.publish(Topics.order, orders.filter((_, i) => i % 3 === q))));
      const mine = () => suite.received.events.filter((e) => (e.type === 'PointDebited' || e.type === 'PointDebitRejected') && (e.data as { userId: string }).userId === userId);
      await eventually(mine, (e) => e.length >= 300, 45_000);
      await suite.wallet.flush();
      await quiet();
      expect(mine()).toHaveLength(300);
      expect(mine().filter((e) => e.type === 'PointDebited')).toHaveLength(100);
      expect(await balanceOf(suite.wallet.base, userId)).toBe(0);
      expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
    } finally {
      await second.close();
    }
  }, 90_000);
});

describe('refunds (RefundRequested → PointCredited)', () => {
  it('credits once per refund id, however often and under whatever event id it arrives', async () => {
    const userId = await newMember(5_000);
    const orderId = nextOrderId++;
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, orderId, 30_000)]);
    await eventually(() => outcomesOf(orderId), (e) => e.length === 1);
    const refund = suite.publisher.refund(userId, orderId, `order-${orderId}-canceled`, 28_000);
    const partial = suite.publisher.refund(userId, orderId, `order-${orderId}-partial`, 1_234);
    await suite.publisher.publish(Topics.order, [refund, refund, withNewId(refund), partial]);
    await suite.publisher.publish(Topics.order, [withNewId(partial)]);

    const credits = () => suite.received.of('PointCredited', (d) => d.userId === userId && d.source === 'refund');
    await eventually(credits, (e) => e.length >= 2);
    await suite.wallet.flush();
    await quiet();
    expect(credits()).toHaveLength(2);
    expect(credits()[0]).toMatchObject({ aggregateId: `account-${userId}`, data: { referenceId: `order-${orderId}-canceled`, amountDeci: 28_000, balanceAfterDeci: 48_000 } });
    expect(await balanceOf(suite.wallet.base, userId)).toBe(49_234);
    expect((await ledgerOf(userId)).map((e) => [e.kind, e.source, e.deltaDeci])).toEqual([
      ['credit', 'refund', 1_234],
      ['credit', 'refund', 28_000],
      ['debit', 'order', -30_000],
      ['credit', 'topup', 50_000],
    ]);
  });
});

describe('replaying every topic from the start', () => {
  async function snapshot(w: Wallet) {
    const accounts = await w.store.accounts.model.find().sort({ _id: 1 }).lean();
    return {
      accounts: accounts.map((a) => [a._id, a.balanceDeci, a.seq ?? 0]),
      ledger: await w.store.ledger.model.countDocuments(),
      outbox: await outboxModel(w.store.connection).countDocuments(),
      topUps: (await w.store.topUps.model.find().sort({ _id: 1 }).lean()).map((t) => [t._id, t.status]),
    };
  }

  it('changes nothing: with the processed marks, and even without them (the ledger and records guard money)', async () => {
    await suite.wallet.flush();
    const before = await snapshot(suite.wallet);
    const eventsBefore = suite.received.events.length;
    expect(before.ledger).toBeGreaterThan(50);
    const database = suite.wallet.database;
    await suite.wallet.close();

    // A new consumer group reads auth, catalog, order and scheduler topics from offset 0.
    let groups = replayGroups();
    let replay = await startWallet(suite.infra, { database, consumerGroups: groups });
    await waitForReplay(replay, groups);
    expect(await snapshot(replay)).toEqual(before);
    await replay.close();

    // As if the processed-event marks were lost: only the business records stand between a replay and a double charge.
    const connection = await connectMongo(suite.infra.mongo.uri(database), logger, 'wallet-test');
    await connection.collection('processed_events').deleteMany({});
    await connection.close();
    groups = replayGroups();
    replay = await startWallet(suite.infra, { database, consumerGroups: groups });
    await waitForReplay(replay, groups);
    const after = await snapshot(replay);
    expect(after).toEqual(before);
    expect((await checkLedger(replay.store.connection)).violations).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(suite.received.events.length).toBe(eventsBefore);
    suite.wallet = replay; // the suite closes it after the tests
  });

  /** Replay is done when the new groups have handled as many events as the topics hold (its marks and log lines are not observable otherwise). */
  function replayGroups() {
    const id = randomUUID().slice(0, 6);
    return { main: `wallet-replay-${id}`, payments: `wallet-payments-replay-${id}` };
  }

  async function waitForReplay(w: Wallet, groups: { main: string; payments: string }) {
    const admin = createKafka([suite.infra.kafka.brokers], 'wallet-test-admin', logger).admin();
    await admin.connect();
    try {
      const topics = [Topics.auth, Topics.catalog, Topics.order, Topics.scheduler];
      const ends = new Map<string, number>();
      for (const topic of topics) {
        const offsets = await admin.fetchTopicOffsets(topic).catch(() => []);
        ends.set(topic, offsets.reduce((sum, o) => sum + Number(o.high), 0));
      }
      await eventually(
        async () => {
          let behind = 0;
          for (const topic of topics) {
            const groupId = topic === Topics.order ? groups.payments : groups.main;
            const committed = await admin.fetchOffsets({ groupId, topics: [topic] });
            const done = committed[0]!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
            behind += ends.get(topic)! - done;
          }
          return behind;
        },
        (behind) => behind === 0,
        30_000,
      );
    } finally {
      await admin.disconnect();
    }
    await w.flush();
  }
});

describe('ledger check script', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const run = (mongoUrl: string) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/ledger-check.ts'], { cwd: packageDir, env: { PATH: process.env.PATH ?? '', MONGO_URL: mongoUrl } });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.once('exit', (code) => resolve({ code, out }));
    });

  it('passes on the wallet database and prints a summary', async () => {
    const { code, out } = await run(suite.infra.mongo.uri(suite.wallet.database));
    expect(out).toMatch(/ledger check OK: \d+ accounts, \d+ entries, total balance \d+ deci-won, 0 violations/);
    expect(code).toBe(0);
  });

  it('finds broken books and exits 1', async () => {
    const database = `broken_${randomUUID().slice(0, 6)}`;
    const connection = await connectMongo(suite.infra.mongo.uri(database), logger, 'wallet-test');
    const entry = (userId: string, seq: number, deltaDeci: number, balanceAfterDeci: number, ref: string): Record<string, unknown> => ({
      _id: ref, userId, seq, deltaDeci, balanceAfterDeci, kind: deltaDeci < 0 ? 'debit' : 'credit', source: 'topup', createdAt: new Date(),
    });
    await connection.collection<{ _id: string }>('point_accounts').insertMany([
      { _id: 'sum', balanceDeci: 999, seq: 1 },
      { _id: 'gap', balanceDeci: 30, seq: 3 },
      { _id: 'chain', balanceDeci: 5, seq: 2 },
      { _id: 'negative', balanceDeci: 0, seq: 2 },
    ] as never[]);
    await connection.collection<{ _id: string }>('ledger_entries').insertMany([
      entry('sum', 1, 100, 100, 'r1'),
      entry('gap', 1, 10, 10, 'r2'),
      entry('gap', 3, 20, 30, 'r3'),
      entry('chain', 1, 10, 10, 'r4'),
      entry('chain', 2, -5, 6, 'r5'),
      entry('negative', 1, -10, -10, 'r6'),
      entry('negative', 2, 10, 0, 'r7'),
      entry('orphan', 1, 10, 10, 'r8'),
    ] as never[]);
    const report = await checkLedger(connection);
    await connection.close();
    const rules = (userId: string) => report.violations.filter((v) => v.userId === userId).map((v) => v.rule);
    expect(report.ok).toBe(false);
    expect(rules('sum')).toEqual(['sum-equals-balance']);
    expect(rules('gap')).toEqual(['seq-contiguous']);
    expect(rules('chain')).toEqual(['balance-chain']);
    expect(rules('negative')).toContain('never-negative');
    expect(rules('orphan')).toEqual(['entry-without-account']);

    const { code, out } = await run(suite.infra.mongo.uri(database));
    expect(out).toContain('VIOLATION sum-equals-balance user=sum');
    expect(out).toMatch(/ledger check FAILED: 4 accounts, 8 entries/);
    expect(code).toBe(1);
  });
});

