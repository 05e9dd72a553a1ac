import { describe, expect, it } from 'vitest';
import { classifyAdd } from './add-outcome.ts';
import { compareDecimal, decimalText, parseDecimal } from './decimal.ts';
import { backoffMs, canMove } from './forward-state.ts';
import { priceFor, unitCostDeci } from './price-rule.ts';
import { nextStatus, ourStatus } from './provider-status.ts';

describe('provider amounts', () => {
  it('parse exactly and compare', () => {
    expect(parseDecimal('0.90')).toEqual({ units: 90n, scale: 2 });
    expect(parseDecimal(1.5)).toEqual({ units: 15n, scale: 1 });
    expect(parseDecimal('1e3')).toBeUndefined();
    expect(parseDecimal('')).toBeUndefined();
    expect(decimalText(parseDecimal('-0.05')!)).toBe('-0.05');
    expect(compareDecimal(parseDecimal('99.99')!, parseDecimal('100')!)).toBe(-1);
    expect(compareDecimal(parseDecimal('100.0')!, parseDecimal('100')!)).toBe(0);
  });
});

describe('price rules', () => {
  it('round the unit cost up, so a price built on it is never below cost', () => {
    expect(unitCostDeci(parseDecimal('1.50')!, 13_500)).toBe(21); // 20.25 → 21
    expect(unitCostDeci(parseDecimal('1000')!, 10)).toBe(10); // 1 won a unit, exactly
    expect(unitCostDeci(parseDecimal('0.001')!, 10)).toBe(1);
  });
  it('markup rounds up; a fixed price under cost needs the override', () => {
    expect(priceFor({ kind: 'markup', percent: 50 }, 21, false)).toEqual({ ok: true, unitPriceDeci: 32 });
    expect(priceFor({ kind: 'markup', percent: 0 }, 0, false)).toEqual({ ok: true, unitPriceDeci: 1 });
    expect(priceFor({ kind: 'fixed', unitPriceDeci: 20 }, 21, false)).toEqual({ ok: false, code: 'BELOW_COST', unitPriceDeci: 20, costDeci: 21 });
    expect(priceFor({ kind: 'fixed', unitPriceDeci: 20 }, 21, true)).toEqual({ ok: true, unitPriceDeci: 20 });
  });
});

describe('add answers', () => {
  it('are classified into retry, refusal, review', () => {
    expect(classifyAdd({ kind: 'order', providerOrderId: '5' })).toEqual({ kind: 'accepted', providerOrderId: '5' });
    expect(classifyAdd({ kind: 'error', message: 'Not enough funds on balance' }).kind).toBe('retry-funds');
    expect(classifyAdd({ kind: 'error', message: 'Incorrect link' }).kind).toBe('refused');
    expect(classifyAdd({ kind: 'error', message: 'Quantity less than minimal 100' }).kind).toBe('refused');
    expect(classifyAdd({ kind: 'error', message: 'Service disabled' }).kind).toBe('provider-error');
    // A subscription's or typed order's own fields, as this product's API v2 words their refusals.
    for (const message of ['Incorrect posts: 1 to 1000 whole posts', 'Incorrect delay: 0, 5, 10, 15, 30, 60 or 90 minutes', 'Incorrect expiry: today up to a year ahead', 'Incorrect comments: one comment per line, 300 characters at most', 'Min must not be greater than max']) {
      expect(classifyAdd({ kind: 'error', message }).kind, message).toBe('refused');
    }
    expect(classifyAdd({ kind: 'fault', reached: false, detail: 'ECONNREFUSED' }).kind).toBe('retry-unreached');
    expect(classifyAdd({ kind: 'fault', reached: true, detail: 'timeout' }).kind).toBe('unknown');
  });
  it('move records only along the state machine, with bounded backoff', () => {
    expect(canMove('queued', 'claimed')).toBe(true);
    expect(canMove('sent', 'queued')).toBe(true);
    expect(canMove('queued', 'sent')).toBe(false);
    // An unknown outcome is queued again (same reference) only at providers that honour Idempotency-Key; never accepted unseen.
    expect(canMove('unknown', 'queued')).toBe(true);
    expect(canMove('unknown', 'accepted')).toBe(false);
    expect(canMove('claimed', 'accepted')).toBe(false);
    expect([1, 2, 3].map((n) => backoffMs(n))).toEqual([5000, 10_000, 20_000]);
    expect(backoffMs(40)).toBe(600_000);
  });
});

describe('provider statuses', () => {
  it('map the API v2 names to ours', () => {
    expect(['Pending', 'In progress', 'Processing', 'Completed', 'Partial', 'Canceled', 'cancelled'].map(ourStatus)).toEqual([0, 1, 4, 2, 3, 5, 5]);
    expect(ourStatus('Refunded')).toBeUndefined();
  });
  it('only move forward: final stays, back to pending is ignored, remains bounded', () => {
    const open = { status: 1, startCount: 10, remains: 50 };
    expect(nextStatus(open, { status: 0, startCount: 10, remains: 100 }, 100)).toBeNull();
    expect(nextStatus({ status: 2, startCount: 10, remains: 0 }, { status: 1, startCount: 10, remains: 30 }, 100)).toBeNull();
    expect(nextStatus(open, { status: 3, startCount: 10, remains: 500 }, 100)).toEqual({ status: 3, startCount: 10, remains: 100 });
    expect(nextStatus(open, { status: 2, startCount: 10, remains: 7 }, 100)).toEqual({ status: 2, startCount: 10, remains: 0 });
    expect(nextStatus(open, { status: 1, startCount: 10, remains: 50 }, 100)).toBeNull();
    expect(nextStatus({ status: 0, startCount: null, remains: 100 }, { status: 2, startCount: 3, remains: 0 }, 100)).toEqual({ status: 2, startCount: 3, remains: 0 });
  });
});
