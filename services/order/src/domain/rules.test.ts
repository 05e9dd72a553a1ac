import { describe, expect, it } from 'vitest';
import { cancelAutoOrder, placeRun } from './auto-order.ts';
import { linkUrl } from './link.ts';
import { changeStatus } from './order-status.ts';
import { settlePayment } from './payment.ts';
import { checkOrder } from './place-order-rules.ts';
import type { Product } from './product.ts';

const product: Product = { serviceId: 1, text: 's', platformId: 1, categoryId: 1, min: 10, max: 100, unitPriceDeci: 25, enableAuto: true, isReadOnly: false, visible: true };

describe('checkOrder', () => {
  it('prices one-off and auto orders exactly (unit × amount × max(runs, 1))', () => {
    const one = checkOrder({ serviceId: 1, link: 'a', amount: '33' }, product, false);
    expect(one).toMatchObject({ ok: true, order: { kind: 'order', amount: 33, runs: 0, interval: 0, perRunDeci: 825, chargeDeci: 825 } });
    const auto = checkOrder({ serviceId: 1, link: 'a', amount: 33, runs: 3, interval: 60 }, product, false);
    expect(auto).toMatchObject({ ok: true, order: { kind: 'auto', runs: 3, interval: 60, perRunDeci: 825, chargeDeci: 2475 } });
  });

  it('checks the link before the amount and the amount before auto fields', () => {
    expect(checkOrder({ link: '', amount: 1, runs: 1 }, product, false)).toMatchObject({ ok: false, refusal: { problem: { code: 'LINK_REQUIRED' } } });
    expect(checkOrder({ link: 'a', amount: 1, runs: 1 }, product, false)).toMatchObject({ ok: false, refusal: { problem: { code: 'AMOUNT_BELOW_MIN' } } });
    expect(checkOrder({ link: 'a', amount: 10, runs: 'x' }, product, false)).toMatchObject({ ok: false, refusal: { problem: { code: 'RUNS_TOO_FEW' } } });
  });
});

describe('guarded transitions', () => {
  it('settle a payment only while awaiting, for that member and amount', () => {
    const awaiting = { payment: 'awaiting' as const, userId: 'u', chargeDeci: 10 };
    expect(settlePayment(awaiting, { outcome: 'paid', userId: 'u', amountDeci: 10 })).toEqual({ ok: true, from: 'awaiting', to: 'paid' });
    expect(settlePayment({ ...awaiting, payment: 'paid' }, { outcome: 'rejected', userId: 'u', amountDeci: 10 }).ok).toBe(false);
    expect(settlePayment(awaiting, { outcome: 'paid', userId: 'v', amountDeci: 10 }).ok).toBe(false);
    expect(settlePayment(awaiting, { outcome: 'paid', userId: 'u', amountDeci: 11 }).ok).toBe(false);
  });

  it('place runs only in order while active; cancel refunds the unplaced share', () => {
    const auto = { id: 7, status: 0, runs: 3, completed: 1, chargeDeci: 300, perRunDeci: 100, refundedDeci: 0 };
    expect(placeRun(auto, 2)).toMatchObject({ ok: true, completedAfter: 2, finished: false, statusAfter: 0 });
    expect(placeRun({ ...auto, completed: 2 }, 3)).toMatchObject({ ok: true, finished: true, statusAfter: 1 });
    expect(placeRun({ ...auto, completed: 2, refundedDeci: 5 }, 3)).toMatchObject({ ok: true, statusAfter: 3 });
    expect(placeRun(auto, 1).ok).toBe(false);
    expect(placeRun(auto, 3).ok).toBe(false);
    expect(placeRun({ ...auto, status: 2 }, 2).ok).toBe(false);
    expect(cancelAutoOrder(auto)).toEqual({ ok: true, refundDeci: 200, runsDone: 1 });
    expect(cancelAutoOrder({ ...auto, status: 1 }).ok).toBe(false);
  });

  it('refund partial remains at the unit price and canceled in full; final stays final', () => {
    const order = { id: 9, status: 1, amount: 100, unitPriceDeci: 25, chargeDeci: 2500, startCount: null, remains: 100 };
    expect(changeStatus(order, { status: 3, remains: 40 })).toMatchObject({ ok: true, change: { to: 3, remains: 40, refund: { refundId: 'order-9-partial', amountDeci: 1000, reason: 'partial' } } });
    expect(changeStatus(order, { status: 5 })).toMatchObject({ ok: true, change: { remains: 100, refund: { refundId: 'order-9-canceled', amountDeci: 2500 } } });
    expect(changeStatus(order, { status: 2 })).toMatchObject({ ok: true, change: { remains: 0, refund: null } });
    expect(changeStatus({ ...order, status: 2 }, { status: 1 })).toMatchObject({ ok: false, kind: 'final' });
    expect(changeStatus(order, { startCount: -1 })).toMatchObject({ ok: false, problem: { code: 'START_COUNT_INVALID' } });
  });
});

describe('linkUrl', () => {
  it('keeps https links and links profile names per platform', () => {
    expect(linkUrl('https://x.com/a', 6)).toBe('https://x.com/a');
    expect(linkUrl('@someone', 1)).toBe('https://www.instagram.com/someone');
    expect(linkUrl('someone', 3)).toBe('https://www.tiktok.com/@someone');
    expect(linkUrl('someone', 14)).toBeNull();
    expect(linkUrl('someone', 99)).toBeNull();
  });
});
