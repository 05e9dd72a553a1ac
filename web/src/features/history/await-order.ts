import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { everySecond, followUp } from '../../lib/follow-up.ts';
import type { Page } from '../../lib/types.ts';

/**
 * An order answered 202 (payment pending) is written to the history only when the wallet's answer
 * arrives, so the history opened right after it may not list it yet. The order screen passes the
 * order's id in the navigation state and the history re-reads its list every second, up to
 * `awaitSeconds`, until the id appears.
 */
export type AwaitingOrderState = { awaitingOrderId: string };

export const awaitSeconds = 10;

export function awaitingOrderState(id: string | number): AwaitingOrderState {
  return { awaitingOrderId: String(id) };
}

function awaitedId(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('awaitingOrderId' in state)) return null;
  const id = (state as { awaitingOrderId: unknown }).awaitingOrderId;
  return typeof id === 'string' && id !== '' ? id : null;
}

const lists = (page: Page<{ id: string | number }> | undefined, id: string) => page?.items.some((item) => String(item.id) === id) ?? false;

/**
 * Re-reads the shown page (SWR `mutate`) until the awaited order is in it, then calls `onFound` (the
 * payment is settled by then, so the balance is worth re-reading) and forgets the state.
 */
export function useAwaitOrder<T extends { id: string | number }>(
  page: Page<T> | undefined,
  revalidate: () => Promise<Page<T> | undefined>,
  onFound: () => void = () => {},
) {
  const location = useLocation();
  const navigate = useNavigate();
  const id = awaitedId(location.state);
  // Read through a ref: only the awaited id (re)starts the polling, not every new page or location.
  const current = useRef({ page, revalidate, onFound, location, navigate });
  current.current = { page, revalidate, onFound, location, navigate };

  useEffect(() => {
    if (id === null) return;
    // A reload or a later visit of this entry does not poll again.
    const forget = () => {
      const { location: at, navigate: go } = current.current;
      if (awaitedId(at.state) === id) go({ pathname: at.pathname, search: at.search }, { replace: true, state: null });
    };
    const delays = everySecond(awaitSeconds);
    const last = delays.length;
    let round = 0;
    return followUp(async () => {
      round += 1;
      const found = lists(current.current.page, id) || lists(await current.current.revalidate(), id);
      if (found) current.current.onFound();
      if (found || round === last) forget();
      return found;
    }, delays);
  }, [id]);
}
