import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLiveConnection } from '../src/lib/live-connection.ts';

/** A stand-in for the browser's EventSource: the test plays the server's frames into it. */
class FakeSource extends EventTarget {
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    super();
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown, lastEventId = '') {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
  }
}

describe('openLiveConnection', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes updates on, and after an error reopens with a new ticket and the last id seen', async () => {
    const sources: FakeSource[] = [];
    let tickets = 0;
    const updates: unknown[] = [];
    let resyncs = 0;
    const connection = openLiveConnection({
      ticket: async () => `t${++tickets}`,
      url: (ticket, last) => `/live?ticket=${ticket}&last=${last ?? ''}`,
      handlers: { update: (u) => updates.push(u), resync: () => (resyncs += 1) },
      backoff: [1000],
      createSource: (url) => {
        const source = new FakeSource(url);
        sources.push(source);
        return source as unknown as EventSource;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(sources.map((s) => s.url)).toEqual(['/live?ticket=t1&last=']);
    expect(resyncs).toBe(0);
    sources[0]!.emit('ready', {});
    // The first stream has nothing to resume from: what happened since the page read its data is re-read.
    expect(resyncs).toBe(1);
    sources[0]!.emit('update', { type: 'PointCredited', touches: ['balance'] }, 'e-9');
    expect(updates).toEqual([{ type: 'PointCredited', touches: ['balance'] }]);

    sources[0]!.onerror?.();
    expect(sources[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources[1]!.url).toBe('/live?ticket=t2&last=e-9');
    sources[1]!.emit('ready', {});
    expect(resyncs).toBe(1); // resumed from e-9: the server replays or says resync
    sources[1]!.emit('resync', {});
    expect(resyncs).toBe(2);

    connection.close();
    expect(sources[1]!.closed).toBe(true);
  });

  it('keeps trying to buy a ticket while that fails, and stops for good on close', async () => {
    let attempts = 0;
    const connection = openLiveConnection({
      ticket: async () => {
        attempts += 1;
        throw new Error('503');
      },
      url: () => '/live',
      handlers: { update: () => undefined, resync: () => undefined },
      backoff: [100, 500],
      createSource: () => {
        throw new Error('never opened');
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(100);
    await vi.advanceTimersByTimeAsync(500);
    expect(attempts).toBe(3);
    connection.close();
    await vi.advanceTimersByTimeAsync(5000);
    expect(attempts).toBe(3);
  });

  function recorded(options: { paused?: boolean } = {}) {
    const sources: FakeSource[] = [];
    let tickets = 0;
    const updates: unknown[] = [];
    const seen = { resyncs: 0, tickets: () => tickets };
    const connection = openLiveConnection({
      ticket: async () => `t${++tickets}`,
      url: (ticket, last) => `/live?ticket=${ticket}&last=${last ?? ''}`,
      handlers: { update: (u) => updates.push(u), resync: () => (seen.resyncs += 1) },
      createSource: (url) => {
        const source = new FakeSource(url);
        sources.push(source);
        return source as unknown as EventSource;
      },
      ...options,
    });
    return { connection, sources, updates, seen };
  }

  it('closes the stream on pause and resumes from the last id seen', async () => {
    const { connection, sources, seen } = recorded();
    await vi.advanceTimersByTimeAsync(0);
    sources[0]!.emit('ready', {});
    sources[0]!.emit('update', { type: 'OrderMoved', touches: ['orders'] }, 'e-3');
    connection.pause();
    expect(sources[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sources).toHaveLength(1);

    connection.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(sources[1]!.url).toBe('/live?ticket=t2&last=e-3');
    expect(seen.resyncs).toBe(1); // the first stream's
    sources[1]!.emit('ready', {});
    expect(seen.resyncs).toBe(1);
    connection.close();
  });

  it('re-reads everything after a resume when no update had come (nothing to resume from)', async () => {
    const { connection, sources, seen } = recorded();
    await vi.advanceTimersByTimeAsync(0);
    sources[0]!.emit('ready', {});
    connection.pause();
    connection.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(sources[1]!.url).toBe('/live?ticket=t2&last=');
    expect(seen.resyncs).toBe(1);
    sources[1]!.emit('ready', {});
    expect(seen.resyncs).toBe(2);
    connection.close();
  });

  it('opens nothing while started paused, and drops a ticket that answers after a pause', async () => {
    const { connection, sources, seen } = recorded({ paused: true });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen.tickets()).toBe(0);
    connection.resume();
    connection.pause();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.tickets()).toBe(1);
    expect(sources).toHaveLength(0);
    connection.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(sources).toHaveLength(1);
    sources[0]!.emit('ready', {});
    expect(seen.resyncs).toBe(1);
    connection.close();
  });

  it('on `ended` (the password changed elsewhere, issue 40) tells the page and never reconnects', async () => {
    const sources: FakeSource[] = [];
    const ended: unknown[] = [];
    openLiveConnection({
      ticket: async () => 't',
      url: (ticket) => `/live?ticket=${ticket}`,
      handlers: { update: () => undefined, resync: () => undefined, ended: (e) => ended.push(e) },
      backoff: [10],
      createSource: (url) => {
        const source = new FakeSource(url);
        sources.push(source);
        return source as unknown as EventSource;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    sources[0]!.emit('ready', {});
    sources[0]!.emit('ended', { reason: 'password-changed' });
    expect(ended).toEqual([{ reason: 'password-changed' }]);
    expect(sources[0]!.closed).toBe(true);
    sources[0]!.onerror?.();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sources).toHaveLength(1);
  });
});
