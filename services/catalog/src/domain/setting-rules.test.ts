import { describe, expect, it } from 'vitest';
import { allSettingKeys, settingKeys } from '@smm/contracts';
import { normalizeSetting, settingRank } from './setting-rules.ts';

describe('setting rules', () => {
  it('stores flags as "true"/"false" whichever way they were sent', () => {
    expect(normalizeSetting(settingKeys.enableReferral, true)).toEqual({ ok: true, key: 'ENABLE_REFERRAL', value: 'true' });
    expect(normalizeSetting(settingKeys.enableReferral, ' FALSE ')).toEqual({ ok: true, key: 'ENABLE_REFERRAL', value: 'false' });
  });

  it('refuses a flag that is neither true nor false', () => {
    for (const value of ['yes', '1', 1, '', null]) {
      expect(normalizeSetting(settingKeys.enableQna, value)).toMatchObject({ ok: false, problem: { code: 'INVALID_SETTING_VALUE' } });
    }
  });

  it('keeps the referral rate a whole percent from 0 to 50', () => {
    expect(normalizeSetting(settingKeys.referralRatePercent, ' 7 ')).toEqual({ ok: true, key: 'REFERRAL_RATE_PERCENT', value: '7' });
    expect(normalizeSetting(settingKeys.referralRatePercent, 0)).toEqual({ ok: true, key: 'REFERRAL_RATE_PERCENT', value: '0' });
    for (const value of ['51', '5.5', '-1', '', 'five', null, 12.5]) {
      expect(normalizeSetting(settingKeys.referralRatePercent, value)).toMatchObject({ ok: false, problem: { code: 'INVALID_SETTING_VALUE', message: expect.stringContaining('0~50') } });
    }
  });

  it('keeps the issue 39 limits whole numbers within their bounds', () => {
    expect(normalizeSetting(settingKeys.staffApprovalLimitWon, ' 500000 ')).toEqual({ ok: true, key: 'STAFF_APPROVAL_LIMIT_WON', value: '500000' });
    expect(normalizeSetting(settingKeys.topUpOpenLimit, 3)).toEqual({ ok: true, key: 'TOP_UP_OPEN_LIMIT', value: '3' });
    for (const value of ['0', '51', '1.5', '', 'one', null]) {
      expect(normalizeSetting(settingKeys.topUpOpenLimit, value)).toMatchObject({ ok: false, problem: { code: 'INVALID_SETTING_VALUE', message: expect.stringContaining('1~50') } });
    }
    expect(normalizeSetting(settingKeys.topUpHourlyLimit, '101')).toMatchObject({ ok: false });
  });

  it('refuses unknown keys', () => {
    expect(normalizeSetting('SITE_THEME', 'dark')).toMatchObject({ ok: false, problem: { code: 'UNKNOWN_SETTING' } });
  });

  it('checks colours, links and bank codes but lets them be cleared', () => {
    expect(normalizeSetting(settingKeys.mainColor, '#4F46E5')).toMatchObject({ ok: true, value: '#4F46E5' });
    expect(normalizeSetting(settingKeys.mainColor, 'blue')).toMatchObject({ ok: false });
    expect(normalizeSetting(settingKeys.chatChannelLink, 'pf.kakao.com/x')).toMatchObject({ ok: false });
    expect(normalizeSetting(settingKeys.chatChannelLink, 'https://pf.kakao.com/_x')).toMatchObject({ ok: true });
    expect(normalizeSetting(settingKeys.bankingBankCode, '4')).toMatchObject({ ok: false });
    expect(normalizeSetting(settingKeys.chatChannelLink, '  ')).toEqual({ ok: true, key: 'CHAT_CHANNEL_LINK', value: '' });
  });

  it('refuses text that is not a string or too long', () => {
    expect(normalizeSetting(settingKeys.footerCompany, 12)).toMatchObject({ ok: false });
    expect(normalizeSetting(settingKeys.footerCompany, 'x'.repeat(2001))).toMatchObject({ ok: false });
  });

  it('ranks keys in the order of spec §3', () => {
    const ranks = allSettingKeys.map(settingRank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(settingRank('NOPE')).toBe(allSettingKeys.length);
  });
});
