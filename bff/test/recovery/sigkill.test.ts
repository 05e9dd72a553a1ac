import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, reconcile } from '@smm/reconcile';
import { type Reach, json, ledgerOf, ordersOf, setUpMember } from './crash-kit.ts';
import { type Infra, type MainProcess, callerHeaders, eventually, killMains, spawnMain, startInfra, testServiceSecret } from '@smm/testkit';

/**
 * SIGKILL of the wallet or the order service in the middle of a burst of orders: the devstack
 * stops everything when a child dies, so this file runs wallet and order itself (spawnMain, as the
 * devstack does) against embedded Kafka and MongoDB, and talks to them over their internal HTTP
 * the way the BFF does (a service credential naming the member). Catalog is stood in for by its ServiceUpserted event.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const walletDir = `${root}services/wallet`;
const orderDir = `${root}services/order`;

let infra: Infra;
const ports = { wallet: 0, order: 0 };
/** Orders per burst (RECOVERY_BURST); the kill comes after a quarter of them were answered. */
const BURST = Number(process.env.RECOVERY_BURST ?? 240);
const procs: { wallet?: MainProcess; order?: MainProcess } = {};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const envOf = (name: 'wallet' | 'order') => ({
  HOST: '127.0.0.1',
  PORT: String(ports[name]),
  KAFKA_BROKERS: infra.kafka.brokers,
  MONGO_URL: infra.mongo.uri(name),
  SERVICE_NAME: name,
  LOG_LEVEL: 'warn',
  SERVICE_AUTH_SECRET: testServiceSecret,
});

async function start(name: 'wallet' | 'order'): Promise<void> {
  const proc = spawnMain(name === 'wallet' ? walletDir : orderDir, envOf(name));
  procs[name] = proc;
  await eventually(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`${name} exited: ${proc.stderr()}`);
      return fetch(`http://127.0.0.1:${ports[name]}/readyz`).then((r) => r.status).catch(() => 0);
    },
    (status) => status === 200,
    60_000,
  );
}

async function sigkill(name: 'wallet' | 'order'): Promise<void> {
  const proc = procs[name]!;
  proc.child.kill('SIGKILL');
  await proc.exited;
}

const url = (name: 'wallet' | 'order', path: string) => `http://127.0.0.1:${ports[name]}${path}`;
const as = (to: 'wallet' | 'order', userId: string, role: 'member' | 'admin' = 'member') => ({ ...callerHeaders({ to, userId, role }), 'content-type': 'application/json' });
/** The crash lab's helpers (crash-kit.ts) reach this file's wallet and order the same way. */
const reach: Reach = { kafka: { get brokers() { return infra.kafka.brokers; } }, url, as };

function ledgerCheck(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/ledger-check.ts'], { cwd: walletDir, env: { PATH: process.env.PATH ?? '', MONGO_URL: infra.mongo.uri('wallet') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  infra = await startInfra();
  ports.wallet = await freePort();
  ports.order = await freePort();
  await Promise.all([start('wallet'), start('order')]);
}, 120_000);

afterAll(async () => {
  killMains();
  await infra?.stop();
}, 60_000);

type Outcome = { kind: 'answered'; status: number; id: number } | { kind: 'unknown' };

/**
 * `total` orders, `concurrency` at a time; `kill` runs once `killAfter` have been answered.
 * A refused connection (the order service is down) is retried: nothing was sent. A connection cut
 * while the request was in flight is "unknown": the order may or may not exist, as for any client.
 */
async function burst(userId: string, serviceId: number, total: number, killAfter: number, kill: () => Promise<void>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  let answered = 0;
  let killing: Promise<void> | undefined;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        const i = next++;
        for (;;) {
          try {
            const res = await fetch(url('order', '/orders?waitMs=2000'), { method: 'POST', headers: as('order', userId), body: JSON.stringify({ serviceId, link: `https://x.example/${i}`, amount: 10 }), signal: AbortSignal.timeout(30_000) });
            const body = await json(res);
            const id = (body.order as { id?: number } | undefined)?.id ?? (body.orderId as number | undefined);
            if (id === undefined) throw new Error(`unexpected answer ${res.status} ${JSON.stringify(body)}`);
            outcomes.push({ kind: 'answered', status: res.status, id });
            break;
          } catch (error) {
            const cause = (error as { cause?: { code?: string } }).cause?.code;
            if (cause === 'ECONNREFUSED') {
              await new Promise((r) => setTimeout(r, 100));
              continue;
            }
            if (error instanceof Error && error.message.startsWith('unexpected answer')) throw error;
            outcomes.push({ kind: 'unknown' });
            break;
          }
        }
        answered++;
        if (answered === killAfter) killing = kill();
      }
    }),
  );
  await killing;
  return outcomes;
}

