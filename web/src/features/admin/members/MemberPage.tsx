import type { AdminMemberPageViewBody } from '@smm/contracts/http';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import useSWR from 'swr';
import { messageOf } from '../../../lib/api.ts';
import type { MemberRole } from '../../../lib/contracts.ts';
import { count, dateTime, won } from '../../../lib/format.ts';
import { ChargeStatus, OrderStatus } from '../../../lib/statuses.ts';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import { AdjustForm } from './AdjustForm.tsx';
import { RatesCard } from './RatesCard.tsx';
import { RestrictionCard } from './RestrictionCard.tsx';

/** GET /api/admin/members/:userId as the BFF composes it (@smm/contracts/http admin-console): a part null when its service could not answer. */
type Detail = AdminMemberPageViewBody;

const statusLabel = (e: { is(v: unknown): v is number; label(v: number): string }, v: number) => (e.is(v) ? e.label(v) : String(v));

/** Issue 12: one member — profile, balance, ledger with adjustment reasons, top-ups, orders; admins adjust. */
export default function MemberPage({ role }: { role: MemberRole }) {
  const { userId = '' } = useParams();
  const detail = useSWR<Detail>(`/admin/members/${encodeURIComponent(userId)}`);
  if (detail.error && !detail.data) {
    return (
      <div className={ui.empty} role="alert">
        {messageOf(detail.error, t.loadFailed)}
      </div>
    );
  }
  const d = detail.data;
  if (!d) return null;
  const reasons = new Map((d.adjustments?.items ?? []).map((a) => [`adjustment-${a.id}`, a.reason]));
  const m = d.member;
  const facts: Array<[string, string]> = [
    [t.memberColumns.email, m.email ?? t.none],
    [t.memberColumns.phone, m.phoneNumber ?? t.none],
    [t.apiKeyPrefix, m.apiKeyPrefix ? `${m.apiKeyPrefix}…` : t.apiKeyNone],
    [t.referralCode, m.referralCode ?? t.none],
    [t.referredBy, m.referredBy ?? t.none],
    [t.registerWhere, m.registerWhere ?? t.none],
    [t.memberColumns.createdAt, dateTime(m.createdAt)],
  ];
  return (
    <>
      <header className={ui.pageHeader}>
        <Link to="/admin/members" className={ui.link}>
          ← {t.backToMembers}
        </Link>
        <h1 className={ui.pageTitle}>{t.memberTitle(m.loginId)}</h1>
      </header>
      <section className={ui.card}>
        <p className={ui.label}>{t.balance}</p>
        <p className={ui.pageTitle} data-testid="member-balance">
          {won(d.balance.pointDeci)}
        </p>
        <dl className={s.details}>
          {facts.map(([k, v]) => (
            <div key={k} style={{ display: 'contents' }}>
              <dt className={s.detailKey}>{k}</dt>
              <dd className={s.detailValue}>{v}</dd>
            </div>
          ))}
        </dl>
      </section>
      {m.role === 'member' && <RestrictionCard userId={m.userId} current={m.restriction ?? null} history={m.restrictionHistory ?? []} onDone={() => void detail.mutate()} />}
      {role === 'admin' && <AdjustForm userId={m.userId} onDone={() => void detail.mutate()} />}
      <RatesCard userId={m.userId} role={role} />
      <Section title={t.ledger} empty={!d.ledger?.items.length}>
        <thead>
          <tr>
            <th className={ui.th}>{t.ledgerColumns.createdAt}</th>
            <th className={ui.th}>{t.ledgerColumns.source}</th>
            <th className={`${ui.th} ${ui.num}`}>{t.ledgerColumns.delta}</th>
            <th className={`${ui.th} ${ui.num}`}>{t.ledgerColumns.after}</th>
            <th className={ui.th}>{t.ledgerColumns.reference}</th>
          </tr>
        </thead>
        <tbody>
          {d.ledger?.items.map((e) => (
            <tr key={e.seq}>
              <td className={ui.td}>{dateTime(e.createdAt)}</td>
              <td className={ui.td}>{t.ledgerSources[e.source] ?? e.source}</td>
              <td className={`${ui.td} ${ui.num}`}>{`${e.deltaDeci > 0 ? '+' : '-'}${won(Math.abs(e.deltaDeci))}`}</td>
              <td className={`${ui.td} ${ui.num}`}>{won(e.balanceAfterDeci)}</td>
              <td className={ui.tdWrap}>{reasons.get(e.referenceId) ?? e.referenceId}</td>
            </tr>
          ))}
        </tbody>
      </Section>
      <Section title={t.memberTopUps} empty={!d.topUps?.items.length}>
        <thead>
          <tr>
            <th className={ui.th}>{t.columns.id}</th>
            <th className={ui.th}>{t.columns.createdAt}</th>
            <th className={ui.th}>{t.columns.depositor}</th>
            <th className={`${ui.th} ${ui.num}`}>{t.columns.transfer}</th>
            <th className={ui.th}>{t.columns.status}</th>
          </tr>
        </thead>
        <tbody>
          {d.topUps?.items.map((x) => (
            <tr key={x.id}>
              <td className={ui.td}>{x.id}</td>
              <td className={ui.td}>{dateTime(x.createdAt)}</td>
              <td className={ui.td}>{x.name}</td>
              <td className={`${ui.td} ${ui.num}`}>{won(x.transferDeci)}</td>
              <td className={ui.td}>{statusLabel(ChargeStatus, x.status)}</td>
            </tr>
          ))}
        </tbody>
      </Section>
      {d.orders === null ? (
        <p className={ui.muted}>{t.ordersUnavailable}</p>
      ) : (
        <Section title={t.memberOrders} empty={!d.orders.items.length}>
          <thead>
            <tr>
              <th className={ui.th}>{t.orderColumns.id}</th>
              <th className={ui.th}>{t.orderColumns.createdAt}</th>
              <th className={ui.th}>{t.orderColumns.service}</th>
              <th className={ui.th}>{t.orderColumns.link}</th>
              <th className={`${ui.th} ${ui.num}`}>{t.orderColumns.amount}</th>
              <th className={`${ui.th} ${ui.num}`}>{t.orderColumns.point}</th>
              <th className={ui.th}>{t.orderColumns.status}</th>
            </tr>
          </thead>
          <tbody>
            {d.orders.items.map((o) => (
              <tr key={o.id}>
                <td className={ui.td}>{o.id}</td>
                <td className={ui.td}>{dateTime(o.createdAt)}</td>
                <td className={ui.tdWrap}>{o.serviceText}</td>
                <td className={ui.td}>
                  <span className={ui.ellipsis}>{o.link}</span>
                </td>
                <td className={`${ui.td} ${ui.num}`}>{count(o.amount)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(o.pointDeci)}</td>
                <td className={ui.td}>{o.status === null ? (o.payment === 'rejected' ? t.paymentRejected : t.paymentAwaiting) : statusLabel(OrderStatus, o.status)}</td>
              </tr>
            ))}
          </tbody>
        </Section>
      )}
    </>
  );
}

function Section({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h2 className={ui.cardTitle}>{title}</h2>
      <div className={ui.tableWrap}>
        <table className={`${ui.table} ${s.table}`} aria-label={title}>
          {children}
        </table>
        {empty && <p className={ui.empty}>{t.listEmpty}</p>}
      </div>
    </section>
  );
}
