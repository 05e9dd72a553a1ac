import { type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type TextMapGetter, context, createContextKey, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from 'express';
import type { IHeaders } from 'kafkajs';
import type { EventEnvelope } from '@smm/contracts';

/**
 * Traces with OpenTelemetry, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (or a test hands an
 * exporter). Off means no provider: every helper below checks `tracing` first and costs nothing.
 * The context travels as W3C `traceparent` in HTTP headers and Kafka message headers; an outbox
 * record keeps the context it was written in, so the relay's later publish continues that trace.
 */
let provider: NodeTracerProvider | undefined;

const tracer = () => trace.getTracer('@smm/platform');

/** Whether spans are recorded in this process. */
export function tracingOn(): boolean {
  return provider !== undefined;
}

/**
 * Starts tracing for the process once (later calls keep the first): OTLP over HTTP to
 * OTEL_EXPORTER_OTLP_ENDPOINT (the exporter reads the OTEL_EXPORTER_OTLP_* variables itself), or
 * to `exporter` (tests). Returns whether tracing is on.
 */
export function startTracing(serviceName: string, options: { exporter?: SpanExporter; env?: Record<string, string | undefined> } = {}): boolean {
  if (provider) return true;
  const endpoint = (options.env ?? process.env).OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!options.exporter && !endpoint) return false;
  const processor = options.exporter ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(new OTLPTraceExporter());
  provider = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': serviceName }), spanProcessors: [processor] });
  // Installs the AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  return true;
}

/** Flushes and turns tracing off (shutdown, or between tests). */
export async function stopTracing(): Promise<void> {
  const current = provider;
  if (!current) return;
  provider = undefined;
  await current.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

function endSpan(span: Span, failed: boolean, error?: unknown): void {
  if (error !== undefined) span.recordException(error instanceof Error ? error : String(error));
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Express middleware: one SERVER span per request, a child of the caller's `traceparent`. */
export function traceRequests() {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!provider) return next();
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer().startSpan(req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path } }, parent);
    res.on('finish', () => {
      const pattern = req.route?.path;
      if (typeof pattern === 'string') {
        span.updateName(`${req.method} ${req.baseUrl}${pattern}`);
        span.setAttribute('http.route', `${req.baseUrl}${pattern}`);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      endSpan(span, res.statusCode >= 500);
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

/**
 * `fetch` with a CLIENT span, whose context goes along as `traceparent`: a call to another
 * service continues the caller's trace. Plain `fetch` when tracing is off.
 */
export async function tracedFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
  if (!provider) return fetch(url, init);
  const headers = new Headers(init.headers);
  return tracedCall(init.method ?? 'GET', url, (key, value) => headers.set(key, value), () => fetch(url, { ...init, headers }), (res) => res.status);
}

/**
 * A client span around any outgoing HTTP call (the BFF's kept-alive `node:http` client uses it):
 * `setHeader` receives `traceparent` before `call` runs; `statusOf` reads the answer's status.
 */
export async function tracedCall<T>(method: string, url: string | URL, setHeader: (key: string, value: string) => void, call: () => Promise<T>, statusOf: (answer: T) => number): Promise<T> {
  if (!provider) return call();
  const target = new URL(url);
  const span = tracer().startSpan(method, { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method, 'server.address': target.hostname, 'url.path': target.pathname } });
  propagation.inject(trace.setSpan(context.active(), span), {}, { set: (_carrier, key, value) => setHeader(key, value) });
  try {
    const answer = await call();
    const status = statusOf(answer);
    span.setAttribute('http.response.status_code', status);
    endSpan(span, status >= 500);
    return answer;
  } catch (error) {
    endSpan(span, true, error);
    throw error;
  }
}

/** A trace context as stored beside an outbox record: the W3C headers (`traceparent`, maybe `tracestate`). */
export type TraceCarrier = Record<string, string>;

/** Events being handled in one batch, by event id: their own contexts, so effects follow their cause. */
const causesKey = createContextKey('smm.causes');

/** Contexts of events created in one context and written to the outbox in another (a group commit). */
const remembered = new WeakMap<object, Context>();

/**
 * Keeps the active context for `event`, for code that creates an event in a request and writes it
 * later from a shared task (order's group commit): the outbox record then continues that request's trace.
 */
export function rememberTrace(event: object): void {
  if (provider) remembered.set(event, context.active());
}

/**
 * The carrier for an event about to be written to the outbox: the context remembered for it, else
 * its cause's context in a batch, else the active one.
 */
export function traceCarrierFor(event: EventEnvelope): TraceCarrier | undefined {
  if (!provider) return undefined;
  const active = context.active();
  const causes = active.getValue(causesKey) as Map<string, Context> | undefined;
  const source = remembered.get(event) ?? (event.causationId !== null ? causes?.get(event.causationId) : undefined) ?? active;
  if (!trace.getSpanContext(source)) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(source, carrier);
  return carrier;
}

/** Kafka header values arrive as Buffers. */
const kafkaHeaderGetter: TextMapGetter<IHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined ? undefined : first.toString();
  },
};

