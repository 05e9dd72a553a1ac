import { messageOf } from '../../lib/api.ts';
import * as ui from '../../ui/ui.css.ts';

export type Loaded = { error?: unknown; data?: unknown; mutate?: () => Promise<unknown> };

/**
 * What a console table shows below its rows: the server's Korean message when the first load
 * failed (with a retry button when `retryLabel` is given), or the empty text once an answer with no
 * rows came. Nothing while loading or when there are rows.
 */
export function ListState({ list, rows, emptyText, failedText, retryLabel }: { list: Loaded; rows: number; emptyText: string; failedText: string; retryLabel?: string }) {
  if (list.error && !list.data) {
    return (
      <div className={ui.empty} role="alert">
        {messageOf(list.error, failedText)}
        {retryLabel !== undefined && list.mutate && (
          <>
            {' '}
            <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => void list.mutate?.()}>
              {retryLabel}
            </button>
          </>
        )}
      </div>
    );
  }
  return list.data && rows === 0 ? <p className={ui.empty}>{emptyText}</p> : null;
}
