/** The live channel's Korean answers (house rule 7). */
export const liveMessages = {
  ticketInvalid: '실시간 연결 정보가 만료되었습니다. 페이지를 새로 고쳐 주세요.',
  unavailable: '실시간 알림을 일시적으로 사용할 수 없습니다.',
} as const;