function contextFrom(headers: IHeaders | undefined): Context {
  return headers ? propagation.extract(ROOT_CONTEXT, headers, kafkaHeaderGetter) : ROOT_CONTEXT;
}

/**
 * PRODUCER spans for messages about to be sent to `topic`, each a child of its record's stored
 * carrier; their contexts are written into the message headers. Call `end` once the send settles.
 */
export function traceProduce(topic: string, carriers: ReadonlyArray<TraceCarrier | undefined>): { headers: Array<TraceCarrier | undefined>; end(error?: unknown): void } {
  if (!provider) return { headers: carriers.map(() => undefined), end: () => undefined };
  const spans: Span[] = [];
  const headers = carriers.map((carrier) => {
    const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : context.active();
    const span = tracer().startSpan(`publish ${topic}`, { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic } }, parent);
    spans.push(span);
    const out: TraceCarrier = {};
    propagation.inject(trace.setSpan(parent, span), out);
    return out;
  });
  return { headers, end: (error) => spans.forEach((span) => endSpan(span, error !== undefined, error)) };
}

/** Runs one message's handler in a CONSUMER span, a child of the message's `traceparent`. */
export async function traceConsume<T>(topic: string, groupId: string, headers: IHeaders | undefined, work: () => Promise<T>): Promise<T> {
  if (!provider) return work();
  const parent = contextFrom(headers);
  const span = tracer().startSpan(`process ${topic}`, { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'kafka', 'messaging.source.name': topic, 'messaging.consumer.group.name': groupId } }, parent);
  try {
    const result = await context.with(trace.setSpan(parent, span), work);
    endSpan(span, false);
    return result;
  } catch (error) {
    endSpan(span, true, error);
    throw error;
  }
}

/**
 * Runs a batch handler with one CONSUMER span per message (each a child of its own
 * `traceparent`), and the events' contexts by event id, so the events the batch writes to its
 * outbox continue the trace of the event that caused each of them (`causationId`).
 */
export async function traceConsumeBatch<T>(topic: string, groupId: string, messages: ReadonlyArray<{ eventId: string; headers: IHeaders | undefined }>, work: () => Promise<T>): Promise<T> {
  if (!provider) return work();
  const causes = new Map<string, Context>();
  const spans = messages.map(({ eventId, headers }) => {
    const parent = contextFrom(headers);
    const span = tracer().startSpan(`process ${topic}`, { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'kafka', 'messaging.source.name': topic, 'messaging.consumer.group.name': groupId, 'messaging.batch.message_count': messages.length } }, parent);
    causes.set(eventId, trace.setSpan(parent, span));
    return span;
  });
  try {
    const result = await context.with(context.active().setValue(causesKey, causes), work);
    spans.forEach((span) => endSpan(span, false));
    return result;
  } catch (error) {
    spans.forEach((span) => endSpan(span, true, error));
    throw error;
  }
}
