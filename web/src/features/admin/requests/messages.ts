/**
 * Korean words of the refill and cancel request queue, the review queue's additions and provider
 * health (issue 41). Kept beside the screens that use them, apart from the console's shared list.
 */
export const requestText = {
  requests: '리필·취소 요청',
  requestsLead: '회원과 리셀러의 리필·취소 요청 가운데 공급처가 받지 않았거나 답이 불분명한 요청입니다. 공급처의 답을 보고 다시 보내거나, 직접 처리한 뒤 닫으세요. 취소 요청의 환불은 공급처가 취소를 확인했을 때만 이루어집니다.',
  filters: { failed: '처리 필요', open: '진행 중', all: '전체' } as Record<'failed' | 'open' | 'all', string>,
  kinds: { refill: '리필', cancel: '취소' } as Record<string, string>,
  allKinds: '모든 종류',
  kindFilter: '요청 종류',
  stateFilter: '요청 상태',
  columns: { request: '요청', order: '주문', provider: '공급처', state: '상태', answer: '공급처의 답', actions: '처리' },
  states: { sending: '보내는 중', waiting: '다시 보낼 예정', forwarded: '공급처 접수', failed: '실패', done: '완료', closed: '닫음' } as Record<string, string>,
  unclear: '답 불분명',
  unclearHint: '공급처가 요청을 받았는지 알 수 없습니다. 공급처 패널을 확인한 뒤 처리하세요.',
  attempts: (n: number) => `시도 ${n}회`,
  providerStatus: (s: string) => `공급처 상태: ${s}`,
  noAnswer: '답 없음',
  showAnswer: (length: number) => `(전체 ${length.toLocaleString('ko-KR')}자 보기)`,
  counts: (failed: number, open: number) => `처리 필요 ${failed}건 · 진행 중 ${open}건`,
  empty: { failed: '처리할 요청이 없습니다.', open: '진행 중인 요청이 없습니다.', all: '요청이 없습니다.' } as Record<'failed' | 'open' | 'all', string>,
  retry: '다시 보내기',
  close: '요청 닫기',
  retryTitle: (id: string) => `요청 ${id} 다시 보내기`,
  retryBody: '같은 요청을 공급처에 다시 보냅니다. 답이 불분명했던 요청이면 공급처 패널에 이미 들어가 있지 않은지 먼저 확인하세요.',
  closeTitle: (id: string) => `요청 ${id} 닫기`,
  closeBody: '공급처에 보내지 않고 요청을 닫습니다. 직접 처리했거나 처리하지 않기로 했다면 메모를 남기세요. 닫아도 환불은 일어나지 않습니다.',
  note: '메모(200자까지)',
  noteTooLong: '메모는 200자까지 입력할 수 있습니다.',
  retried: (state: string) => `다시 보냈습니다: ${state}`,
  closed: '요청을 닫았습니다.',
  selfOrder: '본인 주문',
  /** The provider's error words as fulfillment records them, in Korean where we know them. */
  errors: {
    'answer without a refill id': '리필 번호가 없는 답',
    'answer without an order id': '주문 번호가 없는 답',
    'order id is not a positive integer': '주문 번호가 양의 정수가 아님',
    'answer without this order': '이 주문에 대한 답이 없음',
    'answer without a readable status': '읽을 수 없는 상태 값',
    'cancel not confirmed': '취소를 확인하지 않음',
    'the worker stopped while the provider was being called': '공급처 호출 중 처리가 중단됨',
  } as Record<string, string>,

  /** Review queue additions: status answers the sync could not act on, and resume. */
  reviewReasons: {
    'invalid answer': '공급처 답의 주문 번호가 잘못됨',
    'unknown-status': '알 수 없는 주문 상태',
    'bad-status': '상태가 없는 답',
    'bad-remains': '남은 수량이 잘못됨',
  } as Record<string, string>,
  providerAnswer: (text: string) => `공급처의 답: ${text}`,
  resume: '상태 확인 재개',
  resumeTitle: (id: number) => `주문 #${id} 상태 확인 재개`,
  resumeBody: '공급처가 이 주문을 받아 처리 중입니다. 공급처의 답이 다시 정상이면 상태 확인을 재개해 진행 상태와 환불을 계속 따라갑니다.',
  resumed: '상태 확인을 재개했습니다.',
  heldByProvider: '공급처 접수됨',

  /** The orders screen while fulfillment does not answer. */
  providerFilterUnavailable: '전달 정보를 불러오지 못해 공급처별 주문을 찾을 수 없습니다. 공급처 필터 없이 검색하면 주문 목록은 볼 수 있습니다.',
  providersUnavailable: '공급처 목록을 불러오지 못함',

  /** Provider health from its last call. */
  health: { unchecked: '확인 전', ok: '정상', failing: '실패' } as Record<string, string>,
  failingSince: (at: string) => `${at}부터 실패`,
  lastCall: (action: string, at: string) => `${at} · ${action}`,
  callActions: { balance: '잔액 확인', status: '상태 확인', add: '주문 전달', services: '서비스 목록', refill: '리필', refill_status: '리필 상태', cancel: '취소' } as Record<string, string>,
  balanceFailed: '확인 실패',
} as const;

/** A provider call's failure in Korean (the technical words kept in brackets for whoever looks further). */
export function providerErrorText(detail: string): string {
  if (detail === 'timeout') return '응답 시간 초과';
  if (detail === 'network error') return '네트워크 오류';
  if (detail === 'ECONNREFUSED') return '연결 거부(ECONNREFUSED)';
  if (detail === 'ENOTFOUND' || detail === 'EAI_AGAIN') return `주소를 찾을 수 없음(${detail})`;
  if (/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/.test(detail)) return `연결이 끊김(${detail})`;
  if (detail.startsWith('not called: ')) return '내부망 주소라 호출하지 않음';
  const notJson = /^HTTP (\d{3}): not JSON$/.exec(detail);
  if (notJson) return `JSON이 아닌 답(HTTP ${notJson[1]})`;
  const server = /^HTTP (5\d\d)$/.exec(detail);
  if (server) return `공급처 서버 오류(HTTP ${server[1]})`;
  return requestText.errors[detail] ?? detail;
}
