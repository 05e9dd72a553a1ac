import { type SettingKey, settingKeys as k } from '../../../lib/contracts.ts';

/**
 * Every setting key of spec §3 with the input it takes. The record is typed by SettingKey, so a key
 * added to the contracts without a line here fails the type check. Catalog validates the values
 * (services/catalog/src/domain/setting-rules.ts) and answers in Korean.
 */
export type SettingKind = 'text' | 'url' | 'colour' | 'flag' | 'percent' | 'count' | 'bankCode';
export type SettingField = { label: string; kind: SettingKind; hint?: string };

export const settingFields: Record<SettingKey, SettingField> = {
  [k.footerCompany]: { label: '회사명', kind: 'text' },
  [k.footerCeo]: { label: '대표자', kind: 'text' },
  [k.footerCeoPhone]: { label: '대표 전화번호', kind: 'text' },
  [k.footerAddress]: { label: '주소', kind: 'text' },
  [k.footerCorporationNumber]: { label: '사업자등록번호', kind: 'text' },
  [k.footerMarketingNumber]: { label: '통신판매업 신고번호', kind: 'text' },
  [k.bankingName]: { label: '은행명', kind: 'text' },
  [k.bankingDisplayText]: { label: '예금주 (안내 문구)', kind: 'text' },
  [k.bankingAccountNumber]: { label: '계좌번호', kind: 'text' },
  [k.bankingBankCode]: { label: '은행 코드 (숫자 3자리, 토스 송금용)', kind: 'bankCode' },
  [k.chatChannelLink]: { label: '상담 채널 주소', kind: 'url', hint: '비워 두면 회원 화면의 상담 버튼이 숨겨집니다.' },
  [k.chatChannelText]: { label: '상담 버튼 문구', kind: 'text' },
  [k.mainColor]: { label: '대표 색상', kind: 'colour' },
  [k.noticeBoldColor]: { label: '상단 공지 강조 색상', kind: 'colour' },
  [k.enablePaymentFee]: { label: '세금계산서 수수료(10%) 받기', kind: 'flag' },
  [k.enablePaymentType]: { label: '영수증 종류 선택 보이기', kind: 'flag' },
  [k.enablePhoneVerification]: { label: '가입 시 휴대폰 인증', kind: 'flag' },
  [k.enableServiceCheck]: { label: '서비스 점검 중 (주문 막기)', kind: 'flag' },
  [k.enableReferral]: { label: '추천인 제도', kind: 'flag' },
  [k.enableQna]: { label: '자주 묻는 질문 메뉴', kind: 'flag' },
  [k.enablePriceList]: { label: '가격표 메뉴', kind: 'flag' },
  [k.enableTossPayment]: { label: '모바일 토스 송금 연결', kind: 'flag' },
  [k.referralRatePercent]: { label: '추천 적립률 (%)', kind: 'percent', hint: '0~50 사이의 정수' },
  [k.staffApprovalLimitWon]: { label: '스태프 승인 한도 (원)', kind: 'count', hint: '이 금액을 넘는 충전 승인·입금 연결은 관리자만 할 수 있습니다.' },
  [k.topUpOpenLimit]: { label: '회원당 대기 중 충전 신청 수', kind: 'count', hint: '1~50 (기본 1: 입금 전 새 신청 불가)' },
  [k.topUpHourlyLimit]: { label: '회원당 시간당 충전 신청 수', kind: 'count', hint: '1~100' },
  [k.enableNaverLogin]: { label: '네이버 로그인', kind: 'flag' },
  [k.naverClientId]: { label: '네이버 Client ID', kind: 'text' },
  [k.naverState]: { label: '네이버 state 값', kind: 'text' },
  [k.naverRedirectUrl]: { label: '네이버 Redirect URL', kind: 'url' },
  [k.enableKakaoLogin]: { label: '카카오 로그인', kind: 'flag' },
  [k.kakaoToken]: { label: '카카오 JavaScript 키', kind: 'text' },
  [k.enableOperatorTwoFactor]: { label: '운영자 2단계 인증 필수 (미설정 운영자는 다음 로그인 때 설정)', kind: 'flag' },
};

/** Groups in the order an operator sets a site up; every key appears in exactly one. */
export const settingGroups: ReadonlyArray<{ title: string; keys: readonly SettingKey[] }> = [
  { title: '회사 정보 (하단 표시)', keys: [k.footerCompany, k.footerCeo, k.footerCeoPhone, k.footerAddress, k.footerCorporationNumber, k.footerMarketingNumber] },
  { title: '입금 계좌', keys: [k.bankingName, k.bankingDisplayText, k.bankingAccountNumber, k.bankingBankCode] },
  { title: '색상', keys: [k.mainColor, k.noticeBoldColor] },
  { title: '상담 채널', keys: [k.chatChannelLink, k.chatChannelText] },
  { title: '기능 사용', keys: [k.enableServiceCheck, k.enablePaymentType, k.enablePaymentFee, k.enableTossPayment, k.enablePhoneVerification, k.enableQna, k.enablePriceList] },
  { title: '추천인', keys: [k.enableReferral, k.referralRatePercent] },
  { title: '충전·승인 보호', keys: [k.staffApprovalLimitWon, k.topUpOpenLimit, k.topUpHourlyLimit] },
  { title: '운영자 보안', keys: [k.enableOperatorTwoFactor] },
  { title: '소셜 로그인', keys: [k.enableNaverLogin, k.enableKakaoLogin, k.kakaoToken, k.naverClientId, k.naverState, k.naverRedirectUrl] },
];
