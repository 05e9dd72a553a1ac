import { type SettingKey, countSettings, defaultReferralRatePercent, settingKeys as k } from '@smm/contracts';

/**
 * The site's texts and switches on a fresh installation. The company and bank account are
 * fictional; the operator replaces them in the admin screen.
 */
export const seedSettings: Record<SettingKey, string> = {
  [k.footerCompany]: '주식회사 그로우패널',
  [k.footerAddress]: '서울특별시 강남구 테헤란로 123, 4층',
  [k.footerCorporationNumber]: '123-45-67890',
  [k.footerMarketingNumber]: '제2024-서울강남-01234호',
  [k.footerCeo]: '김성장',
  [k.footerCeoPhone]: '02-1234-5678',
  [k.bankingName]: '국민은행',
  [k.bankingDisplayText]: '(주)그로우패널',
  [k.bankingAccountNumber]: '123456-01-234567',
  [k.bankingBankCode]: '004',
  [k.chatChannelLink]: 'https://pf.kakao.com/_growpanel',
  [k.chatChannelText]: '카카오톡 상담',
  [k.mainColor]: '#4F46E5',
  [k.noticeBoldColor]: '#E11D48',
  [k.enablePaymentFee]: 'true',
  [k.enablePaymentType]: 'true',
  [k.enablePhoneVerification]: 'false',
  [k.enableServiceCheck]: 'false',
  [k.enableReferral]: 'true',
  [k.enableQna]: 'true',
  [k.enablePriceList]: 'true',
  [k.enableTossPayment]: 'false',
  [k.enableNaverLogin]: 'false',
  [k.enableKakaoLogin]: 'false',
  [k.naverClientId]: '',
  [k.naverState]: '',
  [k.naverRedirectUrl]: '',
  [k.kakaoToken]: '',
  // Issue 41: off until an admin requires operators' second factor in 사이트 설정.
  [k.enableOperatorTwoFactor]: 'false',
  [k.referralRatePercent]: String(defaultReferralRatePercent),
  [k.staffApprovalLimitWon]: String(countSettings[k.staffApprovalLimitWon].fallback),
  [k.topUpOpenLimit]: String(countSettings[k.topUpOpenLimit].fallback),
  [k.topUpHourlyLimit]: String(countSettings[k.topUpHourlyLimit].fallback),
};
