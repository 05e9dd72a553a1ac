import { useEffect, useRef } from 'react';
import { useSWRConfig } from 'swr';
import { post } from './api.ts';
import { config } from './config.ts';
import type { LiveNotice, LiveTouch } from './contracts.ts';
import { type LiveConnection, openLiveConnection } from './live-connection.ts';

/** The SWR keys each kind of update makes stale (the profile key carries the token: match by path). */
const stale: Record<LiveTouch, (key: unknown) => boolean> = {
  balance: (key) => Array.isArray(key) && key[0] === '/auth/profile',
  orders: (key) => typeof key === 'string' && key.startsWith('/service/order-history'),
  autoOrders: (key) => typeof key === 'string' && key.startsWith('/service/auto-order-history'),
  topUps: (key) => typeof key === 'string' && key.startsWith('/service/point-history'),
};
const everything = Object.keys(stale) as LiveTouch[];

function liveUrl(ticket: string, lastEventId: string | null): string {
  const query = new URLSearchParams({ ticket });
  if (lastEventId !== null) query.set('lastEventId', lastEventId);
  return `${config.apiBase}/live?${query.toString()}`;
}

/**
 * Runs `start` once the page has loaded and the browser is idle (at most `timeoutMs` after the
 * load event), so opening the stream does not compete with the page's first paint and data.
 * Returns a function that cancels a start still waiting.
 */
function whenLoadedAndIdle(start: () => void, timeoutMs = 1000): () => void {
  let cancel = () => {};
  const idle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(start, { timeout: timeoutMs });
      cancel = () => window.cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(start, 0);
      cancel = () => clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') idle();
  else {
    window.addEventListener('load', idle, { once: true });
    cancel = () => window.removeEventListener('load', idle);
  }
  return () => cancel();
}

/**
 * While a member is signed in, keeps the BFF's live stream open and re-reads (SWR mutate) the
 * balance and the histories the moment an event concerns them — a top-up approved, an order
 * moved, a run placed, a refund — instead of polling. The stream opens once the page has loaded
 * and gone idle, and is closed while the page is hidden; when it shows again the stream resumes
 * from the last update seen (the server replays what was missed, or the page re-reads everything).
 * `member` names the signed-in member so a
 * new sign-in opens a new stream; `onNotice` shows completions and refunds.
 */
export function useLiveUpdates(member: string | null, onNotice: (notice: LiveNotice) => void): void {
  const { mutate } = useSWRConfig();
  const notice = useRef(onNotice);
  notice.current = onNotice;

  useEffect(() => {
    if (member === null || typeof EventSource === 'undefined') return;
    const reread = (touches: readonly LiveTouch[]) => {
      for (const touch of touches) void mutate(stale[touch]);
    };
    let connection: LiveConnection | null = null;
    const cancelStart = whenLoadedAndIdle(() => {
      connection = openLiveConnection({
        ticket: async () => (await post<{ ticket: string }>('/live/ticket')).ticket,
        url: liveUrl,
        handlers: {
          update: (update) => {
            reread(update.touches);
            if (update.notice) notice.current(update.notice);
          },
          resync: () => reread(everything),
        },
        paused: document.hidden,
      });
    });
    const onVisibility = () => {
      if (document.hidden) connection?.pause();
      else connection?.resume();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelStart();
      document.removeEventListener('visibilitychange', onVisibility);
      connection?.close();
    };
  }, [member, mutate]);
}
