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
  /** Operators (admin and staff) must sign in with a second factor (TOTP); one without it enrols at the next sign-in (issue 41). */
  enableOperatorTwoFactor: 'ENABLE_OPERATOR_TWO_FACTOR',
  /** Whole percent (0–50) of what a referred member spends on orders that the referrer earns. */
  referralRatePercent: 'REFERRAL_RATE_PERCENT',
  /** Won: a staff member approves top-ups and attaches deposits only up to this; above it an admin must (issue 39). */
  staffApprovalLimitWon: 'STAFF_APPROVAL_LIMIT_WON',
  /** How many pending top-up requests one member may have open at once (issue 39; 1 is the Korean panels' custom). */
  topUpOpenLimit: 'TOP_UP_OPEN_LIMIT',
  /** How many top-up requests one member may create in an hour (issue 39). */
  topUpHourlyLimit: 'TOP_UP_HOURLY_LIMIT',
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

/**
 * Whole-number settings of issue 39 (separation of duties, decoy top-ups): each with the value a
 * reader uses when the setting is missing or unreadable (catalog seeds the same), and its bounds.
 */
export const countSettings = {
  [settingKeys.staffApprovalLimitWon]: { fallback: 1_000_000, min: 0, max: 100_000_000 },
  [settingKeys.topUpOpenLimit]: { fallback: 1, min: 1, max: 50 },
  [settingKeys.topUpHourlyLimit]: { fallback: 5, min: 1, max: 100 },
} as const satisfies Partial<Record<SettingKey, { fallback: number; min: number; max: number }>>;
export type CountSettingKey = keyof typeof countSettings;

/** A whole-number setting as a string of digits within its bounds; anything else is null. */
export function parseCountSetting(key: CountSettingKey, value: string | undefined | null): number | null {
  const text = value?.trim() ?? '';
  if (!/^\d{1,9}$/.test(text)) return null;
  const n = Number(text);
  const { min, max } = countSettings[key];
  return n >= min && n <= max ? n : null;
}

/** The setting's value, or its fallback when missing or unreadable. */
export const countSetting = (key: CountSettingKey, value: string | undefined | null): number => parseCountSetting(key, value) ?? countSettings[key].fallback;
