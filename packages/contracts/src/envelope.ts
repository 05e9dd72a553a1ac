import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/**
 * The envelope every event travels in. `aggregateId` is also the Kafka message key, so one
 * aggregate's events stay in order; `correlationId` follows a user action across services and
 * `causationId` names the event (or request) that directly caused this one.
 */
export const eventEnvelopeSchema = z.object({
  eventId: z.uuid(),
  type: z.string().regex(/^[A-Z][A-Za-z0-9]+$/, 'type must be a PascalCase event name'),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime({ offset: true }),
  aggregateId: z.string().min(1),
  correlationId: z.string().min(1),
  causationId: z.string().min(1).nullable(),
  data: z.unknown(),
});

export type EventEnvelope<TType extends string = string, TData = unknown> = {
  eventId: string;
  type: TType;
  version: number;
  occurredAt: string;
  aggregateId: string;
  correlationId: string;
  causationId: string | null;
  data: TData;
};

/** Where an event comes from: the request or event that caused it. */
export type EventOrigin = {
  correlationId: string;
  causationId?: string | null;
};

/** A typed event definition: its name, schema version and payload schema. */
export type EventDefinition<TType extends string, TData, TInput = TData> = {
  type: TType;
  version: number;
  data: z.ZodType<TData, TInput>;
  /**
   * Builds a complete envelope; the payload is validated so a producer cannot emit a bad event.
   * It takes the schema's input: a field with a default (added later, so older events still parse) may be left out.
   */
  create(aggregateId: string, data: TInput, origin: EventOrigin, now?: Date): EventEnvelope<TType, TData>;
};

export function defineEvent<TType extends string, TData, TInput = TData>(
  type: TType,
  version: number,
  data: z.ZodType<TData, TInput>,
): EventDefinition<TType, TData, TInput> {
  return {
    type,
    version,
    data,
    create(aggregateId, payload, origin, now = new Date()) {
      return {
        eventId: randomUUID(),
        type,
        version,
        occurredAt: now.toISOString(),
        aggregateId,
        correlationId: origin.correlationId,
        causationId: origin.causationId ?? null,
        data: data.parse(payload),
      };
    },
  };
}

/** Origin for an event caused by another event: same correlation, caused by that event. */
export function causedBy(event: Pick<EventEnvelope, 'eventId' | 'correlationId'>): EventOrigin {
  return { correlationId: event.correlationId, causationId: event.eventId };
}

/** On failure, `type` names the event when at least its envelope was valid. */
export type ParseResult<T> = { ok: true; event: T } | { ok: false; reason: string; type?: string };

/** Formats zod issues as one readable line: `data.point: Too small; type: Required`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Parses raw bytes or text from a topic into a typed event, checking the envelope and then the
 * payload schema registered for its type and version. Never throws: a consumer dead-letters the
 * reason instead of crash-looping.
 */
export function parseEvent<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>>(
  raw: Buffer | string | null | undefined,
  definitions: TDefs,
): ParseResult<EventOf<TDefs[number]>> {
  if (raw === null || raw === undefined) return { ok: false, reason: 'message has no value' };
  let json: unknown;
  try {
    json = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch {
    return { ok: false, reason: 'message value is not valid JSON' };
  }
  const envelope = eventEnvelopeSchema.safeParse(json);
  if (!envelope.success) return { ok: false, reason: `invalid envelope: ${describeIssues(envelope.error)}` };
  const definition = definitions.find((d) => d.type === envelope.data.type && d.version === envelope.data.version);
  if (!definition) {
    return { ok: false, reason: `unknown event ${envelope.data.type} v${envelope.data.version}`, type: envelope.data.type };
  }
  const data = definition.data.safeParse(envelope.data.data);
  if (!data.success) {
    return { ok: false, reason: `invalid ${definition.type} v${definition.version} data: ${describeIssues(data.error)}`, type: definition.type };
  }
  return { ok: true, event: { ...envelope.data, data: data.data } as EventOf<TDefs[number]> };
}

export type EventOf<D> = D extends EventDefinition<infer TType, infer TData> ? EventEnvelope<TType, TData> : never;
