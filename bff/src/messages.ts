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
  badRequest: '입력 형식이 올바르지 않습니다.',
  serviceUnavailable: '서비스에 일시적으로 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  serviceTimeout: '서비스 응답이 지연되고 있습니다. 잠시 후 다시 시도해 주세요.',
  upstreamFailed: '일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.',
  qnaDisabled: '자주 묻는 질문 메뉴를 이용할 수 없습니다.',
  routeNotFound: '요청한 경로를 찾을 수 없습니다.',
  orderNotFound: '주문을 찾을 수 없습니다.',
  accountNotFound: '계정을 찾을 수 없습니다.',
  topUpNotFound: '충전 요청을 찾을 수 없습니다.',
  /** Public reseller API. */
  apiKeyInvalid: 'API 키가 올바르지 않습니다.',
  rateLimited: '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  idempotencyReused: '이미 다른 요청에 사용된 Idempotency-Key입니다.',
  idempotencyInProgress: '같은 Idempotency-Key의 요청을 처리하고 있습니다. 잠시 후 다시 시도해 주세요.',
  idempotencyKeyInvalid: 'Idempotency-Key는 255자 이하의 영문, 숫자, 기호여야 합니다.',
} as const;
