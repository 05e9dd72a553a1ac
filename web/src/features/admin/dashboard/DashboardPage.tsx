import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { useAuth } from '../../../auth/auth.tsx';
import { messageOf } from '../../../lib/api.ts';
import { won } from '../../../lib/format.ts';
import { OrderStatus } from '../../../lib/statuses.ts';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import type { Dashboard, MoneyDay } from './types.ts';
import { ReconcileCard } from './ReconcileCard.tsx';
import { WeekChart } from './WeekChart.tsx';
import { AttentionItems } from './AttentionItems.tsx';

const sum = (days: MoneyDay[], key: 'salesDeci' | 'refundsDeci' | 'topUpsDeci' | 'topUpCount') => days.reduce((total, d) => total + d[key], 0);

/** Issue 12: the console's landing screen — today and the last 7 days at a glance, and what waits. */
export default function DashboardPage() {
  const { data, error } = useSWR<Dashboard>('/admin/dashboard', { refreshInterval: 30_000 });
  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.dashboard}</h1>
        <p className={ui.pageLead}>{t.dashboardLead}</p>
      </header>
      {error && !data && (
        <div className={ui.empty} role="alert">
          {messageOf(error, t.loadFailed)}
        </div>
      )}
      {data && <Body data={data} />}
    </>
  );
}

function Body({ data }: { data: Dashboard }) {
  // Dead letters are the admin's (staff get null, which would read as "Kafka not readable").
  const admin = useAuth().profile?.role === 'admin';
  const today = data.days.at(-1) ?? { date: '', salesDeci: 0, refundsDeci: 0, topUpsDeci: 0, topUpCount: 0 };
  const figures = [
    { label: t.sales, today: won(today.salesDeci), week: won(sum(data.days, 'salesDeci')), testId: 'sales' },
    { label: t.refunds, today: won(today.refundsDeci), week: won(sum(data.days, 'refundsDeci')), testId: 'refunds' },
    {
      label: t.approvedTopUps,
      today: `${won(today.topUpsDeci)} · ${t.topUpCount(today.topUpCount)}`,
      week: `${won(sum(data.days, 'topUpsDeci'))} · ${t.topUpCount(sum(data.days, 'topUpCount'))}`,
      testId: 'top-ups',
    },
  ];
  const f = data.fulfillment;
  return (
    <>
      <div className={s.statGrid}>
        {figures.map((x) => (
          <section key={x.testId} className={`${ui.card} ${s.stat}`} data-testid={`stat-${x.testId}`} aria-label={x.label}>
            <span className={s.statLabel}>
              {x.label} · {t.today}
            </span>
            <span className={s.statValue}>{x.today}</span>
            <span className={s.statSub}>
              {t.week} {x.week}
            </span>
          </section>
        ))}
      </div>
      <ReconcileCard />
      <div className={s.dashGrid}>
        <section className={ui.card} aria-labelledby="chart-title">
          <h2 id="chart-title" className={ui.cardTitle}>
            {t.chartTitle}
          </h2>
          <WeekChart days={data.days} />
        </section>
        <section className={ui.card} aria-labelledby="todo-title">
          <h2 id="todo-title" className={ui.cardTitle}>
            {t.todo}
          </h2>
          <ul className={s.list} data-testid="todo">
            <Todo label={t.pendingTopUps} count={data.pendingTopUps} to="/admin/top-ups" />
            {f && <Todo label={t.reviewForwards} count={f.review} to="/admin/review" />}
            {f && <Todo label={t.failedForwards} count={f.failed} to={null} />}
            {f && f.notices !== null && <Todo label={t.providerNoticesTodo} count={f.notices ?? 0} to="/admin/providers" testId="todo-notices" />}
            {data.deadLetters && <Todo label={t.deadLetters} count={data.deadLetters.total} to={null} testId="todo-dead-letters" />}
            <AttentionItems />
          </ul>
        </section>
      </div>
      <div className={s.dashGrid}>
        <section className={ui.card} aria-labelledby="status-title">
          <h2 id="status-title" className={ui.cardTitle}>
            {t.ordersByStatus}
          </h2>
          <ul className={s.list} data-testid="orders-by-status">
            {Object.values(OrderStatus.values).map((status) => (
              <li key={status} className={s.listRow}>
                <span>{OrderStatus.label(status)}</span>
                <strong>{t.topUpCount(data.ordersByStatus[String(status)] ?? 0)}</strong>
              </li>
            ))}
          </ul>
        </section>
        {f !== null && f.providers !== null && (
          <section className={ui.card} aria-labelledby="balances-title">
            <h2 id="balances-title" className={ui.cardTitle}>
              {t.providerBalances}
            </h2>
            {f.providers.length === 0 ? (
              <p className={ui.muted}>{t.noProviders}</p>
            ) : (
              <ul className={s.list} data-testid="provider-balances">
                {f.providers.map((p) => (
                  <li key={p.id} className={s.listRow}>
                    <span>{p.name}</span>
                    <span className={s.endStack}>
                      <strong>{p.balance === null ? t.balanceUnknown : `${p.balance} ${p.currency}`}</strong>
                      {p.balanceLow && <span className={ui.badge.danger}>{t.balanceLow}</span>}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </div>
      {admin && data.deadLetters !== undefined && <DeadLetters dead={data.deadLetters} />}
    </>
  );
}

/** Issue 12: dead-lettered events, per consumer that refused them (admins; counted from Kafka by the BFF). */
function DeadLetters({ dead }: { dead: Dashboard['deadLetters'] }) {
  return (
    <section className={ui.card} aria-labelledby="dead-title" data-testid="dead-letters">
      <h2 id="dead-title" className={ui.cardTitle}>
        {t.deadLetters}
      </h2>
      <p className={ui.muted}>{t.deadLettersLead}</p>
      {dead === null || dead === undefined ? (
        <p className={ui.muted}>{t.deadLettersUnavailable}</p>
      ) : dead.topics.length === 0 ? (
        <p className={ui.muted}>{t.deadLettersNone}</p>
      ) : (
        <ul className={s.list}>
          {dead.topics.map((d) => (
            <li key={d.topic} className={s.listRow}>
              <span className={s.twoLines}>
                <span>{t.deadLetterConsumer(d.consumer)}</span>
                <code className={s.sub}>{d.topic}</code>
              </span>
              <span className={ui.badge.danger}>{t.count(d.count)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Todo({ label, count, to, testId }: { label: string; count: number; to: string | null; testId?: string }) {
  return (
    <li className={s.listRow} data-testid={testId}>
      {to ? (
        <Link to={to} className={ui.link}>
          {label}
        </Link>
      ) : (
        <span>{label}</span>
      )}
      <span className={count > 0 ? ui.badge.danger : ui.badge.neutral}>{t.count(count)}</span>
    </li>
  );
}
