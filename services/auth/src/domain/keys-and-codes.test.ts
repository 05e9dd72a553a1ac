import { describe, expect, it } from 'vitest';
import { hashApiKey, looksLikeApiKey, maskApiKey, newApiKey } from './api-key.ts';
import { checkSendCodeShape, newPhoneCode, normalizePhoneNumber } from './phone.ts';
import { REFERRAL_CODE_LENGTH, newReferralCode, referralIssueRefusal } from './referral-code.ts';

describe('API keys', () => {
  it('are random, recognisable, and stored only as a hash that the key reproduces', () => {
    const a = newApiKey();
    const b = newApiKey();
    expect(a.key).not.toBe(b.key);
    expect(looksLikeApiKey(a.key)).toBe(true);
    expect(a.key.startsWith(a.prefix)).toBe(true);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).not.toContain(a.key.slice(4));
    expect(maskApiKey(a.prefix)).not.toContain(a.key.slice(a.prefix.length, a.prefix.length + 4));
    expect(looksLikeApiKey('smm_short')).toBe(false);
  });
});

describe('phone numbers and codes', () => {
  it('accepts 11 digits starting with 01, with or without hyphens', () => {
    expect(normalizePhoneNumber('01012345678')).toEqual({ ok: true, value: '01012345678' });
    expect(normalizePhoneNumber('010-1234-5678')).toEqual({ ok: true, value: '01012345678' });
    for (const bad of ['0101234567', '010123456789', '0201234567a', '21012345678', '', 12345678901]) {
      expect(normalizePhoneNumber(bad).ok).toBe(false);
    }
  });

  it('makes 5-digit codes, keeping leading zeros', () => {
    for (let i = 0; i < 200; i++) expect(newPhoneCode()).toMatch(/^\d{5}$/);
  });

  it('wants a code that was sent and is exactly 5 characters', () => {
    expect(checkSendCodeShape(undefined)).toMatchObject({ ok: false, violation: { code: 'SEND_CODE_REQUIRED' } });
    expect(checkSendCodeShape('1234')).toMatchObject({ ok: false, violation: { code: 'SEND_CODE_LENGTH' } });
    expect(checkSendCodeShape(' 01234 ')).toEqual({ ok: true, value: '01234' });
  });
});

describe('referral codes', () => {
  it('avoid look-alike characters', () => {
    for (let i = 0; i < 100; i++) expect(newReferralCode()).toMatch(new RegExp(`^[A-HJ-KM-NP-Z2-9]{${REFERRAL_CODE_LENGTH}}$`));
  });

  it('are issued only with the setting on and no code yet (spec §6)', () => {
    expect(referralIssueRefusal(false, null)).toBe('disabled');
    expect(referralIssueRefusal(true, 'ABCD2345')).toBe('exists');
    expect(referralIssueRefusal(false, 'ABCD2345')).toBe('disabled');
    expect(referralIssueRefusal(true, undefined)).toBeNull();
  });
});
