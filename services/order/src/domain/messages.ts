import { autoOrderLimits } from '@smm/contracts';

/**
 * Every Korean text this service answers with, in one place (house rule 7). The BFF shows
 * `message` as it is, so these are written for members and operators.
 */
export const messages = {
  serviceRequired: '서비스를 선택해 주세요.',
  linkRequired: '링크를 입력해 주세요.',
  amountInvalid: '주문 수량을 숫자로 입력해 주세요.',
  amountBelowMin: (min: number) => `최소 주문 수량보다 적습니다. (최소 ${min.toLocaleString('ko-KR')})`,
  amountAboveMax: (max: number) => `최대 주문 수량을 초과했습니다. (최대 ${max.toLocaleString('ko-KR')})`,
  autoNotSupported: '자동 주문을 지원하지 않는 서비스입니다.',
  runsTooFew: '자동 주문 횟수는 2회 이상이어야 합니다.',
  runsNotInteger: '자동 주문 횟수는 정수로 입력해 주세요.',
  runsTooMany: `자동 주문 횟수는 최대 ${autoOrderLimits.maxRuns.toLocaleString('ko-KR')}회까지 가능합니다.`,
  intervalTooShort: '자동 주문 간격은 60분 이상이어야 합니다.',
  intervalNotInteger: '자동 주문 간격은 분 단위 정수로 입력해 주세요.',
  intervalTooLong: `자동 주문 간격은 최대 ${autoOrderLimits.maxIntervalMinutes.toLocaleString('ko-KR')}분(30일)까지 가능합니다.`,
  priceOutOfRange: '주문 금액이 너무 큽니다. 수량을 줄여 주세요.',
  priceChanged: '가격이 변경되었습니다. 확인 후 다시 주문해 주세요.',
  priceInvalid: '주문 가격 정보가 올바르지 않습니다. 새로고침 후 다시 주문해 주세요.',
  serviceReadOnly: '현재 주문할 수 없는 서비스입니다.',
  serviceCheck: '서비스 점검 중에는 주문할 수 없습니다.',
  insufficientPoints: '포인트가 부족합니다.',
  idempotencyReused: '이미 다른 요청에 사용된 Idempotency-Key입니다.',
  paymentTimeout: '결제 확인이 늦어져 주문이 접수되지 않았습니다. 포인트는 차감되지 않았으니 잠시 후 다시 시도해 주세요.',

  orderNotFound: '주문을 찾을 수 없습니다.',
  placementNotFound: '이 요청으로 접수된 주문이 없습니다.',
  autoOrderNotFound: '자동 주문을 찾을 수 없습니다.',
  autoOrderNotActive: '진행 중인 자동 주문만 취소할 수 있습니다.',
  orderNotPaid: '결제가 완료되지 않은 주문입니다.',
  orderStatusFinal: '이미 종료된 주문은 변경할 수 없습니다.',
  statusInvalid: '주문 상태 값이 올바르지 않습니다.',
  statusTransitionInvalid: '해당 상태로 변경할 수 없습니다.',
  startCountInvalid: '시작 수량은 0 이상의 정수로 입력해 주세요.',
  remainsInvalid: '남은 수량은 0 이상, 주문 수량 이하의 정수로 입력해 주세요.',
  nothingToUpdate: '변경할 내용을 입력해 주세요.',
  reasonInvalid: '사유는 1자 이상 200자 이하로 입력해 주세요.',
  idsInvalid: '주문 번호 목록이 올바르지 않습니다.',
  userRequired: '회원 정보가 필요합니다.',
  otherMember: '다른 회원의 주문은 조회할 수 없습니다.',
  adminOnly: '관리자만 사용할 수 있습니다.',
  selfAction: '본인 계정의 주문은 직접 변경할 수 없습니다. 다른 운영자에게 요청해 주세요.',
  staffRefund: '환불이 따르는 변경(부분 완료, 취소)은 관리자만 할 수 있습니다.',
} as const;
