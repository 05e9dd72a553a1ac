import { z } from 'zod';

/**
 * Every site setting of spec §3, by key. Settings are strings; flags read "true"/"false". The
 * catalog service owns them; other services keep replicas from SettingChanged events.
 */
export const settingKeys = {
  footerCompany: 'FOOTER_COMPANY',
  footerAddress: 'FOOTER_ADDRESS',
  footerCorporationNumber: 'FOOTER_CORPORATION_NUMBER',
  footerMarketingNumber: 'FOOTER_MARKETING_NUMBER',
  footerCeo: 'FOOTER_CEO',
  footerCeoPhone: 'FOOTER_CEO_PHONE',
  bankingName: 'BANKING_NAME',
  bankingDisplayText: 'BANKING_DISPLAY_TEXT',
  bankingAccountNumber: 'BANKING_ACCOUNT_NUMBER',
  bankingBankCode: 'BANKING_BANK_CODE',
  chatChannelLink: 'CHAT_CHANNEL_LINK',
  chatChannelText: 'CHAT_CHANNEL_TEXT',
  mainColor: 'MAIN_COLOR',
  noticeBoldColor: 'NOTICE_BOLD_COLOR',
  enablePaymentFee: 'ENABLE_PAYMENT_FEE',
  enablePaymentType: 'ENABLE_PAYMENT_TYPE',
  enablePhoneVerification: 'ENABLE_PHONE_NUMBER_VERIFICATION',
  enableServiceCheck: 'ENABLE_SERVICE_CHECK',
  enableReferral: 'ENABLE_REFERRAL',
  enableQna: 'ENABLE_QNA',
  enablePriceList: 'ENABLE_PRICE_LIST',
  enableTossPayment: 'ENABLE_TOSS_PAYMENT',
  enableNaverLogin: 'ENABLE_NAVER_LOGIN',
  enableKakaoLogin: 'ENABLE_KAKAO_LOGIN',
  naverClientId: 'NAVER_CLIENT_ID',
  naverState: 'NAVER_STATE',
  naverRedirectUrl: 'NAVER_REDIRECT_URL',
  kakaoToken: 'KAKAO_TOKEN',
  /** Whole percent (0–50) of what a referred member spends on orders that the referrer earns. */
  referralRatePercent: 'REFERRAL_RATE_PERCENT',
} as const;

export type SettingKey = (typeof settingKeys)[keyof typeof settingKeys];
export const allSettingKeys = Object.values(settingKeys) as SettingKey[];
export const settingKeySchema = z.enum(allSettingKeys as [SettingKey, ...SettingKey[]]);

/** Keys whose value is a flag. */
export const flagSettingKeys: ReadonlySet<SettingKey> = new Set(allSettingKeys.filter((key) => key.startsWith('ENABLE_')));

/** Reads a flag setting: only "true" (any case) is on; missing means off. */
export function settingEnabled(value: string | undefined | null): boolean {
  return value?.trim().toLowerCase() === 'true';
}

/** The referral rate when the setting is missing or unreadable (catalog seeds the same value). */
export const defaultReferralRatePercent = 5;
export const maxReferralRatePercent = 50;

/** Reads REFERRAL_RATE_PERCENT: a whole number 0–50 as a string; anything else is null. */
export function parseReferralRate(value: string | undefined | null): number | null {
  const text = value?.trim() ?? '';
  if (!/^\d{1,2}$/.test(text)) return null;
  const rate = Number(text);
  return rate <= maxReferralRatePercent ? rate : null;
}
