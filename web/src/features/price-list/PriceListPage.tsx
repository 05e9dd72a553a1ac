import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useCatalog } from '../../lib/catalog.ts';
import { count, won } from '../../lib/format.ts';
import { PlatformIcon } from '../../ui/platform-icons.tsx';
import * as ui from '../../ui/ui.css.ts';
import { groupPrices } from './price-list.ts';
import * as s from './price-list.css.ts';

export default function PriceListPage() {
  const catalog = useCatalog();
  const [query, setQuery] = useState('');
  const searchId = useId();
  const groups = groupPrices(catalog.platforms, catalog.categories, catalog.services, query);
  return (
    <div className={ui.page}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>가격표</h1>
        <p className={ui.pageLead}>모든 서비스의 1개당 단가와 주문 가능 수량입니다. 결제 금액은 단가 × 수량으로 계산됩니다.</p>
      </header>
      <div className={s.toolbar}>
        <label htmlFor={searchId} className="sr-only">서비스 검색</label>
        <input id={searchId} type="search" className={ui.input} placeholder="서비스 이름으로 찾기 (예: 팔로워, 조회수)" value={query} onChange={(e) => setQuery(e.target.value)} style={{ maxWidth: 420 }} />
        <nav aria-label="플랫폼 바로가기" className={ui.chips}>
          {groups.map((g) => (
            <a key={g.platform.id} href={`#platform-${g.platform.id}`} className={ui.chip} style={{ display: 'inline-flex', alignItems: 'center', textDecoration: 'none' }}>
              {g.platform.text}
            </a>
          ))}
        </nav>
      </div>
      {!catalog.loading && groups.length === 0 && <p className={ui.empty}>조건에 맞는 서비스가 없습니다.</p>}
      {groups.map((g) => (
        <section key={g.platform.id} id={`platform-${g.platform.id}`} className={ui.card} aria-labelledby={`price-${g.platform.id}`}>
          <h2 id={`price-${g.platform.id}`} className={s.platformTitle}>
            <span className={s.icon} style={{ background: g.platform.background }}>
              <PlatformIcon id={g.platform.id} background={g.platform.background} size={22} />
            </span>
            {g.platform.text}
          </h2>
          {g.categories.map(({ category, services }) => (
            <div key={category.id} className={s.category}>
              <h3 className={s.categoryTitle}>{category.text}</h3>
              <div className={ui.tableWrap}>
                <table className={ui.table} style={{ tableLayout: 'fixed', minWidth: 720 }}>
                  <colgroup>
                    <col style={{ width: '38%' }} />
                    <col style={{ width: '12%' }} />
                    <col style={{ width: '10%' }} />
                    <col style={{ width: '12%' }} />
                    <col style={{ width: '14%' }} />
                    <col style={{ width: '14%' }} />
                  </colgroup>
                  <thead>
                    <tr>
                      <th scope="col" className={ui.th}>상품</th>
                      <th scope="col" className={`${ui.th} ${ui.num}`}>1개당 단가</th>
                      <th scope="col" className={`${ui.th} ${ui.num}`}>최소</th>
                      <th scope="col" className={`${ui.th} ${ui.num}`}>최대</th>
                      <th scope="col" className={`${ui.th} ${ui.num}`}>1,000개 가격</th>
                      <th scope="col" className={ui.th}>비고</th>
                    </tr>
                  </thead>
                  <tbody>
                    {services.map((x) => (
                      <tr key={x.id}>
                        <td className={ui.tdWrap} style={{ fontWeight: 600 }}>{x.text}</td>
                        <td className={`${ui.td} ${ui.num}`} style={{ fontWeight: 700 }}>
                          {won(x.unitPriceDeci)}
                          {/* Issue 40: the member's own price, with the catalogue's beside it. */}
                          {x.listUnitPriceDeci !== undefined && <del className={ui.muted} style={{ display: 'block', fontWeight: 400, fontSize: 12 }} aria-label={`기본 단가 ${won(x.listUnitPriceDeci)}`}>{won(x.listUnitPriceDeci)}</del>}
                        </td>
                        <td className={`${ui.td} ${ui.num}`}>{count(x.min)}</td>
                        <td className={`${ui.td} ${ui.num}`}>{count(x.max)}</td>
                        <td className={`${ui.td} ${ui.num}`}>{won(x.unitPriceDeci * 1000)}</td>
                        <td className={ui.td}>
                          <span className={ui.row} style={{ gap: 6 }}>
                            {x.listUnitPriceDeci !== undefined && <span className={ui.badge.success} data-testid="member-price-badge">회원 단가</span>}
                            {x.enableAuto && <span className={ui.badge.primary}>자동 주문</span>}
                            {x.isReadOnly && <span className={ui.badge.warning}>주문 중지</span>}
                          </span>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          ))}
        </section>
      ))}
      <p className={ui.muted} style={{ textAlign: 'center' }}>
        <Link to="/order" className={ui.link}>주문하러 가기 →</Link>
      </p>
    </div>
  );
}
