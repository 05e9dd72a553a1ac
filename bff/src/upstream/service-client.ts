import type { Logger } from 'pino';
import { HttpError } from '@smm/platform';
import type { Caller } from '../domain/caller.ts';
import { messages } from '../messages.ts';

/** What travels with every call so a service can log, limit and attribute it. */
export type CallContext = {
  requestId: string;
  correlationId: string;
  clientIp: string | null;
  caller?: Caller | undefined;
  log: Logger;
};

export type CallOptions = {
  body?: unknown;
  query?: URLSearchParams;
  headers?: Record<string, string>;
  /** Overrides the client's timeout for this call (order placement waits for the payment first). */
  timeoutMs?: number;
};

/** A service's answer: status, the headers worth passing on, and the JSON body (null when empty). */
export type ServiceAnswer = { status: number; headers: Headers; body: unknown };

/** The service could not be reached or did not answer in time: a 503 for the member, never a stack. */
export class ServiceUnavailable extends HttpError {
  constructor(
    readonly service: string,
    timedOut: boolean,
  ) {
    super(503, timedOut ? 'SERVICE_TIMEOUT' : 'SERVICE_UNAVAILABLE', timedOut ? messages.serviceTimeout : messages.serviceUnavailable);
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/**
 * One internal service reached over HTTP. It names the caller (x-user-id, x-user-role), the request
 * (x-request-id, x-correlation-id) and the client address (x-client-ip) on every call.
 */
export class ServiceClient {
  constructor(
    readonly name: string,
    /** Unset while the service is not deployed (optional in the configuration): every call is a 503. */
    private readonly baseUrl: string | undefined,
    readonly timeoutMs: number,
  ) {}

  get configured(): boolean {
    return this.baseUrl !== undefined;
  }

  async call(ctx: CallContext, method: string, path: string, options: CallOptions = {}): Promise<ServiceAnswer> {
    if (this.baseUrl === undefined) {
      ctx.log.warn({ service: this.name, method, path }, 'service not configured');
      throw new ServiceUnavailable(this.name, false);
    }
    const url = new URL(path, this.baseUrl);
    if (options.query) url.search = options.query.toString();
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-request-id': ctx.requestId,
      'x-correlation-id': ctx.correlationId,
      ...options.headers,
    };
    if (ctx.clientIp !== null) headers['x-client-ip'] = ctx.clientIp;
    if (ctx.caller) {
      headers['x-user-id'] = ctx.caller.userId;
      headers['x-user-role'] = ctx.caller.role;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs) });
      text = await res.text();
    } catch (error) {
      const timedOut = isTimeout(error);
      ctx.log.warn({ service: this.name, method, path, timedOut, err: error instanceof Error ? error.message : String(error) }, 'service unavailable');
      throw new ServiceUnavailable(this.name, timedOut);
    }
    if (text === '') return { status: res.status, headers: res.headers, body: null };
    try {
      return { status: res.status, headers: res.headers, body: JSON.parse(text) as unknown };
    } catch {
      ctx.log.error({ service: this.name, method, path, status: res.status }, 'service answered with something other than JSON');
      throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
    }
  }

  /** A readiness check: the service's own /readyz answers 200. */
  ready(timeoutMs = 2000): () => Promise<void> {
    return async () => {
      if (this.baseUrl === undefined) throw new Error(`${this.name} is not configured`);
      const res = await fetch(new URL('/readyz', this.baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${this.name} /readyz answered ${res.status}`);
    };
  }
}
