/**
 * Every Korean text the wallet answers with, in one place (house rule 7). The BFF shows `message`
 * as it is, so these are written for members and operators.
 */
export const messages = {
  accountNotFound: '포인트 계정을 찾을 수 없습니다.',
  adminOnly: '관리자만 사용할 수 있습니다.',
  notYours: '본인의 충전 내역만 조회할 수 있습니다.',
  userRequired: '로그인이 필요합니다.',

  depositorRequired: '입금자명을 입력해 주세요.',
  pointInvalid: '충전 금액은 5,000원 단위로 입력해 주세요.',
  receiptTypeInvalid: '영수증 종류를 다시 선택해 주세요.',
  companyRequired: '상호명을 입력해 주세요.',
  businessNumberInvalid: '사업자등록번호 10자리를 정확히 입력해 주세요.',
  leaderRequired: '대표자명을 입력해 주세요.',
  receiptPhoneInvalid: '휴대폰 번호를 정확히 입력해 주세요.',
  receiptEmailInvalid: '이메일 주소를 정확히 입력해 주세요.',

  topUpNotFound: '충전 요청을 찾을 수 없습니다.',
  topUpNotPending: '이미 처리된 충전 요청입니다.',
  topUpIdInvalid: '충전 요청 번호가 올바르지 않습니다.',
  statusFilterInvalid: '상태는 0, 1, 2 중 하나로 입력해 주세요.',
  paymentTypeFilterInvalid: '결제 유형은 ALL, CASH_AND_FEE, FEE, CASH, NO_FEE 중 하나로 입력해 주세요.',
  pageInvalid: '페이지 번호는 1 이상의 정수로 입력해 주세요.',
} as const;

/**
 * A rule the input broke, as the client should hear it. Domain rules return these instead of
 * throwing; the use case or route decides the answer's status.
 */
export type Problem = { code: string; message: string };

export function problem(code: string, message: string): Problem {
  return { code, message };
}
