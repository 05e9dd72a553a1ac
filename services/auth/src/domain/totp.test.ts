import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchingStep, otpauthUri, totpStep } from './totp.ts';

// RFC 6238 Appendix B, SHA-1 rows: the ASCII secret "12345678901234567890", 8 digits.
const rfcSecret = Buffer.from('12345678901234567890', 'ascii');
const rfcVectors: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(rfcVectors)('at %i s the code is %s', (seconds, code) => {
    expect(hotp(rfcSecret, totpStep(seconds * 1000), 8)).toBe(code);
  });

  it('RFC 4226 Appendix D: HOTP of counters 0 and 9', () => {
    expect(hotp(rfcSecret, 0)).toBe('755224');
    expect(hotp(rfcSecret, 9)).toBe('520489');
  });

  it('base32 round-trips and reads RFC 4648 text', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb-oi').toString()).toBe('foobar');
  });

  it('accepts a code one step either side of now, not two', () => {
    const now = 1_800_000_000_000;
    const step = totpStep(now);
    expect(matchingStep(rfcSecret, hotp(rfcSecret, step), now)).toBe(step);
    expect(matchingStep(rfcSecret, hotp(rfcSecret, step - 1), now)).toBe(step - 1);
    expect(matchingStep(rfcSecret, hotp(rfcSecret, step + 1), now)).toBe(step + 1);
    expect(matchingStep(rfcSecret, hotp(rfcSecret, step + 2), now)).toBeNull();
    expect(matchingStep(rfcSecret, '12345', now)).toBeNull();
  });

  it('writes the otpauth address apps read', () => {
    expect(otpauthUri('그로우패널', 'kim', 'ABC')).toBe(
      'otpauth://totp/%EA%B7%B8%EB%A1%9C%EC%9A%B0%ED%8C%A8%EB%84%90%3Akim?secret=ABC&issuer=%EA%B7%B8%EB%A1%9C%EC%9A%B0%ED%8C%A8%EB%84%90&algorithm=SHA1&digits=6&period=30',
    );
  });
});
