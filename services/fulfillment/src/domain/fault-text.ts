/**
 * The transport-level details of a provider call (`clients/provider-api.ts`: `timeout`, a socket
 * error code, `HTTP 502: not JSON`, `unexpected answer`, …) in Korean, for the messages operators
 * and members read (issue 41: "network error" leaked into Korean sentences). A provider's own
 * `{"error": "…"}` text is not ours to translate and passes as it is.
 */
const fixed: Readonly<Record<string, string>> = {
  timeout: '응답 시간 초과',
  'network error': '네트워크 오류',
  ECONNREFUSED: '연결 거부',
  ECONNRESET: '연결이 끊김',
  ENOTFOUND: '주소를 찾을 수 없음',
  EAI_AGAIN: '주소 확인 실패',
  EHOSTUNREACH: '호스트에 닿을 수 없음',
  ENETUNREACH: '네트워크에 닿을 수 없음',
  ETIMEDOUT: '연결 시간 초과',
  EPIPE: '연결이 끊김',
  UND_ERR_CONNECT_TIMEOUT: '연결 시간 초과',
  UND_ERR_SOCKET: '연결이 끊김',
  'unexpected answer': '알 수 없는 형식의 응답',
  'answer without an order id': '주문 번호가 없는 응답',
  'answer without a refill id': '리필 번호가 없는 응답',
  'answer without a status': '상태가 없는 응답',
  'answer without this order': '해당 주문이 없는 응답',
  'cancel not confirmed': '취소 확인이 없는 응답',
};

export function faultText(detail: string): string {
  const known = fixed[detail];
  if (known !== undefined) return known;
  const http = /^HTTP (\d{3})(: not JSON)?$/.exec(detail);
  if (http) return http[2] ? `HTTP ${http[1]} 응답(JSON 아님)` : `HTTP ${http[1]} 오류 응답`;
  const notCalled = /^not called: (.*)$/.exec(detail);
  if (notCalled) return `호출하지 않음(내부 주소): ${notCalled[1]}`;
  return detail;
}
