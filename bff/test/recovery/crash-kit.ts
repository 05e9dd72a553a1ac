import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { ServiceUpserted, Topics, UserRegistered } from '@smm/contracts';
import { type EmbeddedKafka, startEmbeddedKafka } from '@smm/embedded-kafka';
import { formatReport, reconcile } from '@smm/reconcile';
import { type MainProcess, callerHeaders, eventually, spawnMain, testServiceSecret } from '@smm/testkit';

/**
 * A small crash lab for the recovery tests: embedded Kafka in this process, the embedded MongoDB,
 * the wallet and the order service each a child process (started as the devstack starts them), so
 * any of them can be SIGKILLed and started again — MongoDB on the same port and data directory.
 */
export const root = fileURLToPath(new URL('../../../', import.meta.url));
type Child = 'mongo' | 'wallet' | 'order';
const dirs: Record<Child, string> = { mongo: `${root}infra/embedded-mongo`, wallet: `${root}services/wallet`, order: `${root}services/order` };

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function json(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return { text };
  }
}

export type Lab = {
  ports: Record<Child, number>;
  procs: Partial<Record<Child, MainProcess>>;
  kafka: EmbeddedKafka;
  mongoUrl: string;
  start(name: Child): Promise<void>;
  sigkill(name: Child): Promise<void>;
  url(name: 'wallet' | 'order', path: string): string;
  as(to: 'wallet' | 'order', userId: string, role?: 'member' | 'admin'): Record<string, string>;
  stop(): Promise<void>;
};

export async function startLab(): Promise<Lab> {
  const kafkaDir = mkdtempSync(join(tmpdir(), 'crash-kafka-'));
  const mongoDir = mkdtempSync(join(tmpdir(), 'crash-mongo-'));
  const kafka = await startEmbeddedKafka({ port: 0, dataDir: kafkaDir, defaultPartitions: 3, fsync: false, logger: pino({ level: 'silent' }) });
  const ports: Record<Child, number> = { mongo: await freePort(), wallet: await freePort(), order: await freePort() };
  const procs: Partial<Record<Child, MainProcess>> = {};
  const lab: Lab = {
    ports,
    procs,
    kafka,
    mongoUrl: '',
    async start(name) {
      if (name === 'mongo') {
        const proc = spawnMain(dirs.mongo, { EMBEDDED_MONGO_PORT: String(ports.mongo), EMBEDDED_MONGO_DATA_DIR: mongoDir, EMBEDDED_MONGO_LOG_LEVEL: 'warn' });
        procs.mongo = proc;
        const listening = await proc.waitFor('listening', 60_000);
        lab.mongoUrl = String(listening.url);
        return;
      }
      const mongo = new URL(lab.mongoUrl);
      mongo.pathname = `/${name}`;
      const proc = spawnMain(dirs[name], {
        HOST: '127.0.0.1',
        PORT: String(ports[name]),
        KAFKA_BROKERS: kafka.brokers,
        MONGO_URL: mongo.toString(),
        SERVICE_NAME: name,
        LOG_LEVEL: process.env.RECOVERY_LOG_LEVEL ?? 'warn',
        SERVICE_AUTH_SECRET: testServiceSecret,
      });
      procs[name] = proc;
      await eventually(
        async () => {
          if (proc.child.exitCode !== null) throw new Error(`${name} exited: ${proc.stderr()} ${proc.stdout().slice(-2000)}`);
          return fetch(`http://127.0.0.1:${ports[name]}/readyz`).then((r) => r.status).catch(() => 0);
        },
        (status) => status === 200,
        60_000,
      );
    },
    async sigkill(name) {
      const proc = procs[name]!;
      proc.child.kill('SIGKILL');
      await proc.exited;
    },
    url: (name, path) => `http://127.0.0.1:${ports[name]}${path}`,
    as: (to, userId, role = 'member') => ({ ...callerHeaders({ to, userId, role }), 'content-type': 'application/json' }),
    async stop() {
      // RECOVERY_DUMP_DIR keeps the last run of each child's log lines (set RECOVERY_LOG_LEVEL=info for more).
      const dump = process.env.RECOVERY_DUMP_DIR;
      if (dump) for (const [name, proc] of Object.entries(procs)) writeFileSync(join(dump, `${name}.log`), proc.stdout() + proc.stderr());
      for (const proc of Object.values(procs)) proc?.child.kill('SIGKILL');
      await Promise.all(Object.values(procs).map((p) => p?.exited));
      await kafka.close();
      rmSync(kafkaDir, { recursive: true, force: true });
      rmSync(mongoDir, { recursive: true, force: true });
    },
  };
  await lab.start('mongo');
  await Promise.all([lab.start('wallet'), lab.start('order')]);
  return lab;
}

