import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The bank-transfer notification's signature (bff/API.md): `x-deposit-signature: sha256=<hex>`
 * of HMAC-SHA256(secret, `<x-deposit-timestamp>.<raw body>`), the timestamp in Unix seconds.
 * Signing the timestamp with the body and refusing old timestamps keeps a captured request from
 * being replayed later; the bank's transaction id makes a replay inside the window harmless.
 */
export type SignatureCheck = 'ok' | 'missing' | 'stale' | 'mismatch';

export function signDeposit(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}

export function checkDepositSignature(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: Buffer | undefined,
  nowSeconds: number,
  windowSeconds: number,
): SignatureCheck {
  const { timestamp, signature } = headers;
  if (timestamp === undefined || signature === undefined || rawBody === undefined) return 'missing';
  if (!/^\d{1,12}$/.test(timestamp)) return 'stale';
  if (Math.abs(nowSeconds - Number(timestamp)) > windowSeconds) return 'stale';
  const expected = Buffer.from(signDeposit(secret, timestamp, rawBody));
  const given = Buffer.from(signature.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'mismatch';
}
