import { describe, expect, it } from 'vitest';
import { cancelAutoOrder, placeRun } from './auto-order.ts';
import { linkUrl } from './link.ts';
import { changeStatus } from './order-status.ts';
import { decidePayment } from './payment.ts';
import { checkOrder, toNumber } from './place-order-rules.ts';
import type { Product } from './product.ts';

const product: Product = { serviceId: 1, text: 's', platformId: 1, categoryId: 1, min: 10, max: 100, unitPriceDeci: 25, enableAuto: true, isReadOnly: false, visible: true };

describe('checkOrder', () => {
  it('prices one-off and auto orders exactly (unit × amount × max(runs, 1))', () => {
    const one = checkOrder({ serviceId: 1, link: 'a', amount: '33' }, product, false);
    expect(one).toMatchObject({ ok: true, order: { kind: 'order', amount: 33, runs: 0, interval: 0, perRunDeci: 825, chargeDeci: 825 } });
    const auto = checkOrder({ serviceId: 1, link: 'a', amount: 33, runs: 3, interval: 60 }, product, false);
    expect(auto).toMatchObject({ ok: true, order: { kind: 'auto', runs: 3, interval: 60, perRunDeci: 825, chargeDeci: 2475 } });
  });

  it('charges the unit price the member was shown or places nothing (409 PRICE_CHANGED)', () => {
    expect(checkOrder({ serviceId: 1, link: 'a', amount: 10, unitPriceDeci: 25 }, product, false)).toMatchObject({ ok: true, order: { chargeDeci: 250 } });
    expect(checkOrder({ serviceId: 1, link: 'a', amount: 10, unitPriceDeci: '25' }, product, false)).toMatchObject({ ok: true, order: { chargeDeci: 250 } });
    expect(checkOrder({ serviceId: 1, link: 'a', amount: 10, unitPriceDeci: 28 }, product, false)).toMatchObject({ ok: false, refusal: { kind: 'price-changed', problem: { code: 'PRICE_CHANGED', message: '가격이 변경되었습니다. 확인 후 다시 주문해 주세요.' } } });
    for (const unitPriceDeci of [-1, 2.5, 'x', '', true]) {
      expect(checkOrder({ serviceId: 1, link: 'a', amount: 10, unitPriceDeci }, product, false), JSON.stringify(unitPriceDeci)).toMatchObject({ ok: false, refusal: { kind: 'invalid', problem: { code: 'PRICE_INVALID' } } });
    }
    // Field mistakes are the member's to fix first; absent or null: the replica's price (API callers).
    expect(checkOrder({ serviceId: 1, link: '', amount: 10, unitPriceDeci: 28 }, product, false)).toMatchObject({ ok: false, refusal: { problem: { code: 'LINK_REQUIRED' } } });
    expect(checkOrder({ serviceId: 1, link: 'a', amount: 10, unitPriceDeci: null }, product, false)).toMatchObject({ ok: true, order: { chargeDeci: 250 } });
  });

  it('checks the link before the amount and the amount before auto fields', () => {
    expect(checkOrder({ link: '', amount: 1, runs: 1 }, product, false)).toMatchObject({ ok: false, refusal: { problem: { code: 'LINK_REQUIRED' } } });
    expect(checkOrder({ link: 'a', amount: 1, runs: 1 }, product, false)).toMatchObject({ ok: false, refusal: { problem: { code: 'AMOUNT_BELOW_MIN' } } });
    expect(checkOrder({ link: 'a', amount: 10, runs: 'x' }, product, false)).toMatchObject({ ok: false, refusal: { problem: { code: 'RUNS_TOO_FEW' } } });
  });

  it('reads decimal numbers only: "0x10", "1e2" or " " are not amounts', () => {
    for (const amount of ['0x10', '1e2', ' ', '', '0b1010', '16 units']) {
      expect(checkOrder({ link: 'a', amount }, product, false), amount).toMatchObject({ ok: false, refusal: { problem: { code: 'AMOUNT_INVALID' } } });
    }
    expect(toNumber(' 16 ')).toBe(16);
    expect(toNumber('0x10')).toBeNaN();
  });

  it('refuses a present but invalid auto field instead of making a one-off order', () => {
    for (const runs of [-1, '', ' ', '-1', 'x']) {
      expect(checkOrder({ link: 'a', amount: 10, runs, interval: 60 }, product, false), JSON.stringify(runs)).toMatchObject({ ok: false, refusal: { problem: { code: 'RUNS_TOO_FEW' } } });
    }
    for (const interval of [-1, '', ' ']) {
      expect(checkOrder({ link: 'a', amount: 10, runs: 2, interval }, product, false), JSON.stringify(interval)).toMatchObject({ ok: false, refusal: { problem: { code: 'INTERVAL_TOO_SHORT' } } });
    }
    expect(checkOrder({ link: 'a', amount: 10, interval: -1 }, product, false)).toMatchObject({ ok: false });
    expect(checkOrder({ link: 'a', amount: 10, runs: 0, interval: 0 }, product, false)).toMatchObject({ ok: true, order: { kind: 'order' } });
    expect(checkOrder({ link: 'a', amount: 10, runs: null }, product, false)).toMatchObject({ ok: true, order: { kind: 'order' } });
  });

  it('refuses auto orders past the ceilings: more than 1,000 runs, more than 43,200 minutes between runs', () => {
    const code = (runs: unknown, interval: unknown) => {
      const verdict = checkOrder({ link: 'a', amount: 10, runs, interval }, product, false);
      return verdict.ok ? 'ok' : verdict.refusal.problem.code;
    };
    expect(code(1001, 60)).toBe('RUNS_TOO_MANY');
    expect(code(2, 1e9)).toBe('INTERVAL_TOO_LONG');
    expect(code(2, '43201')).toBe('INTERVAL_TOO_LONG');
    expect(code(1000, 43_200)).toBe('ok');
  });
});

