import { describe, expect, it } from 'vitest';
import type { LiveUpdate } from '@smm/contracts';
import { type LiveEntry, LiveHub } from './live-hub.ts';

const update = (type: string): LiveUpdate => ({ type, touches: ['balance'] });

function hubAt(clock: { now: number }, replayPerMember = 3) {
  return new LiveHub({ replayPerMember, replayMs: 60_000, now: () => clock.now });
}

describe('LiveHub', () => {
  it('delivers a member’s updates to that member’s connections only', () => {
    const hub = hubAt({ now: 0 });
    const mine: LiveEntry[] = [];
    const theirs: LiveEntry[] = [];
    hub.subscribe('u1', { send: (e) => mine.push(e), close: () => undefined });
    hub.subscribe('u2', { send: (e) => theirs.push(e), close: () => undefined });
    hub.publish('u1', 'e1', update('PointCredited'));
    expect(mine.map((e) => e.id)).toEqual(['e1']);
    expect(theirs).toEqual([]);
  });

  it('replays what came after the last seen id, and says unknown for an id it no longer holds', () => {
    const clock = { now: 0 };
    const hub = hubAt(clock);
    for (const id of ['e1', 'e2', 'e3', 'e4']) hub.publish('u1', id, update(id));
    expect(hub.since('u1', 'e2')).toMatchObject([{ id: 'e3' }, { id: 'e4' }]);
    expect(hub.since('u1', 'e4')).toEqual([]);
    // Only 3 are kept per member: e1 fell out, so what followed it cannot be told.
    expect(hub.since('u1', 'e1')).toBe('unknown');
    expect(hub.since('u2', 'e2')).toBe('unknown');
    clock.now = 61_000;
    expect(hub.since('u1', 'e3')).toBe('unknown');
  });

  it('an event delivered again (a consumer rejoin) reaches the screen once and is held once', () => {
    const hub = hubAt({ now: 0 });
    const got: string[] = [];
    hub.subscribe('u1', { send: (e) => got.push(e.id), close: () => undefined });
    for (const id of ['e1', 'e2', 'e1', 'e2', 'e3']) hub.publish('u1', id, update(id));
    expect(got).toEqual(['e1', 'e2', 'e3']);
    expect(hub.since('u1', 'e1')).toMatchObject([{ id: 'e2' }, { id: 'e3' }]);
  });

  it('an unsubscribed connection receives nothing more; closeAll ends every connection', () => {
    const hub = hubAt({ now: 0 });
    const got: string[] = [];
    let closed = 0;
    const stop = hub.subscribe('u1', { send: (e) => got.push(e.id), close: () => (closed += 1) });
    hub.subscribe('u1', { send: () => undefined, close: () => (closed += 1) });
    stop();
    hub.publish('u1', 'e1', update('x'));
    expect(got).toEqual([]);
    hub.closeAll();
    expect(closed).toBe(1);
    expect(hub.connections('u1')).toBe(0);
  });
});
