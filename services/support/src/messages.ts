import { ticketLimits } from '@smm/contracts';

const n = (value: number) => value.toLocaleString('ko-KR');

/** The support service's Korean answers (issue 40). */
export const messages = {
  categoryInvalid: '문의 유형을 선택해 주세요. (주문, 결제, 계정, 기타)',
  titleRequired: '제목을 입력해 주세요.',
  titleTooLong: `제목은 ${n(ticketLimits.titleMax)}자 이내로 입력해 주세요.`,
  bodyRequired: '내용을 입력해 주세요.',
  bodyTooLong: `내용은 ${n(ticketLimits.bodyMax)}자 이내로 입력해 주세요.`,
  textUnsafe: '입력할 수 없는 문자(제어 문자·방향 제어 문자)가 포함되어 있습니다.',
  textInvisible: '보이지 않는 문자만으로는 작성할 수 없습니다.',
  ordersTooMany: `주문번호는 ${n(ticketLimits.ordersMax)}개까지 연결할 수 있습니다.`,
  tooManyOpen: (limit: number) => `답변을 기다리거나 진행 중인 문의가 이미 ${n(limit)}건 있습니다. 기존 문의에 이어서 작성하거나 종료한 뒤 새 문의를 남겨 주세요.`,
  tooManyMessages: (limit: number) => `메시지를 너무 자주 보내고 있습니다. 1분에 ${n(limit)}건까지 보낼 수 있으니 잠시 후 다시 시도해 주세요.`,
  ticketNotFound: '문의를 찾을 수 없습니다.',
  ticketClosed: '종료된 문의에는 글을 쓸 수 없습니다. 새 문의를 남겨 주세요.',
  threadFull: `한 문의에는 메시지를 ${n(ticketLimits.messagesMax)}개까지 쓸 수 있습니다. 새 문의를 남겨 주세요.`,
  alreadyClosed: '이미 종료된 문의입니다.',
  notClosed: '종료된 문의만 다시 열 수 있습니다.',
  selfAction: '본인이 남긴 문의는 운영자로 답변하거나 처리할 수 없습니다.',
  userRequired: '로그인이 필요합니다.',
  operatorOnly: '운영자만 할 수 있는 작업입니다.',
  adminOnly: '관리자만 저장된 답변을 만들거나 고치거나 지울 수 있습니다.',
  savedReplyNotFound: '저장된 답변을 찾을 수 없습니다.',
  savedReplyTitleRequired: '저장된 답변의 이름을 입력해 주세요.',
  savedReplyTitleTooLong: `저장된 답변의 이름은 ${n(ticketLimits.savedReplyTitleMax)}자 이내로 입력해 주세요.`,
  savedRepliesFull: '저장된 답변은 100개까지 만들 수 있습니다.',
  idInvalid: '문의 번호가 올바르지 않습니다.',
  queryInvalid: '검색 조건이 올바르지 않습니다.',
} as const;
