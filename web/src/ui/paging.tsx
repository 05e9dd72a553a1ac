import useSWR from 'swr';
import { pagedKey } from '../lib/paged-keys.ts';
import type { Page } from '../lib/types.ts';
import * as ui from './ui.css.ts';

export { pageSize } from '../lib/paged-keys.ts';

/** One page of a member's list (`{ items, page, pageSize, hasNext }` of the BFF). */
export function usePaged<T>(path: string, page: number, status: number | null = null) {
  return useSWR<Page<T>>(pagedKey(path, page, status), { keepPreviousData: true });
}

export function Pager({ page, hasNext, onPage, label }: { page: number; hasNext: boolean; onPage(page: number): void; label: string }) {
  if (page === 1 && !hasNext) return null;
  return (
    <nav className={ui.pager} aria-label={`${label} 페이지`}>
      <button type="button" className={`${ui.button.secondary} ${ui.small}`} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        이전
      </button>
      <span aria-current="page" className={ui.muted}>
        {page} 페이지
      </span>
      <button type="button" className={`${ui.button.secondary} ${ui.small}`} disabled={!hasNext} onClick={() => onPage(page + 1)}>
        다음
      </button>
    </nav>
  );
}

export function FilterChips<V extends string | number | null>({
  options,
  value,
  onChange,
  label,
}: {
  options: ReadonlyArray<{ value: V; label: string }>;
  value: V;
  onChange(value: V): void;
  label: string;
}) {
  return (
    <div className={ui.chips} role="group" aria-label={label}>
      {options.map((o) => (
        <button key={String(o.value)} type="button" className={ui.chip} aria-pressed={o.value === value} onClick={() => onChange(o.value)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}
