import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { messageOf } from '../../lib/api.ts';
import { useCatalog } from '../../lib/catalog.ts';
import { siteHost } from '../../lib/config.ts';
import { won } from '../../lib/format.ts';
import * as ui from '../../ui/ui.css.ts';
import * as s from './api.css.ts';

type Field = { name: string; type: string; required: boolean; description: string };
type Endpoint = {
  method: 'GET' | 'POST';
  path: string;
  url: string;
  description: string;
  request: { contentType: string; fields: Field[] } | null;
  example: { request: string; response: unknown };
};
type V2Action = { action: string; params: string[]; example: { request: string; response: unknown }; note?: string };
/** What the BFF answers at /service/api-docs: the one description of the reseller API (v1 and v2). */
type ApiDocs = {
  baseUrl: string;
  header: { name: string; description: string };
  responseFormat: string;
  rateLimit: { requests: number; windowSeconds: number; description: string };
  idempotency: { header: string; description: string };
  errorFormat: { example: unknown; description: string };
  errors: Array<{ status: number; code: string; description: string }>;
  endpoints: Endpoint[];
  v2: { method: string; url: string; contentTypes: string[]; description: string; actions: V2Action[]; errors: string[]; statuses: string[] };
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * The `/api` screen: the reseller API as the BFF describes it — the key header, limits, the v1 calls
 * and the panel-standard v2 actions, each with a request and an answer to copy.
 */
export default function ApiPage() {
  const { data: docs, error } = useSWR<ApiDocs>('/service/api-docs');
  // Without PUBLIC_BASE_URL the BFF names the API by its path; the examples then show this site's address.
  const shown = docs === undefined || !docs.baseUrl.startsWith('/') ? docs?.baseUrl : `${siteHost()}${docs.baseUrl}`;
  const here = (text: string) => (docs === undefined || shown === docs.baseUrl ? text : text.replaceAll(`${docs.baseUrl}/`, `${shown}/`));
  return (
    <div className={ui.page} style={{ maxWidth: 900 }}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>API 문서</h1>
        <p className={ui.pageLead}>리셀러를 위한 주문 API입니다. API 키는 <Link to="/account" className={ui.link}>계정 설정</Link>에서 발급합니다.</p>
      </header>
      {error && <p className={ui.callout}>{messageOf(error, 'API 문서를 불러오지 못했습니다. 잠시 후 다시 시도해 주세요.')}</p>}
      {docs && (
        <>
          <section className={ui.card} aria-labelledby="api-basics">
            <h2 id="api-basics" className={ui.cardTitle}>기본 정보</h2>
            <dl className={s.dl}>
              <dt>기본 주소</dt>
              <dd><code className={s.inline} data-testid="api-base">{shown}</code></dd>
              <dt>인증 헤더</dt>
              <dd>
                <code className={s.inline}>{docs.header.name}: 발급받은_API_키</code>
                <p className={s.note}>{docs.header.description}</p>
              </dd>
              <dt>응답 형식</dt>
              <dd>
                {docs.responseFormat} {docs.errorFormat.description}
                <pre className={s.code}>{json(docs.errorFormat.example)}</pre>
              </dd>
              <dt>요청 한도</dt>
              <dd>{docs.rateLimit.description}</dd>
              <dt>중복 주문 방지</dt>
              <dd>
                <code className={s.inline}>{docs.idempotency.header}</code>
                <p className={s.note}>{docs.idempotency.description}</p>
              </dd>
            </dl>
          </section>
          <MemberPrices />
          {docs.endpoints.map((e) => (
            <section key={e.path} className={ui.card} aria-labelledby={`api-${e.method}-${e.path}`}>
              <h2 id={`api-${e.method}-${e.path}`} className={ui.cardTitle}>
                <span className={e.method === 'GET' ? s.get : s.post}>{e.method}</span>
                <code>{e.path}</code>
              </h2>
              <p className={ui.muted} style={{ marginBottom: 14 }}>{e.description}</p>
              {e.request && <Fields fields={e.request.fields} contentType={e.request.contentType} />}
              <Example request={here(e.example.request)} response={e.example.response} />
            </section>
          ))}
          <section className={ui.card} aria-labelledby="api-errors">
            <h2 id="api-errors" className={ui.cardTitle}>오류 코드</h2>
            <div className={ui.tableWrap}>
              <table className={ui.table} aria-label="오류 코드">
                <thead>
                  <tr>
                    <th scope="col" className={`${ui.th} ${ui.num}`}>상태</th>
                    <th scope="col" className={ui.th}>코드</th>
                    <th scope="col" className={ui.th}>뜻</th>
                  </tr>
                </thead>
                <tbody>
                  {docs.errors.map((x) => (
                    <tr key={x.code}>
                      <td className={`${ui.td} ${ui.num}`}>{x.status}</td>
                      <td className={ui.td}><code className={s.inline}>{x.code}</code></td>
                      <td className={ui.tdWrap}>{x.description}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          <V2 v2={docs.v2} url={here(docs.v2.url)} />
        </>
      )}
    </div>
  );
}

/** API v2 (`key` and `action`, as panel scripts send them): every action with its fields, an example and its note. */
function V2({ v2, url }: { v2: ApiDocs['v2']; url: string }) {
  return (
    <section className={ui.card} aria-labelledby="api-v2" data-testid="api-v2">
      <h2 id="api-v2" className={ui.cardTitle}>
        <span className={s.post}>{v2.method}</span>
        <code>/v2</code>
        <span className={ui.muted} style={{ fontWeight: 600, fontSize: 15 }}>— 패널 표준 API v2</span>
      </h2>
      <p className={ui.muted}>{v2.description}</p>
      <dl className={s.dl} style={{ margin: '14px 0 6px' }}>
        <dt>주소</dt>
        <dd><code className={s.inline}>{url}</code></dd>
        <dt>요청 형식</dt>
        <dd>{v2.contentTypes.map((t) => <code key={t} className={s.inline} style={{ marginRight: 6 }}>{t}</code>)}</dd>
        <dt>주문 상태</dt>
        <dd>{v2.statuses.map((t) => <code key={t} className={s.inline} style={{ marginRight: 6 }}>{t}</code>)}</dd>
      </dl>
      {v2.actions.map((a, i) => (
        <div key={i} className={s.action} data-testid="api-v2-action">
          <h3 className={s.actionTitle}><code>action={a.action}</code></h3>
          <p className={s.note}>
            {a.params.length === 0 ? '추가 항목 없음' : <>항목: {a.params.map((p, j) => <span key={p}>{j > 0 && ', '}<code className={s.inline}>{p}</code></span>)}</>}
          </p>
          {a.note && <p className={s.note}>{a.note}</p>}
          <Example request={`curl -X POST ${url} \\\n  -d "${a.example.request}"`} response={a.example.response} level={4} />
        </div>
      ))}
      <h3 className={s.actionTitle}>오류 답</h3>
      <p className={s.note}>오류는 <code className={s.inline}>{'{ "error": "..." }'}</code>로 답하며, 문구는 다음 중 하나입니다.</p>
      <ul className={s.errors}>
        {v2.errors.map((e) => <li key={e}><code className={s.inline}>{e}</code></li>)}
      </ul>
    </section>
  );
}

function Fields({ fields, contentType }: { fields: Field[]; contentType: string }) {
  return (
    <div className={ui.tableWrap} style={{ marginBottom: 14 }}>
      <table className={ui.table} aria-label={`요청 항목 (${contentType})`}>
        <thead>
          <tr>
            <th scope="col" className={ui.th}>항목</th>
            <th scope="col" className={ui.th}>형식</th>
            <th scope="col" className={ui.th}>설명</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={f.name}>
              <td className={ui.td}><code className={s.inline}>{f.name}</code>{f.required && <span className={ui.muted}> 필수</span>}</td>
              <td className={ui.td}>{f.type}</td>
              <td className={ui.tdWrap}>{f.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A request and its answer; `level` keeps the headings in order (under an h2 card or an h3 action). */
function Example({ request, response, level = 3 }: { request: string; response: unknown; level?: 3 | 4 }) {
  const Title = level === 3 ? 'h3' : 'h4';
  return (
    <div className={s.examples}>
      <div>
        <Title className={s.exampleTitle}>요청 예시</Title>
        <pre className={s.code}>{request}</pre>
      </div>
      <div>
        <Title className={s.exampleTitle}>응답 예시</Title>
        <pre className={s.code}>{json(response)}</pre>
      </div>
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
