import { Link } from 'react-router-dom';
import { siteHost } from '../../lib/config.ts';
import * as ui from '../../ui/ui.css.ts';
import * as s from './api.css.ts';

const endpoints = (base: string) => [
  {
    method: 'GET',
    path: '/services',
    title: '서비스 목록',
    description: '주문할 수 있는 서비스의 번호, 이름, 최소·최대 수량과 1개당 단가(원)를 돌려줍니다.',
    request: `curl ${base}/services \\\n  -H "api-key: 발급받은_API_키"`,
    response: `[\n  {\n    "id": 1,\n    "text": "인스타그램 한국인 좋아요",\n    "min": 10,\n    "max": 10000,\n    "point": 2.5\n  },\n  {\n    "id": 2,\n    "text": "유튜브 조회수",\n    "min": 10,\n    "max": 30000,\n    "point": 3.5\n  }\n]`,
  },
  {
    method: 'POST',
    path: '/order',
    title: '주문하기',
    description: '서비스 번호(serviceId), 링크(link), 수량(amount)으로 주문합니다. 주문 금액은 보유 포인트에서 차감되며 주문 번호(wId)를 돌려줍니다.',
    request: `curl -X POST ${base}/order \\\n  -H "api-key: 발급받은_API_키" \\\n  -H "content-type: application/json" \\\n  -d '{"serviceId": 1, "link": "https://www.instagram.com/p/abc123", "amount": 100}'`,
    response: `{\n  "wId": 1234\n}`,
  },
  {
    method: 'GET',
    path: '/status/{wId}',
    title: '주문 상태 조회',
    description: '주문 번호로 진행 상태(status)와 남은 수량(remains)을 조회합니다. 상태: 0 주문 접수, 1 진행중, 2 완료, 3 부분 완료, 4 처리 대기, 5 취소(전액 환불).',
    request: `curl ${base}/status/01JD8Y6Q4M2V \\\n  -H "api-key: 발급받은_API_키"`,
    response: `{\n  "status": 1,\n  "remains": 40\n}`,
  },
];

export default function ApiPage() {
  const base = `${siteHost()}/api`;
  return (
    <div className={ui.page} style={{ maxWidth: 900 }}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>API 문서</h1>
        <p className={ui.pageLead}>리셀러를 위한 주문 API입니다. API 키는 <Link to="/account" className={ui.link}>계정 설정</Link>에서 발급합니다.</p>
      </header>
      <section className={ui.card} aria-labelledby="api-basics">
        <h2 id="api-basics" className={ui.cardTitle}>기본 정보</h2>
        <dl className={s.dl}>
          <dt>기본 주소</dt>
          <dd><code className={s.inline} data-testid="api-base">{base}</code></dd>
          <dt>인증 헤더</dt>
          <dd><code className={s.inline}>api-key: 발급받은_API_키</code></dd>
          <dt>응답 형식</dt>
          <dd>
            JSON (<code className={s.inline}>application/json; charset=utf-8</code>). 오류는 HTTP 상태 코드와 함께{' '}
            <code className={s.inline}>{'{ "code": "INSUFFICIENT_POINTS", "message": "포인트가 부족합니다." }'}</code> 형태로 돌려줍니다.
          </dd>
        </dl>
      </section>
      {endpoints(base).map((e) => (
        <section key={e.path} className={ui.card} aria-labelledby={`api-${e.method}-${e.path}`}>
          <h2 id={`api-${e.method}-${e.path}`} className={ui.cardTitle}>
            <span className={e.method === 'GET' ? s.get : s.post}>{e.method}</span>
            <code>{e.path}</code>
            <span className={ui.muted} style={{ fontWeight: 600, fontSize: 15 }}>— {e.title}</span>
          </h2>
          <p className={ui.muted} style={{ marginBottom: 14 }}>{e.description}</p>
          <div className={s.examples}>
            <div>
              <h3 className={s.exampleTitle}>요청 예시</h3>
              <pre className={s.code}>{e.request}</pre>
            </div>
            <div>
              <h3 className={s.exampleTitle}>응답 예시</h3>
              <pre className={s.code}>{e.response}</pre>
            </div>
          </div>
        </section>
      ))}
    </div>
  );
}
