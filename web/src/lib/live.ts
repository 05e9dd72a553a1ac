import { useEffect, useRef } from 'react';
import { useSWRConfig } from 'swr';
import { changedPasswordHere, endSessionBecause, passwordChangedMessage, post } from './api.ts';
import { config } from './config.ts';
import type { LiveNotice, LiveTouch } from './contracts.ts';
import { openLiveConnection } from './live-connection.ts';

/** The SWR keys each kind of update makes stale (the profile key carries the token: match by path). */
const stale: Record<LiveTouch, (key: unknown) => boolean> = {
  balance: (key) => Array.isArray(key) && key[0] === '/auth/profile',
  orders: (key) => typeof key === 'string' && key.startsWith('/service/order-history'),
  autoOrders: (key) => typeof key === 'string' && key.startsWith('/service/auto-order-history'),
  topUps: (key) => typeof key === 'string' && key.startsWith('/service/point-history'),
  // Support tickets (issue 40): the list, an open thread and the menu's unread mark.
  tickets: (key) => typeof key === 'string' && key.startsWith('/support/'),
};
const everything = Object.keys(stale) as LiveTouch[];

function liveUrl(ticket: string, lastEventId: string | null): string {
  const query = new URLSearchParams({ ticket });
  if (lastEventId !== null) query.set('lastEventId', lastEventId);
  return `${config.apiBase}/live?${query.toString()}`;
}

/**
 * While a member is signed in, keeps the BFF's live stream open and re-reads (SWR mutate) the
 * balance and the histories the moment an event concerns them — a top-up approved, an order
 * moved, a run placed, a refund — instead of polling. The stream is closed while the page is
 * hidden; when it shows again it resumes from the last update seen (the server replays what was
 * missed, or the page re-reads everything). `member` names the signed-in member so a new sign-in
 * opens a new stream; `onNotice` shows completions and refunds.
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
    const connection = openLiveConnection({
      ticket: async () => (await post<{ ticket: string }>('/live/ticket')).ticket,
      url: liveUrl,
      handlers: {
        update: (update) => {
          reread(update.touches);
          if (update.notice) notice.current(update.notice);
        },
        resync: () => reread(everything),
        // Another tab or device changed the password: signed out now, with the reason (issue 40).
        ended: () => {
          if (!changedPasswordHere()) endSessionBecause(passwordChangedMessage);
        },
      },
      paused: document.hidden,
    });
    const onVisibility = () => {
      if (document.hidden) connection.pause();
      else connection.resume();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      connection.close();
    };
  }, [member, mutate]);
}
