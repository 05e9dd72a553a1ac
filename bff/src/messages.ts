/**
 * Every Korean text the BFF itself answers with (house rule 7). Services' own messages (validation,
 * duplicates, wrong password...) pass through unchanged.
 */
export const messages = {
  /** Spec §8: every 401 means the stored token is invalid or expired; the client drops it. */
  tokenInvalid: '로그인 정보가 만료되었거나 올바르지 않습니다. 다시 로그인해 주세요.',
  /** Spec §5 "Other": guests (browse mode, no token) cannot change a password, renew an API key or issue a referral code. */
  guestRefused: '둘러보기(게스트) 모드에서는 이용할 수 없는 기능입니다. 로그인 후 이용해 주세요.',
  adminOnly: '관리자만 사용할 수 있습니다.',
  operatorNotFound: '운영자 계정을 찾을 수 없습니다.',
  areaForbidden: '이 메뉴를 사용할 권한이 없습니다. 관리자에게 메뉴 권한을 요청해 주세요.',
  badRequest: '입력 형식이 올바르지 않습니다.',
  serviceUnavailable: '서비스에 일시적으로 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  serviceTimeout: '서비스 응답이 지연되고 있습니다. 잠시 후 다시 시도해 주세요.',
  upstreamFailed: '일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.',
  qnaDisabled: '자주 묻는 질문 메뉴를 이용할 수 없습니다.',
  routeNotFound: '요청한 경로를 찾을 수 없습니다.',
  orderNotFound: '주문을 찾을 수 없습니다.',
  subscriptionNotFound: '구독을 찾을 수 없습니다.',
  accountNotFound: '계정을 찾을 수 없습니다.',
  topUpNotFound: '충전 요청을 찾을 수 없습니다.',
  memberNotFound: '회원 정보를 찾을 수 없습니다.',
  rateNotFound: '해당 회원 단가가 없습니다.',
  depositsNotConfigured: '입금 알림 연동이 설정되지 않았습니다.',
  depositSignatureInvalid: '입금 알림의 서명이 올바르지 않습니다.',
  depositTimestampStale: '입금 알림의 시각이 허용 범위를 벗어났습니다.',
  depositNotFound: '입금 내역을 찾을 수 없습니다.',
  depositTargetInvalid: '연결할 충전 요청 번호 또는 회원 아이디를 하나만 입력해 주세요.',
  rejectReasonRequired: '거절 사유를 입력해 주세요.',
  rejectReasonTooLong: '거절 사유는 200자 이하로 입력해 주세요.',
  /** Public reseller API. */
  apiKeyInvalid: 'API 키가 올바르지 않습니다.',
  /** Free text (spec §5 order link, top-up depositor name). */
  linkInvalid: '링크는 http(s)로 시작하는 주소 또는 프로필 이름만 입력할 수 있습니다.',
  textInvalid: '사용할 수 없는 문자(줄바꿈, 제어 문자 등)가 포함되어 있습니다.',
  textUnsafe: '입력값에 사용할 수 없는 문자(제어 문자, 방향 제어 문자)가 포함되어 있습니다.',
  textInvisible: '보이지 않는 문자만으로는 입력할 수 없습니다.',
  rateLimited: '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  idempotencyReused: '이미 다른 요청에 사용된 Idempotency-Key입니다.',
  idempotencyInProgress: '같은 Idempotency-Key의 요청을 처리하고 있습니다. 잠시 후 다시 시도해 주세요.',
  idempotencyKeyInvalid: 'Idempotency-Key는 255자 이하의 영문, 숫자, 기호여야 합니다.',
  idempotencyKeyRequired: '대량 주문에는 Idempotency-Key 헤더가 필요합니다.',
  /** Mass orders (issue 40): the lines after one the wallet refused, or after one whose outcome is unknown. */
  massOrderBalanceShort: '앞선 줄에서 포인트가 부족하여 주문하지 않았습니다. 차감된 포인트는 없습니다.',
  massOrderUnknown: '일부 줄을 처리하지 못했습니다. 같은 내용으로 다시 주문하면 이미 접수된 줄은 다시 결제되지 않습니다.',
} as const;
