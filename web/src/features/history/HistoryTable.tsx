import { Fragment, type ReactNode, useState } from 'react';
import { useMediaQuery } from '../../ui/media.ts';
import { FilterChips, Pager, usePaged } from '../../ui/paging.tsx';
import * as ui from '../../ui/ui.css.ts';
import { narrowScreen } from '../../ui/breakpoint.ts';
import * as s from '../../ui/row-cards.css.ts';
import { historyText as t } from './messages.ts';

/**
 * One history list: its status filter (a new filter starts again at page 1), its page and the paged
 * answer. An order answered 202 shows up once its payment settles: the live channel re-reads the
 * list then (lib/live.ts).
 */
export function useHistory<T extends { id: string | number }>(path: string) {
  const [status, setStatusOnly] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const paged = usePaged<T>(path, page, status);
  const setStatus = (value: number | null) => {
    setStatusOnly(value);
    setPage(1);
  };
  return { status, setStatus, page, setPage, data: paged.data, error: paged.error as unknown, revalidate: () => paged.mutate() };
}

export type History<T extends { id: string | number }> = ReturnType<typeof useHistory<T>>;

/** One field of a history row: its heading, its value, and whether it is a right-aligned number. */
export type Column<T> = { head: string; cell(item: T): ReactNode; numeric?: boolean; wrap?: boolean };

/**
 * The frame both history screens share: title, filter chips, the list, empty and error texts,
 * pager. From 880 px up the list is a table; below, each row is a card with every field, so
 * nothing needs sideways scrolling on a phone. Only the view the screen shows is rendered (half the
 * work when the list arrives; the CSS still hides the other one where script cannot tell the
 * width). `actions` is the one place a row's buttons come from (cancel today; more per row later)
 * — the table's last column and the card's footer show it.
 */
export function HistoryTable<T extends { id: string | number }>(props: {
  title: string;
  lead: string;
  filters: Array<{ value: number | null; label: string }>;
  history: History<T>;
  columns: ReadonlyArray<Column<T>>;
  /** The column that heads a card (order number) and the one shown beside it (status). */
  cardTitle(item: T): ReactNode;
  cardBadge(item: T): ReactNode;
  actions?: { head: string; render(item: T): ReactNode };
}) {
  const { history, columns, actions } = props;
  const items = history.data?.items ?? [];
  const narrow = useMediaQuery(narrowScreen);
  return (
    <div className={`${ui.page} ${ui.wide}`}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{props.title}</h1>
        <p className={ui.pageLead}>{props.lead}</p>
      </header>
      <section className={ui.card}>
        <div className={ui.stack}>
          <FilterChips label={t.filter} options={props.filters} value={history.status} onChange={history.setStatus} />
          {narrow !== true && (
            <div className={`${ui.tableWrap} ${s.tableView}`}>
              <table className={ui.table}>
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th key={c.head} scope="col" className={c.numeric ? `${ui.th} ${ui.num}` : ui.th}>{c.head}</th>
                    ))}
                    {actions && <th scope="col" className={ui.th}>{actions.head}</th>}
                  </tr>
                </thead>
                <tbody>
                  {items.map((item) => (
                    <tr key={item.id}>
                      {columns.map((c) => (
                        <td key={c.head} className={c.wrap ? ui.tdWrap : c.numeric ? `${ui.td} ${ui.num}` : ui.td}>{c.cell(item)}</td>
                      ))}
                      {actions && <td className={ui.td}>{actions.render(item)}</td>}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {narrow !== false && (
            <ul className={s.cardView} aria-label={props.title}>
              {items.map((item) => (
                <li key={item.id} className={s.card} data-testid="history-card">
                  <div className={s.cardHead}>
                    <span>{props.cardTitle(item)}</span>
                    {props.cardBadge(item)}
                  </div>
                  <dl className={s.fields}>
                    {columns.map((c) => (
                      <Fragment key={c.head}>
                        <dt className={s.fieldName}>{c.head}</dt>
                        <dd className={s.fieldValue}>{c.cell(item)}</dd>
                      </Fragment>
                    ))}
                  </dl>
                  {actions && <div className={s.cardActions}>{actions.render(item)}</div>}
                </li>
              ))}
            </ul>
          )}
          {history.data && items.length === 0 && <p className={ui.empty}>{t.empty}</p>}
          {history.error !== undefined && !history.data && <p className={ui.empty}>{t.loadFailed}</p>}
          <Pager page={history.page} hasNext={history.data?.hasNext ?? false} onPage={history.setPage} label={props.title} />
        </div>
      </section>
    </div>
  );
}
