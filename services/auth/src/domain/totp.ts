import { createHmac, randomBytes } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as every authenticator app
 * (Google Authenticator, Microsoft Authenticator, 1Password) reads an `otpauth://` address:
 * HMAC-SHA1, 30-second steps, 6 digits. Written on node:crypto rather than taken from a library:
 * the algorithm is twenty lines and fixed by the RFCs, and the test checks it against RFC 6238's
 * own vectors and an independent computation.
 */
export const totpStepSeconds = 30;
export const totpDigits = 6;
/** Steps either side of now a code is accepted in: a phone's clock a little off, a code typed as it turns. */
export const totpWindow = 1;

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 §5.3: HOTP of one counter value, `digits` long. */
export function hotp(secret: Uint8Array, counter: number, digits = totpDigits): string {
  const message = Buffer.alloc(8);
  message.writeUInt32BE(Math.floor(counter / 2 ** 32), 0);
  message.writeUInt32BE(counter >>> 0, 4);
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 30-second step a moment falls in (RFC 6238's T). */
export const totpStep = (nowMs: number): number => Math.floor(nowMs / 1000 / totpStepSeconds);

/**
 * The step whose code `code` is, within the window around `nowMs`, or null. Every candidate is
 * compared (no early exit on a match), so the answer's timing does not say which step matched.
 */
export function matchingStep(secret: Uint8Array, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(nowMs);
  let found: number | null = null;
  for (let step = now - totpWindow; step <= now + totpWindow; step += 1) {
    if (hotp(secret, step) === code && found === null) found = step;
  }
  return found;
}

/** A new secret: 160 bits, RFC 4226's recommended length for HMAC-SHA1. */
export const newTotpSecret = (): Buffer => randomBytes(20);

/** The address an authenticator app reads (as a QR code or typed): `otpauth://totp/<issuer>:<account>?…`. */
export function otpauthUri(issuer: string, account: string, secretBase32: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const query = new URLSearchParams({ secret: secretBase32, issuer, algorithm: 'SHA1', digits: String(totpDigits), period: String(totpStepSeconds) });
  return `otpauth://totp/${label}?${query.toString()}`;
}

/** Codes typed with spaces or a hyphen ("123 456") read as the six digits. */
export const normaliseCode = (code: string): string => code.replace(/[\s-]/g, '');