describe('guarded transitions', () => {
  it('settle a payment only while awaiting, for that member and amount', () => {
    const awaiting = { payment: 'awaiting' as const, userId: 'u', chargeDeci: 10, refundedDeci: 0 };
    expect(decidePayment(awaiting, { outcome: 'paid', userId: 'u', amountDeci: 10 })).toEqual({ kind: 'settle', to: 'paid' });
    expect(decidePayment({ ...awaiting, payment: 'paid' }, { outcome: 'rejected', userId: 'u', amountDeci: 10 }).kind).toBe('ignore');
    expect(decidePayment(awaiting, { outcome: 'paid', userId: 'v', amountDeci: 10 }).kind).toBe('ignore');
    expect(decidePayment(awaiting, { outcome: 'paid', userId: 'u', amountDeci: 11 }).kind).toBe('ignore');
    expect(decidePayment(undefined, { outcome: 'paid', userId: 'u', amountDeci: 10 }).kind).toBe('ignore');
  });

  it('refund a debit that arrives after the order was given up, once', () => {
    const givenUp = { payment: 'rejected' as const, abandoned: true, userId: 'u', chargeDeci: 10, refundedDeci: 0 };
    expect(decidePayment(givenUp, { outcome: 'paid', userId: 'u', amountDeci: 10 })).toEqual({ kind: 'refund-unpaid', amountDeci: 10 });
    expect(decidePayment({ ...givenUp, refundedDeci: 10 }, { outcome: 'paid', userId: 'u', amountDeci: 10 }).kind).toBe('ignore');
    expect(decidePayment(givenUp, { outcome: 'rejected', userId: 'u', amountDeci: 10 }).kind).toBe('ignore');
    expect(decidePayment({ ...givenUp, abandoned: false }, { outcome: 'paid', userId: 'u', amountDeci: 10 }).kind).toBe('ignore');
    expect(decidePayment(givenUp, { outcome: 'paid', userId: 'u', amountDeci: 9 }).kind).toBe('ignore');
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
