import { describe, expect, it } from 'vitest';
import { checkDepositSignature, signDeposit } from './deposit-signature.ts';

const secret = 'a-test-secret-that-is-long-enough-1234';
const body = Buffer.from('{"transactionId":"T-1","depositorName":"홍길동","amount":11000}');
const now = 1_800_000_000;
const check = (timestamp: string | undefined, signature: string | undefined, raw: Buffer | undefined = body, at = now) =>
  checkDepositSignature(secret, { timestamp, signature }, raw, at, 300);

describe('checkDepositSignature', () => {
  it('accepts the signature of the exact bytes and timestamp (hex in any letter case)', () => {
    const signature = signDeposit(secret, String(now), body);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(check(String(now), signature)).toBe('ok');
    expect(check(String(now), signature.toUpperCase().replace('SHA256', 'sha256'))).toBe('ok');
    expect(check(String(now - 299), signDeposit(secret, String(now - 299), body))).toBe('ok');
  });

  it('refuses another body, another timestamp, another secret', () => {
    const signature = signDeposit(secret, String(now), body);
    expect(check(String(now), signature, Buffer.from(body.toString().replace('11000', '110000')))).toBe('mismatch');
    expect(check(String(now + 1), signature)).toBe('mismatch');
    expect(check(String(now), signDeposit(`${secret}x`, String(now), body))).toBe('mismatch');
    expect(check(String(now), 'sha256=00')).toBe('mismatch');
  });

  it('refuses a timestamp outside the window (a replay) or not a number', () => {
    const old = String(now - 301);
    expect(check(old, signDeposit(secret, old, body))).toBe('stale');
    const future = String(now + 301);
    expect(check(future, signDeposit(secret, future, body))).toBe('stale');
    expect(check('12a', 'sha256=00')).toBe('stale');
  });

  it('reports missing headers or body', () => {
    expect(check(undefined, 'sha256=00')).toBe('missing');
    expect(check(String(now), undefined)).toBe('missing');
    expect(checkDepositSignature(secret, { timestamp: String(now), signature: 'sha256=00' }, undefined, now, 300)).toBe('missing');
  });
});
