/** Every Korean text this service answers with (house rule 7); operators read them through the BFF. */
export const messages = {
  adminOnly: '관리자만 사용할 수 있습니다.',
  kindInvalid: '예약 종류는 auto 또는 topup 중 하나로 입력해 주세요.',
  limitInvalid: '조회 개수는 1부터 500 사이의 정수로 입력해 주세요.',
} as const;