async function verify(userId: string, priceDeci: number, fundedDeci: number, outcomes: Outcome[]) {
  const settled = await eventually(
    async () => ({ awaiting: await ordersOf(reach, userId, 'awaiting'), paid: await ordersOf(reach, userId, 'paid'), rejected: await ordersOf(reach, userId, 'rejected') }),
    (s) => s.awaiting.length === 0,
    90_000,
  );
  const known = new Set([...settled.paid, ...settled.rejected].map((o) => o.id));
  // none lost: every order a client heard of ended paid or rejected
  const lost = outcomes.flatMap((o) => (o.kind === 'answered' && !known.has(o.id) ? [`${o.id}:${o.status}`] : []));
  expect(lost, `answered ids (id:status) missing after the restart`).toEqual([]);
  // an order answered paid ends paid: these placements carry no key, so they are answered as soon
  // as the debit is decided, before the order's write — a kill in between must not undo the answer
  const paidIds = new Set(settled.paid.map((o) => o.id));
  const undone = outcomes.flatMap((o) => (o.kind === 'answered' && o.status === 201 && !paidIds.has(o.id) ? [o.id] : []));
  expect(undone, 'orders answered 201 that did not end paid').toEqual([]);
  // none charged twice: the balance is what the paid orders left — an order given up while the
  // wallet was down (503 PAYMENT_TIMEOUT) and debited after its restart is refunded, once
  const paidDeci = settled.paid.length * priceDeci;
  await eventually(async () => (await json(await fetch(url('wallet', `/accounts/${userId}`), { headers: as('wallet', userId) }))).pointDeci, (deci) => deci === fundedDeci - paidDeci, 60_000);
  const entries = await ledgerOf(reach, userId);
  const debits = entries.filter((e) => e.deltaDeci < 0);
  const unpaidRefunds = entries.filter((e) => e.referenceId.endsWith('-unpaid'));
  expect(debits).toHaveLength(settled.paid.length + unpaidRefunds.length);
  expect(new Set(debits.map((e) => e.referenceId)).size).toBe(debits.length);
  expect(debits.every((e) => e.deltaDeci === -priceDeci)).toBe(true);
  expect(unpaidRefunds.every((e) => e.deltaDeci === priceDeci)).toBe(true);
  const givenUp = outcomes.filter((o) => o.kind === 'answered' && o.status === 503).length;
  expect(unpaidRefunds.length).toBeLessThanOrEqual(givenUp);
  // the balance covered `fundedDeci / priceDeci` orders: exactly that many were paid, unless money
  // was held a moment by given-up orders (then never more)
  if (givenUp === 0) expect(settled.paid.length).toBe(Math.min(fundedDeci / priceDeci, known.size));
  else expect(settled.paid.length).toBeLessThanOrEqual(Math.min(fundedDeci / priceDeci, known.size));
  const check = await ledgerCheck();
  expect(check.code, check.output).toBe(0);
  // And the cross-service reconciliation: every debit has its order, every refund its debit, …
  const reconciled = await reconcile({ url: infra.mongo.url, readPreference: 'primary' });
  expect(reconciled.total, formatReport(reconciled).join('\n')).toBe(0);
  return { paid: settled.paid.length, rejected: settled.rejected.length, givenUp, unknown: outcomes.filter((o) => o.kind === 'unknown').length };
}

describe('SIGKILL mid-burst, then restart', () => {
  it('wallet killed: every order ends paid or rejected, none lost, none charged twice', async () => {
    // 10 units at 25 won = 250 won per order; 25,000 won pays for exactly 100 of them
    const userId = await setUpMember(reach, 901, 250, 25_000);
    const outcomes = await burst(userId, 901, BURST, Math.floor(BURST / 4), async () => {
      await sigkill('wallet');
      await start('wallet');
    });
    const result = await verify(userId, 2500, 250_000, outcomes);
    console.log(`wallet SIGKILL: ${JSON.stringify(result)}`);
  }, 240_000);

  it('order service killed: every order ends paid or rejected, none lost, none charged twice', async () => {
    const userId = await setUpMember(reach, 902, 250, 25_000);
    const outcomes = await burst(userId, 902, BURST, Math.floor(BURST / 3), async () => {
      await sigkill('order');
      await start('order');
    });
    const result = await verify(userId, 2500, 250_000, outcomes);
    console.log(`order SIGKILL: ${JSON.stringify(result)}`);
  }, 300_000);
});