/** What the helpers below need of a lab: the broker, and wallet's and order's addresses and credentials (sigkill.test.ts builds one of its own). */
export type Reach = { kafka: { brokers: string }; url: Lab['url']; as: Lab['as'] };

/** A member with `won` points and a product at `unitPriceDeci`, as auth and catalog would announce them. */
export async function setUpMember(lab: Reach, serviceId: number, unitPriceDeci: number, won: number): Promise<string> {
  const userId = `crash-${serviceId}-${Date.now()}`;
  const kafka = new Kafka({ brokers: lab.kafka.brokers.split(','), clientId: 'bff-recovery', logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  const origin = { correlationId: `recovery-${serviceId}` };
  const registered = UserRegistered.create(userId, { userId, loginId: userId, email: null, role: 'member', provider: 'local', registerWhere: null, referredBy: null }, origin);
  const product = ServiceUpserted.create(`service-${serviceId}`, { serviceId, text: `복구 ${serviceId}`, platformId: 1, categoryId: 1, min: 10, max: 10_000, unitPriceDeci, enableAuto: false, isReadOnly: false, visible: true }, origin);
  await producer.send({ topic: Topics.auth, messages: [{ key: userId, value: JSON.stringify(registered) }] });
  await producer.send({ topic: Topics.catalog, messages: [{ key: product.aggregateId, value: JSON.stringify(product) }] });
  await producer.disconnect();

  await eventually(() => fetch(lab.url('wallet', `/accounts/${userId}`), { headers: lab.as('wallet', userId) }).then((r) => r.status), (s) => s === 200, 30_000);
  const asked = await json(await fetch(lab.url('wallet', '/top-ups'), { method: 'POST', headers: lab.as('wallet', userId), body: JSON.stringify({ name: '복구', point: won, feeType: 'none' }) }));
  const approved = await fetch(lab.url('wallet', `/admin/top-ups/${String(asked.id)}/approve`), { method: 'POST', headers: lab.as('wallet', 'admin-1', 'admin') });
  if (approved.status !== 200) throw new Error(`top-up approval answered ${approved.status}`);
  await eventually(
    async () => (await json(await fetch(lab.url('order', '/orders?waitMs=0'), { method: 'POST', headers: lab.as('order', userId), body: JSON.stringify({ serviceId, link: 'probe', amount: 0 }) }))).code,
    (code) => code === 'AMOUNT_BELOW_MIN',
    30_000,
  );
  return userId;
}

export type StoredOrder = { id: number; payment: string; pointDeci: number; userId?: string };

/** Every order of the member, by payment state, from the order service's admin list. */
export async function ordersOf(lab: Reach, userId: string, payment: string): Promise<StoredOrder[]> {
  const items: StoredOrder[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(lab.url('order', `/admin/orders?userId=${userId}&payment=${payment}&page=${page}&pageSize=100`), { headers: lab.as('order', 'admin-1', 'admin') });
    const body = (await json(res)) as { items: StoredOrder[]; hasNext: boolean };
    if (!Array.isArray(body.items)) throw new Error(`admin orders answered ${res.status} ${JSON.stringify(body)}`);
    items.push(...body.items);
    if (!body.hasNext) return items;
  }
}

export type LedgerEntry = { deltaDeci: number; referenceId: string; balanceAfterDeci: number };

export async function ledgerOf(lab: Reach, userId: string): Promise<LedgerEntry[]> {
  const items: LedgerEntry[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(lab.url('wallet', `/admin/accounts/${userId}/ledger?page=${page}&pageSize=100`), { headers: lab.as('wallet', 'admin-1', 'admin') });
    const body = (await json(res)) as { items: LedgerEntry[]; hasNext: boolean };
    if (!Array.isArray(body.items)) throw new Error(`ledger answered ${res.status} ${JSON.stringify(body)}`);
    items.push(...body.items);
    if (!body.hasNext) return items;
  }
}

/**
 * The cross-service check (`npm run reconcile`, infra/reconcile) over the lab's databases: every
 * debit paired with its order, refunds with their debits, and so on. Fault tests end with it.
 */
export async function reconcileLab(lab: Lab): Promise<{ total: number; report: string }> {
  const report = await reconcile({ url: lab.mongoUrl, readPreference: 'primary' });
  return { total: report.total, report: formatReport(report).join('\n') };
}
