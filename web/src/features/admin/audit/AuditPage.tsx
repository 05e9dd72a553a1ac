import { type FormEvent, useId, useState } from 'react';
import useSWR from 'swr';
import { auditActions } from '../../../lib/contracts.ts';
import { dateTime } from '../../../lib/format.ts';
import type { Page } from '../../../lib/types.ts';
import { Pager } from '../../../ui/paging.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import * as a from './audit.css.ts';
import { type AuditRow, changesOf } from './describe-change.ts';
import { auditText as t } from './messages.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';

const pageSize = 20;
type Filters = { actor: string; action: string; target: string; beneficiary: string; from: string; to: string };
const noFilters: Filters = { actor: '', action: '', target: '', beneficiary: '', from: '', to: '' };

/** Issue 12: every operator action, searched and paged on the server; admins only. */
export default function AuditPage() {
  const ids = { actor: useId(), action: useId(), target: useId(), beneficiary: useId(), from: useId(), to: useId() };
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [page, setPage] = useState(1);
  const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== '') query.set(key, value.trim());
  const list = useSWR<Page<AuditRow>>(`/admin/audit?${query.toString()}`, { keepPreviousData: true });
  const rows = list.data?.items ?? [];

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setPage(1);
  };
  const reset = () => {
    setDraft(noFilters);
    setFilters(noFilters);
    setPage(1);
  };
  const input = (key: keyof Filters, id: string, label: string, width: number, type = 'text') => (
    <span className={a.field}>
      <label htmlFor={id} className={a.fieldLabel}>
        {label}
      </label>
      <input id={id} type={type} className={`${ui.input} ${s.searchInput}`} style={{ width }} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} />
    </span>
  );

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
      </header>
      <section className={ui.card}>
        <form className={s.filterRow} role="search" onSubmit={search}>
          {input('actor', ids.actor, t.actorFilter, 150)}
          <span className={a.field}>
            <label htmlFor={ids.action} className={a.fieldLabel}>
              {t.actionFilter}
            </label>
            <select id={ids.action} className={`${ui.input} ${s.searchInput}`} style={{ width: 190 }} value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })}>
              <option value="">{t.allActions}</option>
              {auditActions.map((action) => (
                <option key={action} value={action}>
                  {t.actions[action]}
                </option>
              ))}
            </select>
          </span>
          {input('target', ids.target, t.targetFilter, 170)}
          {input('beneficiary', ids.beneficiary, t.beneficiaryFilter, 150)}
          {input('from', ids.from, t.from, 150, 'date')}
          {input('to', ids.to, t.to, 150, 'date')}
          <span className={a.buttons}>
            <button type="submit" className={`${ui.button.secondary} ${ui.small}`}>
              {t.search}
            </button>
            <button type="button" className={`${ui.button.ghost} ${ui.small}`} onClick={reset}>
              {t.reset}
            </button>
          </span>
        </form>
      </section>
      <ConsoleTable
        label={t.title}
        list={list}
        rows={rows.length}
        emptyText={t.empty}
        failedText={t.loadFailed}
        columns={[t.columns.at, t.columns.actor, t.columns.action, t.columns.target, t.columns.beneficiary, t.columns.change]}
      >
        {rows.map((row) => (
          <tr key={row.id} data-testid={`audit-${row.id}`}>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span>{dateTime(row.at).slice(0, 10)}</span>
                <span className={s.sub}>{dateTime(row.at).slice(11)}</span>
              </span>
            </td>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span>{row.actor.loginId ?? t.unknownOperator}</span>
                <span className={s.sub}>{t.roles[row.actor.role] ?? row.actor.role}</span>
              </span>
            </td>
            <td className={ui.td}>{(t.actions as Record<string, string>)[row.action] ?? row.action}</td>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span>{(t.targets as Record<string, string>)[row.target.type] ?? row.target.type}</span>
                <span className={s.sub}>{row.target.loginId ?? row.target.id}</span>
              </span>
            </td>
            <td className={ui.td} data-testid="audit-beneficiary">
              {row.beneficiary ? (row.beneficiary.loginId ?? row.beneficiary.userId) : t.noBeneficiary}
            </td>
            <td className={`${ui.td} ${a.changeCell}`}>
              <Change row={row} />
            </td>
          </tr>
        ))}
      </ConsoleTable>
      <Pager page={page} hasNext={list.data?.hasNext ?? false} onPage={setPage} label={t.page} />
    </>
  );
}

/** The changed fields, one a line: "상태: 입금 대기 → 충전 완료". */
function Change({ row }: { row: AuditRow }) {
  const changes = changesOf(row);
  const note = row.before === null ? t.created : row.after === null ? t.deleted : changes.length === 0 ? t.noChange : null;
  return (
    <dl className={a.changes}>
      {note && <dt className={a.note}>{note}</dt>}
      {changes.map((c) => (
        <div key={c.field} className={a.change}>
          <dt className={a.changeKey}>{c.label}</dt>
          <dd className={a.changeValue}>
            {c.before !== null && <span className={a.before}>{c.before}</span>}
            {c.before !== null && c.after !== null && (
              <span className={a.arrow} aria-label="에서">
                →
              </span>
            )}
            {c.after !== null && <span className={a.after}>{c.after}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
