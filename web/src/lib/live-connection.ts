import { type LiveEnded, type LiveUpdate, liveEvents } from './contracts.ts';

/** What the connection reports: an update, "re-read everything", or that it (re)connected. */
/** `ended`: the member's sessions ended (a password change, issue 40); the connection stays closed. */
export type LiveHandlers = { update(update: LiveUpdate): void; resync(): void; ended?(ended: LiveEnded): void };

export type LiveConnectionOptions = {
  /** Buys a one-time ticket with the member's token (POST /api/live/ticket through the api helper). */
  ticket(): Promise<string>;
  /** The stream's address for a ticket and the last update id seen. */
  url(ticket: string, lastEventId: string | null): string;
  handlers: LiveHandlers;
  /** Waits before the n-th reconnect in a row (ms). */
  backoff?: readonly number[];
  createSource?: (url: string) => EventSource;
  /** Starts paused (the page is hidden): nothing is opened until `resume()`. */
  paused?: boolean;
};

const defaultBackoff = [1000, 2000, 5000, 10_000, 30_000] as const;

export type LiveConnection = {
  /** Ends the stream for good. */
  close(): void;
  /** Closes the stream for now (the page is hidden); `resume()` reopens it. */
  pause(): void;
  /** Reopens a paused stream where it stopped: the server replays what was missed, or says resync. */
  resume(): void;
};

/**
 * One live stream that stays open: a ticket is good for one connection, so the browser's own
 * reconnect (same URL) cannot work; on any error this closes the source, buys a new ticket and
 * reopens with the last id seen, so the server replays what was missed or says resync. A ticket
 * that cannot be bought (the session ended: the api helper signs out; the server is down) is
 * retried with the same backoff until `close()`. `pause()`/`resume()` close and reopen it the same
 * way (a hidden page holds no connection). A stream opened with no id to resume from (the first
 * one, or any before an update came) makes the page re-read everything once it is ready: what
 * happened between the page's first reads and the stream (opened after load and idle) is not lost.
 */
export function openLiveConnection(options: LiveConnectionOptions): LiveConnection {
  const backoff = options.backoff ?? defaultBackoff;
  const createSource = options.createSource ?? ((url: string) => new EventSource(url));
  let lastEventId: string | null = null;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let closed = false;
  let paused = options.paused === true;
  /** Counts connection attempts: a ticket answering after a pause or a newer attempt is dropped. */
  let attempt = 0;

  const retry = () => {
    if (closed || paused) return;
    source?.close();
    source = null;
    const wait = backoff[Math.min(failures, backoff.length - 1)]!;
    failures += 1;
    timer = setTimeout(() => void connect(), wait);
  };

  async function connect() {
    const mine = ++attempt;
    let ticket: string;
    try {
      ticket = await options.ticket();
    } catch {
      if (mine === attempt) retry();
      return;
    }
    if (closed || paused || mine !== attempt) return;
    // Without an id to resume from, the server cannot replay what happened before this stream was
    // ready — since the page read its data, or while it was hidden: the page re-reads everything.
    const fromScratch = lastEventId === null;
    const opened = createSource(options.url(ticket, lastEventId));
    source = opened;
    opened.addEventListener(liveEvents.ready, () => {
      failures = 0;
      if (fromScratch) options.handlers.resync();
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
    opened.addEventListener(liveEvents.ended, (event) => {
      closed = true;
      stop();
      let ended: LiveEnded = { reason: 'password-changed' };
      try {
        ended = JSON.parse((event as MessageEvent<string>).data) as LiveEnded;
      } catch {
        // The reason is the one the server sends today.
      }
      options.handlers.ended?.(ended);
    });
    opened.onerror = () => {
      if (source === opened) retry();
    };
  }

  const stop = () => {
    attempt += 1;
    clearTimeout(timer);
    source?.close();
    source = null;
  };

  if (!paused) void connect();
  return {
    close() {
      closed = true;
      stop();
    },
    pause() {
      if (closed || paused) return;
      paused = true;
      stop();
    },
    resume() {
      if (closed || !paused) return;
      paused = false;
      failures = 0;
      void connect();
    },
  };
}
