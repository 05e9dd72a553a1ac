import { type ReactNode, useState } from 'react';
import { useAuth } from '../../auth/auth.tsx';
import { FilterChips, Pager, usePaged } from '../../ui/paging.tsx';
import * as ui from '../../ui/ui.css.ts';
import { useAwaitOrder } from './await-order.ts';
import { historyText as t } from './messages.ts';

/**
 * One history list: its status filter (a new filter starts again at page 1), its page, the paged
 * answer, and the wait for an order the order screen just placed (see useAwaitOrder).
 */
export function useHistory<T extends { id: string | number }>(path: string) {
  const auth = useAuth();
  const [status, setStatusOnly] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const paged = usePaged<T>(path, page, status);
  useAwaitOrder(paged.data, () => paged.mutate(), () => void auth.refreshProfile());
  const setStatus = (value: number | null) => {
    setStatusOnly(value);
    setPage(1);
  };
  return { status, setStatus, page, setPage, data: paged.data, error: paged.error as unknown, revalidate: () => paged.mutate() };
}

export type History<T extends { id: string | number }> = ReturnType<typeof useHistory<T>>;

/** The frame both history screens share: title, filter chips, the table with its headings, empty and error texts, pager. */
export function HistoryTable<T extends { id: string | number }>(props: {
  title: string;
  lead: string;
  filters: Array<{ value: number | null; label: string }>;
  history: History<T>;
  heads: string[];
  /** Indexes of the right-aligned number columns. */
  numeric: number[];
  children: ReactNode;
}) {
  const { history } = props;
  return (
    <div className={`${ui.page} ${ui.wide}`}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{props.title}</h1>
        <p className={ui.pageLead}>{props.lead}</p>
      </header>
      <section className={ui.card}>
        <div className={ui.stack}>
          <FilterChips label={t.filter} options={props.filters} value={history.status} onChange={history.setStatus} />
          <div className={ui.tableWrap}>
            <table className={ui.table}>
              <thead>
                <tr>
                  {props.heads.map((h, i) => (
                    <th key={h} scope="col" className={props.numeric.includes(i) ? `${ui.th} ${ui.num}` : ui.th}>{h}</th>
                  ))}
                </tr>
              </thead>
              <tbody>{props.children}</tbody>
            </table>
            {history.data && history.data.items.length === 0 && <p className={ui.empty}>{t.empty}</p>}
            {history.error !== undefined && !history.data && <p className={ui.empty}>{t.loadFailed}</p>}
          </div>
          <Pager page={history.page} hasNext={history.data?.hasNext ?? false} onPage={history.setPage} label={props.title} />
        </div>
      </section>
    </div>
  );
}
