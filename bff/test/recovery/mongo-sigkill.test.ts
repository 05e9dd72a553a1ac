import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { type Lab, json, ledgerOf, ordersOf, reconcileLab, setUpMember, startLab } from './crash-kit.ts';

/**
 * SIGKILL of the embedded MongoDB alone (the server every service's database lives on), three
 * times in the middle of a burst of orders, restarted each time on the same data directory. The
 * wallet and the order service keep running and reconnect. Afterwards the two databases must
 * agree: every debit belongs to an order the order database holds (same member, same amount),
 * every order ended with its payment outcome (paid ↔ debited, rejected ↔ not charged or refunded),
 * and no caller was told "포인트가 부족합니다" (402) while the balance covered the order.
 */
let lab: Lab;
/** Orders per burst (RECOVERY_MONGO_BURST); MongoDB is killed after a quarter, a half and three quarters were answered. */
const BURST = Number(process.env.RECOVERY_MONGO_BURST ?? 240);
const KILLS = 3;

beforeAll(async () => {
  lab = await startLab();
}, 120_000);

afterAll(async () => {
  await lab?.stop();
}, 60_000);

type Outcome = { status: number; id?: number; code?: string } | { status: 'cut' };

async function burst(userId: string, serviceId: number, total: number, kill: (n: number) => Promise<void>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  let answered = 0;
  const killAt = new Set(Array.from({ length: KILLS }, (_, k) => Math.floor(((k + 1) * total) / (KILLS + 1))));
  let kills = Promise.resolve();
  let killed = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        const i = next++;
        try {
          const res = await fetch(lab.url('order', '/orders?waitMs=3000'), { method: 'POST', headers: lab.as('order', userId), body: JSON.stringify({ serviceId, link: `https://x.example/${i}`, amount: 10 }), signal: AbortSignal.timeout(30_000) });
          const body = await json(res);
          const id = (body.order as { id?: number } | undefined)?.id ?? (body.orderId as number | undefined);
          outcomes.push({ status: res.status, ...(id !== undefined ? { id } : {}), ...(typeof body.code === 'string' ? { code: body.code } : {}) });
        } catch {
          outcomes.push({ status: 'cut' });
        }
        answered++;
        if (killAt.has(answered)) {
          const n = ++killed;
          kills = kills.then(() => kill(n));
        }
      }
    }),
  );
  await kills;
  return outcomes;
}

describe('embedded MongoDB SIGKILLed three times mid-burst', () => {
  it('no debit without its order, no order without its payment outcome, no false 402', async () => {
    // 10 units at 25 won = 2,500 deci-won an order; the member can pay for every order of the burst twice over
    const priceDeci = 2500;
    const fundedWon = (BURST * 2 * priceDeci) / 10;
    const userId = await setUpMember(lab, 931, 250, fundedWon);
    const outcomes = await burst(userId, 931, BURST, async () => {
      await lab.sigkill('mongo');
      await lab.start('mongo');
    });

    const settled = await eventually(
      async () => ({ awaiting: await ordersOf(lab, userId, 'awaiting'), paid: await ordersOf(lab, userId, 'paid'), rejected: await ordersOf(lab, userId, 'rejected') }),
      (s) => s.awaiting.length === 0,
      60_000,
    );
    const orders = new Map([...settled.paid, ...settled.rejected].map((o) => [`order-${o.id}`, o]));
    // The ledger settles: nothing in flight (a debit for a given-up order is refunded once it lands).
    const entries = await eventually(
      async () => ({ ledger: await ledgerOf(lab, userId), balance: (await json(await fetch(lab.url('wallet', `/accounts/${userId}`), { headers: lab.as('wallet', userId) }))).pointDeci }),
      (s) => s.balance === fundedWon * 10 - settled.paid.length * priceDeci,
      30_000,
    ).catch(async () => ({ ledger: await ledgerOf(lab, userId), balance: undefined }));
    const debits = entries.ledger.filter((e) => e.deltaDeci < 0);
    const refunded = new Set(entries.ledger.filter((e) => e.referenceId.endsWith('-unpaid')).map((e) => e.referenceId.replace(/-unpaid$/, '')));

    // every debit has its order, the member's, for the amount charged
    const phantom = debits.filter((d) => !orders.has(d.referenceId)).map((d) => d.referenceId);
    expect(phantom, 'debits for orders the order database does not hold').toEqual([]);
    expect(debits.filter((d) => d.deltaDeci !== -priceDeci || orders.get(d.referenceId)?.pointDeci !== priceDeci)).toEqual([]);
    // every order has its payment outcome: paid ↔ debited (and not refunded as unpaid); rejected ↔ not charged, or refunded
    const debited = new Set(debits.map((d) => d.referenceId));
    const paidUncharged = settled.paid.filter((o) => !debited.has(`order-${o.id}`) || refunded.has(`order-${o.id}`)).map((o) => o.id);
    expect(paidUncharged, 'paid orders without their debit').toEqual([]);
    const rejectedCharged = settled.rejected.filter((o) => debited.has(`order-${o.id}`) && !refunded.has(`order-${o.id}`)).map((o) => o.id);
    expect(rejectedCharged, 'rejected orders still charged').toEqual([]);
    expect(entries.balance, 'balance = funded - paid orders').toBe(fundedWon * 10 - settled.paid.length * priceDeci);
    // what the callers were told is what happened: 201 ↔ paid; never 402 (the balance covers every order)
    const paidIds = new Set(settled.paid.map((o) => o.id));
    const told402 = outcomes.filter((o) => o.status === 402);
    expect(told402, 'told 포인트가 부족합니다 while the balance covered the order').toEqual([]);
    const acceptedLost = outcomes.filter((o) => o.status === 201 && !paidIds.has(o.id!));
    expect(acceptedLost, 'told paid, but the order is not paid').toEqual([]);
    const chargedBehindError = outcomes.filter((o) => o.status !== 201 && o.status !== 'cut' && o.id !== undefined && paidIds.has(o.id));
    expect(chargedBehindError, 'told not placed, but paid').toEqual([]);

    // and the cross-service check finds nothing unpaired
    const reconciled = await reconcileLab(lab);
    expect(reconciled.total, reconciled.report).toBe(0);
    const by = (s: Outcome['status']) => outcomes.filter((o) => o.status === s).length;
    console.log(`mongo SIGKILL x${KILLS}: ${JSON.stringify({ burst: BURST, paid: settled.paid.length, rejected: settled.rejected.length, debits: debits.length, refunds: refunded.size, '201': by(201), '402': by(402), '503': by(503), '500': by(500), cut: by('cut') })}`);
  }, 240_000);
});
