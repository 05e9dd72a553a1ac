import type { Request, Response, Router } from 'express';
import { v2FulfillmentErrors } from './v2-fulfillment.ts';

/**
 * What the web app's /api screen shows about the reseller API (spec §7; examples follow spec §9:
 * min 10, max 10,000–30,000). Public: the screen is visible to guests too. `baseUrl` comes from
 * PUBLIC_BASE_URL, never from the request's Host header (a forged Host would otherwise put another
 * site's address into the examples resellers copy); unset, it is the path `/api`.
 */
export function apiDocsRoutes(router: Router, limits: { perMinute: number }, publicBaseUrl: string | undefined): void {
  const baseUrl = publicBaseUrl === undefined ? '/api' : `${publicBaseUrl.replace(/\/+$/, '')}/api`;
  router.get('/service/api-docs', (_req: Request, res: Response) => {
    res.json(apiDocs(baseUrl, limits.perMinute));
  });
}

export function apiDocs(baseUrl: string, perMinute: number) {
  return {
    baseUrl,
    header: { name: 'api-key', description: '계정 페이지에서 발급한 API 키를 api-key 헤더에 넣어 보내세요. 키를 재발급하면 이전 키는 즉시 사용할 수 없습니다.' },
    responseFormat: 'JSON (UTF-8). 금액은 원 단위 숫자(소수점 한 자리까지)입니다.',
    rateLimit: { requests: perMinute, windowSeconds: 60, description: `API 키마다 1분에 ${perMinute}회까지 요청할 수 있습니다. 초과하면 429와 Retry-After(초) 헤더로 답합니다.` },
    idempotency: {
      header: 'Idempotency-Key',
      description: '주문 요청에 Idempotency-Key(255자 이하)를 함께 보내면 같은 키와 같은 내용의 재요청에는 처음 응답을 그대로 돌려주고 주문은 한 번만 접수됩니다(24시간 보관). 응답을 받지 못한 요청(시간 초과, 연결 끊김)을 같은 키로 다시 보내도 먼저 접수된 주문의 결과를 돌려줍니다. 같은 키로 다른 내용을 보내면 409 IDEMPOTENCY_KEY_REUSED입니다.',
    },
    errorFormat: { example: { code: 'API_KEY_INVALID', message: 'API 키가 올바르지 않습니다.' }, description: '오류는 HTTP 상태 코드와 { code, message }로 답합니다.' },
    errors: [
      { status: 401, code: 'API_KEY_INVALID', description: 'API 키가 없거나 올바르지 않습니다.' },
      { status: 400, code: 'SERVICE_REQUIRED', description: '서비스 번호가 없거나 주문할 수 없는 서비스입니다.' },
      { status: 400, code: 'LINK_REQUIRED', description: '링크를 입력해 주세요.' },
      { status: 400, code: 'AMOUNT_BELOW_MIN', description: '최소 주문 수량보다 적습니다.' },
      { status: 400, code: 'AMOUNT_ABOVE_MAX', description: '최대 주문 수량을 초과했습니다.' },
      { status: 402, code: 'INSUFFICIENT_POINTS', description: '포인트가 부족합니다.' },
      { status: 403, code: 'SERVICE_READ_ONLY', description: '현재 주문할 수 없는 서비스입니다.' },
      { status: 404, code: 'ORDER_NOT_FOUND', description: '주문을 찾을 수 없습니다(본인 주문만 조회됩니다).' },
      { status: 409, code: 'IDEMPOTENCY_KEY_REUSED', description: '이미 다른 요청에 사용된 Idempotency-Key입니다.' },
      { status: 429, code: 'RATE_LIMITED', description: '요청이 너무 많습니다. Retry-After 초 뒤에 다시 시도해 주세요.' },
      { status: 503, code: 'SERVICE_CHECK', description: '서비스 점검 중에는 주문할 수 없습니다.' },
    ],
    endpoints: [
      {
        method: 'GET',
        path: '/services',
        url: `${baseUrl}/services`,
        description: '주문할 수 있는 서비스 목록입니다. point는 수량 1개당 가격(원)으로, 운영자가 정한 회원 단가(할인·리셀러 단가)가 있으면 그 가격이며 주문 시 이 가격으로 차감됩니다.',
        request: null,
        example: { request: `curl -H "api-key: YOUR_API_KEY" ${baseUrl}/services`, response: [{ id: 1, text: '인스타그램 한국인 좋아요', min: 10, max: 10000, point: 2.5, platform: '인스타그램', category: '좋아요', enableAuto: true }] },
      },
      {
        method: 'POST',
        path: '/order',
        url: `${baseUrl}/order`,
        description: '주문을 접수합니다. 가격(단가 × 수량)만큼 포인트가 차감되고 주문 번호(wId)를 돌려줍니다.',
        request: { contentType: 'application/json', fields: [
          { name: 'serviceId', type: 'number', required: true, description: '서비스 번호' },
          { name: 'link', type: 'string', required: true, description: '게시물 주소 또는 프로필 이름' },
          { name: 'amount', type: 'number', required: true, description: '수량 (서비스의 min 이상 max 이하)' },
        ] },
        example: {
          request: `curl -X POST -H "api-key: YOUR_API_KEY" -H "content-type: application/json" -H "Idempotency-Key: 3f1c-0001" -d '{"serviceId":1,"link":"https://www.instagram.com/p/abc","amount":100}' ${baseUrl}/order`,
          response: { wId: 1234 },
        },
      },
      {
        method: 'GET',
        path: '/status/{wId}',
        url: `${baseUrl}/status/{wId}`,
        description: '주문 상태와 남은 수량입니다. 상태: 0 주문 접수, 1 진행중, 2 완료, 3 부분 완료, 4 처리 대기, 5 취소(전액 환불).',
        request: null,
        example: { request: `curl -H "api-key: YOUR_API_KEY" ${baseUrl}/status/1234`, response: { status: 1, remains: 40 } },
      },
    ],
    v2: {
      method: 'POST',
      url: `${baseUrl}/v2`,
      contentTypes: ['application/x-www-form-urlencoded', 'application/json'],
      description: '많이 쓰이는 패널 표준 API v2 형식입니다. key(API 키)와 action을 보내며, 오류는 { "error": "..." }(영문)로 답합니다. 금액은 원(KRW) 단위 문자열입니다.',
      actions: [
        { action: 'services', params: [], example: { request: 'key=YOUR_API_KEY&action=services', response: [{ service: 1, name: '인스타그램 한국인 좋아요', type: 'Default', category: '좋아요', rate: '2500.0', min: 10, max: 10000, refill: false, cancel: false, dripfeed: true }] }, note: 'rate는 1,000개당 가격(원)입니다(Package 유형은 패키지 1개 가격). type은 상품 유형입니다: Default, Custom Comments, Package, Mentions Custom List, Comment Likes, Subscriptions — 유형마다 add에 보내는 항목이 다릅니다.' },
        { action: 'add', params: ['service', 'link', 'quantity', 'runs (선택, 자동 주문 횟수 2 이상)', 'interval (선택, 분 단위 60 이상)'], example: { request: 'key=YOUR_API_KEY&action=add&service=1&link=https://www.instagram.com/p/abc&quantity=100', response: { order: 1234 } }, note: 'Default 유형입니다. runs·interval(자동 주문)은 Default 유형만 가능합니다.' },
        { action: 'add', params: ['service', 'link', 'comments (한 줄에 댓글 하나, 줄 수가 수량)'], example: { request: 'key=YOUR_API_KEY&action=add&service=25&link=https://www.instagram.com/p/abc&comments=멋져요%0A최고예요', response: { order: 1235 } }, note: 'Custom Comments(댓글 직접 입력) 유형: quantity는 보내지 않습니다.' },
        { action: 'add', params: ['service', 'link'], example: { request: 'key=YOUR_API_KEY&action=add&service=3&link=https://www.instagram.com/p/abc', response: { order: 1236 } }, note: 'Package(패키지) 유형: 수량은 상품의 패키지 수량이고, 가격(rate)은 패키지 1개 가격입니다.' },
        { action: 'add', params: ['service', 'link', 'usernames (한 줄에 아이디 하나 또는 쉼표로 구분, 개수가 수량)'], example: { request: 'key=YOUR_API_KEY&action=add&service=27&link=https://www.instagram.com/p/abc&usernames=kim%0Alee', response: { order: 1237 } }, note: 'Mentions Custom List(멘션 아이디 목록) 유형' },
        { action: 'add', params: ['service', 'link', 'quantity', 'username (댓글 작성자 아이디)'], example: { request: 'key=YOUR_API_KEY&action=add&service=26&link=https://www.instagram.com/p/abc&quantity=50&username=writer', response: { order: 1238 } }, note: 'Comment Likes(댓글 좋아요) 유형' },
        {
          action: 'add',
          params: ['service', 'username (구독할 프로필 아이디)', 'min (게시물당 최소 수량)', 'max (게시물당 최대 수량)', 'posts (게시물 수, 1~1,000)', 'delay (선택, 게시 후 0·5·10·15·30·60·90분)', 'expiry (선택, 만료일 dd/mm/yyyy 또는 yyyy-mm-dd)'],
          example: { request: 'key=YOUR_API_KEY&action=add&service=30&username=brand.kr&min=100&max=200&posts=10&delay=5&expiry=31/12/2026', response: { order: 1239 } },
          note: 'Subscriptions(구독: 새 게시물 자동 작업) 유형: link·quantity는 보내지 않습니다. 결제는 최대 수량 × 게시물 수로 먼저 하고, 만료·취소 시 진행되지 않은 게시물 분을 한 번 환불합니다.',
        },
        { action: 'status', params: ['order'], example: { request: 'key=YOUR_API_KEY&action=status&order=1234', response: { charge: '250.0', start_count: '0', status: 'In progress', remains: '40', currency: 'KRW' } } },
        { action: 'status', params: ['orders (쉼표로 구분, 최대 100개)'], example: { request: 'key=YOUR_API_KEY&action=status&orders=1234,1235,99', response: { '1234': { charge: '250.0', start_count: '0', status: 'Completed', remains: '0', currency: 'KRW' }, '99': { error: 'Incorrect order ID' } } } },
        {
          action: 'status',
          params: ['order (구독)'],
          example: { request: 'key=YOUR_API_KEY&action=status&order=1239', response: { charge: '4000.0', start_count: '0', status: 'Active', remains: '9', currency: 'KRW', expiry: '2026-12-31', posts: '1', orders: [1240], username: 'brand.kr', min: '100', max: '200', delay: '5' } },
          note: '구독의 status는 Active, Paused, Completed, Expired, Canceled 중 하나입니다. posts는 진행된 게시물 수, orders는 게시물마다 만들어진 주문 번호, remains는 남은 게시물 수입니다.',
        },
        { action: 'balance', params: [], example: { request: 'key=YOUR_API_KEY&action=balance', response: { balance: '12345.0', currency: 'KRW' } } },
        {
          action: 'refill',
          params: ['order (또는 orders: 쉼표로 구분, 최대 100개)'],
          example: { request: 'key=YOUR_API_KEY&action=refill&order=1234', response: { refill: '9' } },
          note: `services의 refill이 true인 상품의 완료된 주문만 가능합니다. 같은 주문의 리필이 진행 중이면 같은 리필 번호로 답합니다. 방금 넣은 주문은 "${v2FulfillmentErrors.orderNotReady}"(503)로 답할 수 있으니 잠시 후 같은 요청을 다시 보내세요.`,
        },
        { action: 'refill_status', params: ['refill (또는 refills: 쉼표로 구분)'], example: { request: 'key=YOUR_API_KEY&action=refill_status&refill=9', response: { status: 'Completed' } } },
        {
          action: 'cancel',
          params: ['orders (쉼표로 구분, 최대 100개) 또는 order'],
          example: { request: 'key=YOUR_API_KEY&action=cancel&orders=1234,1235', response: [{ order: 1234, cancel: 1 }, { order: 1235, cancel: { error: v2FulfillmentErrors.cancelUnavailable } }] },
          note: 'services의 cancel이 true인 상품만 가능합니다. 환불은 공급처가 취소를 확인하면 전액 이루어집니다. 구독은 진행되지 않은 게시물 분이 한 번 환불됩니다.',
        },
      ],
      errors: ['Invalid API key', 'Incorrect request', 'Incorrect service ID', 'Incorrect order ID', 'Not enough funds on balance', 'Quantity less than minimal 10', 'Quantity more than maximal 10000', 'Incorrect comments: one comment per line, 300 characters at most', 'Incorrect usernames: one username per line, no duplicates', 'Incorrect username', 'Min must not be greater than max', 'Incorrect posts: 1 to 1000 whole posts', v2FulfillmentErrors.incorrectRefillId, v2FulfillmentErrors.refillUnavailable, v2FulfillmentErrors.cancelUnavailable, v2FulfillmentErrors.orderNotReady, 'Too many requests'],
      statuses: ['Pending', 'In progress', 'Completed', 'Partial', 'Processing', 'Canceled'],
    },
  };
}
