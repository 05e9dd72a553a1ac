import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, testServiceSecret } from '@smm/testkit';
import { placeOrder } from '../../src/http/reseller-routes.ts';
import { type CallContext, ServiceClient } from '../../src/upstream/service-client.ts';
import { type Lab, ledgerOf, ordersOf, reconcileLab, setUpMember, startLab } from './crash-kit.ts';

/**
 * Issue 39 §7: the BFF's placement (the function the web route, /api/order and /api/v2 add share)
 * against a real order service that is SIGKILLed mid-burst, and against a MongoDB SIGKILLed
 * mid-burst. A caller is never charged behind an error: every order that ends paid was answered
 * 201 with its id, every other answer is a definite refusal or a 503 (never a 500), and after a
 * lost call the BFF asks the order service by the placement id it chose and answers the truth.
 */
let lab: Lab;
let order: ServiceClient;
const BURST = Number(process.env.RECOVERY_PLACEMENT_BURST ?? 160);
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  lab = await startLab();
  order = new ServiceClient('order', `http://127.0.0.1:${lab.ports.order}`, 10_000, { secret: testServiceSecret, from: 'bff' });
}, 120_000);

afterAll(async () => {
  await lab?.stop();
}, 60_000);

type Answer = { status: number; orderId?: number; code?: string };

/** `total` placements through the BFF's placeOrder, 16 at a time; `kill` once a third were answered. */
async function burst(userId: string, serviceId: number, total: number, kill: () => Promise<void>): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  let killing: Promise<void> | undefined;
  const ctx = (): CallContext => ({ requestId: randomUUID(), correlationId: randomUUID(), clientIp: null, caller: { userId, loginId: userId, role: 'member' }, log: silent });
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        const i = next++;
        try {
          const placed = await placeOrder(order, ctx(), { serviceId, link: `https://x.example/${i}`, amount: 10 }, 'api', 2000);
          const code = (placed.body as { code?: string } | null)?.code;
          answers.push({ status: placed.status, ...(placed.orderId !== undefined ? { orderId: placed.orderId } : {}), ...(code ? { code } : {}) });
        } catch (error) {
          answers.push({ status: (error as { status?: number }).status ?? 500, code: (error as { code?: string }).code ?? String(error) });
        }
        if (answers.length === Math.floor(total / 3)) killing = kill();
      }
    }),
  );
  await killing;
  return answers;
}

async function verify(userId: string, answers: Answer[]) {
  const settled = await eventually(
    async () => ({ awaiting: await ordersOf(lab, userId, 'awaiting'), paid: await ordersOf(lab, userId, 'paid'), rejected: await ordersOf(lab, userId, 'rejected') }),
    (s) => s.awaiting.length === 0,
    60_000,
  );
  const told = new Set(answers.flatMap((a) => (a.status === 201 ? [a.orderId!] : [])));
  // no order paid behind an error: the paid orders are exactly those answered 201
  expect(settled.paid.map((o) => o.id).filter((id) => !told.has(id)), 'paid, but the caller was not told so').toEqual([]);
  expect([...told].filter((id) => !settled.paid.some((o) => o.id === id)), 'told paid, but not paid').toEqual([]);
  // temporary failures are 503, never 500; the member's balance covers everything, so no 402
  expect(answers.filter((a) => a.status >= 500 && a.status !== 503), 'answers other than 503 among the errors').toEqual([]);
  expect(answers.filter((a) => a.status === 402)).toEqual([]);
  // the ledger agrees: one debit per paid order, and every other debit refunded
  const paidRefs = settled.paid.map((o) => `order-${o.id}`).sort();
  const charged = await eventually(
    async () => {
      const entries = await ledgerOf(lab, userId);
      const refunded = new Set(entries.filter((e) => e.referenceId.endsWith('-unpaid')).map((e) => e.referenceId.replace(/-unpaid$/, '')));
      return entries.filter((e) => e.deltaDeci < 0 && !refunded.has(e.referenceId)).map((e) => e.referenceId).sort();
    },
    (refs) => refs.join() === paidRefs.join(),
    30_000,
  ).catch((error: unknown) => String(error));
  expect(charged).toEqual(paidRefs);
  // and the cross-service check finds nothing unpaired
  const reconciled = await reconcileLab(lab);
  expect(reconciled.total, reconciled.report).toBe(0);
  const by = (s: number) => answers.filter((a) => a.status === s).length;
  return { placements: answers.length, paid: settled.paid.length, rejected: settled.rejected.length, '201': by(201), '503': by(503), other: answers.length - by(201) - by(503) };
}

describe('placements through the BFF while a process dies', () => {
  it('order service SIGKILLed mid-burst: nobody is charged behind a 503, none sees a 500', async () => {
    const userId = await setUpMember(lab, 941, 250, BURST * 500);
    const answers = await burst(userId, 941, BURST, async () => {
      await lab.sigkill('order');
      await lab.start('order');
    });
    console.log(`order SIGKILL through the BFF: ${JSON.stringify(await verify(userId, answers))}`);
  }, 240_000);

  it('MongoDB SIGKILLed mid-burst: nobody is charged behind a 503, none sees a 500', async () => {
    const userId = await setUpMember(lab, 942, 250, BURST * 500);
    const answers = await burst(userId, 942, BURST, async () => {
      await lab.sigkill('mongo');
      await lab.start('mongo');
    });
    console.log(`mongo SIGKILL through the BFF: ${JSON.stringify(await verify(userId, answers))}`);
  }, 240_000);
});
