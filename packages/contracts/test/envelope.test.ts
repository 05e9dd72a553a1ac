import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { causedBy, defineEvent, parseEvent } from '../src/index.ts';

const PointCredited = defineEvent('PointCredited', 1, z.object({ userId: z.string(), point: z.number().int().positive() }));
const known = [PointCredited] as const;

describe('event envelope', () => {
  it('creates a complete envelope that parses back to the same event', () => {
    const event = PointCredited.create('user-1', { userId: 'user-1', point: 5000 }, { correlationId: 'req-1' });
    expect(event).toMatchObject({ type: 'PointCredited', version: 1, aggregateId: 'user-1', correlationId: 'req-1', causationId: null });
    expect(event.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(event.occurredAt).toISOString()).toBe(event.occurredAt);

    const parsed = parseEvent(Buffer.from(JSON.stringify(event)), known);
    expect(parsed).toEqual({ ok: true, event });
  });

  it('refuses to create an event whose payload breaks its schema', () => {
    expect(() => PointCredited.create('u', { userId: 'u', point: -1 }, { correlationId: 'c' })).toThrow();
  });

  it('carries correlation forward and names the causing event', () => {
    const first = PointCredited.create('u', { userId: 'u', point: 1 }, { correlationId: 'c-9' });
    const next = PointCredited.create('u', { userId: 'u', point: 2 }, causedBy(first));
    expect(next.correlationId).toBe('c-9');
    expect(next.causationId).toBe(first.eventId);
  });

  it.each([
    [null, 'message has no value'],
    ['not json', 'message value is not valid JSON'],
    [JSON.stringify({ type: 'PointCredited' }), 'invalid envelope: eventId'],
  ])('explains why %s is rejected', (raw, reason) => {
    const result = parseEvent(raw, known);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('rejects unknown types and versions, and bad payloads, with the reason', () => {
    const good = PointCredited.create('u', { userId: 'u', point: 1 }, { correlationId: 'c' });
    const unknownVersion = parseEvent(JSON.stringify({ ...good, version: 2 }), known);
    expect(unknownVersion).toEqual({ ok: false, reason: 'unknown event PointCredited v2', type: 'PointCredited' });
    const badData = parseEvent(JSON.stringify({ ...good, data: { userId: 'u', point: 'lots' } }), known);
    expect(badData.ok).toBe(false);
    if (!badData.ok) expect(badData.reason).toMatch(/^invalid PointCredited v1 data: point:/);
  });
});
