import { Link } from 'react-router-dom';
import { useCatalog } from '../../lib/catalog.ts';
import { siteHost } from '../../lib/config.ts';
import { won } from '../../lib/format.ts';
import * as ui from '../../ui/ui.css.ts';
import * as s from './api.css.ts';

const endpoints = (base: string) => [
  {
    method: 'GET',
    path: '/services',
    title: '서비스 목록',
    description: '주문할 수 있는 서비스의 번호, 이름, 최소·최대 수량과 1개당 단가(원)를 돌려줍니다. 단가는 회원님께 적용되는 가격(회원 단가 포함)이며, 주문 시 이 단가로 차감됩니다.',
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
      <MemberPrices />
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

/**
 * Issue 40: the member's own prices, where an operator gave them a rate — what `/services` and
 * API v2 `services` answer this member's key with, and what their orders are charged.
 */
function MemberPrices() {
  const catalog = useCatalog();
  const rated = catalog.services.filter((x) => x.listUnitPriceDeci !== undefined);
  if (rated.length === 0) return null;
  return (
    <section className={ui.card} aria-labelledby="api-member-prices" data-testid="api-member-prices">
      <h2 id="api-member-prices" className={ui.cardTitle}>회원님께 적용되는 단가</h2>
      <p className={ui.muted} style={{ marginBottom: 14 }}>
        아래 서비스는 회원 단가가 적용되어 <code className={s.inline}>/services</code>의 <code className={s.inline}>point</code>와 API v2 <code className={s.inline}>services</code>의 <code className={s.inline}>rate</code>(1,000개 가격)가 이 가격으로 표시되고, 주문 시 이 가격으로 차감됩니다.
      </p>
      <div className={ui.tableWrap}>
        <table className={ui.table} aria-label="회원님께 적용되는 단가">
          <thead>
            <tr>
              <th scope="col" className={ui.th}>번호</th>
              <th scope="col" className={ui.th}>서비스</th>
              <th scope="col" className={`${ui.th} ${ui.num}`}>기본 단가</th>
              <th scope="col" className={`${ui.th} ${ui.num}`}>회원 단가</th>
            </tr>
          </thead>
          <tbody>
            {rated.map((x) => (
              <tr key={x.id}>
                <td className={ui.td}>{x.id}</td>
                <td className={ui.tdWrap}>{x.text}</td>
                <td className={`${ui.td} ${ui.num}`}><del className={ui.muted}>{won(x.listUnitPriceDeci ?? x.unitPriceDeci)}</del></td>
                <td className={`${ui.td} ${ui.num}`} style={{ fontWeight: 700 }}>{won(x.unitPriceDeci)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
