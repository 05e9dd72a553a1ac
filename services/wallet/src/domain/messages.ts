/**
 * Every Korean text the wallet answers with, in one place (house rule 7). The BFF shows `message`
 * as it is, so these are written for members and operators.
 */
export const messages = {
  accountNotFound: '포인트 계정을 찾을 수 없습니다.',
  adminOnly: '관리자만 사용할 수 있습니다.',
  daysInvalid: '기간은 1일에서 31일 사이로 입력해 주세요.',
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
  rejectReasonTooLong: '거절 사유는 200자 이하로 입력해 주세요.',
  adjustmentAmountInvalid: '조정 금액은 0이 아닌 1,000만 원 이내의 금액(소수점 한 자리까지)으로 입력해 주세요.',
  adjustmentReasonRequired: '조정 사유를 입력해 주세요.',
  adjustmentBelowZero: '보유 포인트보다 많이 차감할 수 없습니다.',
  transactionIdInvalid: '거래 번호는 영문, 숫자와 . _ : - 로 100자 이내여야 합니다.',
  depositDepositorInvalid: '입금자명을 50자 이내로 입력해 주세요.',
  depositAmountInvalid: '입금액은 1원 이상 1억 원 이하의 정수로 입력해 주세요.',
  depositedAtInvalid: '입금 시각이 올바르지 않습니다.',
  depositNotFound: '입금 내역을 찾을 수 없습니다.',
  depositResolved: '이미 처리된 입금 내역입니다.',
  depositAmountMismatch: '입금액과 충전 요청의 입금할 금액이 다릅니다. 회원에게 직접 연결해 주세요.',
  depositTargetInvalid: '연결할 충전 요청 번호 또는 회원을 하나만 지정해 주세요.',
  depositStatusInvalid: '입금 상태 필터가 올바르지 않습니다.',
  receiptNotIssuable: '승인된 요청 중 세금계산서·현금영수증을 신청한 건만, 한 번만 발행 처리할 수 있습니다.',
  topUpNotPending: '이미 처리된 충전 요청입니다.',
  topUpIdInvalid: '충전 요청 번호가 올바르지 않습니다.',
  statusFilterInvalid: '상태는 0, 1, 2 중 하나로 입력해 주세요.',
  paymentTypeFilterInvalid: '결제 유형은 ALL, CASH_AND_FEE, FEE, CASH, NO_FEE 중 하나로 입력해 주세요.',
  pageInvalid: '페이지 번호는 1 이상의 정수로 입력해 주세요.',

  selfAction: '본인 계정의 충전·입금·잔액은 직접 처리할 수 없습니다. 다른 운영자에게 요청해 주세요.',
  staffLimitPrefix: '스태프 승인 한도',
  staffLimitSuffix: '을 넘는 금액입니다. 관리자가 처리해야 합니다.',
  topUpOpenLimitPrefix: '입금 대기 중인 충전 신청이 이미',
  topUpOpenLimitSuffix: '건 있습니다. 입금을 마치시거나 신청이 만료된 뒤 다시 신청해 주세요.',
  topUpHourlyLimitPrefix: '충전 신청은 1시간에',
  topUpHourlyLimitSuffix: '건까지 할 수 있습니다. 잠시 후 다시 신청해 주세요.',
  topUpHeld: '최근 7일 동안 입금 없이 만료된 충전 신청이 많아 새 충전 신청이 제한되었습니다. 고객센터로 문의해 주세요.',
} as const;

/**
 * A rule the input broke, as the client should hear it. Domain rules return these instead of
 * throwing; the use case or route decides the answer's status.
 */
export type Problem = { code: string; message: string };

export function problem(code: string, message: string): Problem {
  return { code, message };
}
