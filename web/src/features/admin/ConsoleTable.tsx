import type { ReactNode } from 'react';
import * as ui from '../../ui/ui.css.ts';
import * as s from './admin.css.ts';
import { type Loaded, ListState } from './ListState.tsx';

/** A header cell: its text, or its content with `num` (right-aligned figures) and extra classes. */
export type ConsoleColumn = string | { label: ReactNode; num?: boolean; className?: string };

/**
 * A console list: the table named `label` (busy while `list` loads), its header row, the rows
 * given as children, and below them what ListState says (the load failure or the empty text) and
 * any `notes` of the page about the list.
 */
export function ConsoleTable({
  label,
  list,
  rows,
  columns,
  emptyText,
  failedText,
  retryLabel,
  notes,
  children,
}: {
  label: string;
  list: Loaded & { isLoading?: boolean };
  rows: number;
  columns: readonly ConsoleColumn[];
  emptyText: string;
  failedText: string;
  retryLabel?: string;
  notes?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={ui.tableWrap}>
      <table className={`${ui.table} ${s.table}`} aria-label={label} aria-busy={list.isLoading}>
        <thead>
          <tr>
            {columns.map((column, i) => {
              const { label: text, num = false, className } = typeof column === 'string' ? { label: column } : column;
              return (
                <th key={i} className={[ui.th, num ? ui.num : '', className ?? ''].filter(Boolean).join(' ')}>
                  {text}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      <ListState list={list} rows={rows} emptyText={emptyText} failedText={failedText} retryLabel={retryLabel} />
      {notes}
    </div>
  );
}
