import { type LiveUpdate, liveEvents } from './contracts.ts';

/** What the connection reports: an update, "re-read everything", or that it (re)connected. */
export type LiveHandlers = { update(update: LiveUpdate): void; resync(): void };

export type LiveConnectionOptions = {
  /** Buys a one-time ticket with the member's token (POST /api/live/ticket through the api helper). */
  ticket(): Promise<string>;
  /** The stream's address for a ticket and the last update id seen. */
  url(ticket: string, lastEventId: string | null): string;
  handlers: LiveHandlers;
  /** Waits before the n-th reconnect in a row (ms). */
  backoff?: readonly number[];
  createSource?: (url: string) => EventSource;
};

const defaultBackoff = [1000, 2000, 5000, 10_000, 30_000] as const;

/**
 * One live stream that stays open: a ticket is good for one connection, so the browser's own
 * reconnect (same URL) cannot work; on any error this closes the source, buys a new ticket and
 * reopens with the last id seen, so the server replays what was missed or says resync. A ticket
 * that cannot be bought (the session ended: the api helper signs out; the server is down) is
 * retried with the same backoff until `close()`.
 */
export function openLiveConnection(options: LiveConnectionOptions): { close(): void } {
  const backoff = options.backoff ?? defaultBackoff;
  const createSource = options.createSource ?? ((url: string) => new EventSource(url));
  let lastEventId: string | null = null;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let closed = false;

  const retry = () => {
    if (closed) return;
    source?.close();
    source = null;
    const wait = backoff[Math.min(failures, backoff.length - 1)]!;
    failures += 1;
    timer = setTimeout(() => void connect(), wait);
  };

  async function connect() {
    let ticket: string;
    try {
      ticket = await options.ticket();
    } catch {
      retry();
      return;
    }
    if (closed) return;
    const opened = createSource(options.url(ticket, lastEventId));
    source = opened;
    opened.addEventListener(liveEvents.ready, () => {
      failures = 0;
    });
    opened.addEventListener(liveEvents.resync, () => options.handlers.resync());
    opened.addEventListener(liveEvents.update, (event) => {
      const message = event as MessageEvent<string>;
      if (message.lastEventId) lastEventId = message.lastEventId;
      try {
        options.handlers.update(JSON.parse(message.data) as LiveUpdate);
      } catch {
        // A frame the page cannot read is skipped; the next update or resync re-reads anyway.
      }
    });
    opened.onerror = () => {
      if (source === opened) retry();
    };
  }

  void connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      source?.close();
      source = null;
    },
  };
}
