import http from 'node:http';
import https from 'node:https';
import type { Logger } from 'pino';
import { HttpError, ServiceCredentialSigner, tracedCall } from '@smm/platform';
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

/** How the BFF proves who it is to a service: SERVICE_AUTH_SECRET, and its own name as the issuer. */
export type ServiceCredentials = { secret: string; from: string };

/** A response header by (case-insensitive) name, null when absent. */
export type AnswerHeaders = { get(name: string): string | null };

/**
 * A service's answer: status, the headers worth passing on, and the JSON body (null when empty).
 * `route` names the call (`order GET /orders/7`) for the log line of an answer off its contract.
 */
export type ServiceAnswer = { status: number; headers: AnswerHeaders; body: unknown; route?: string };

/** The service could not be reached or did not answer in time: a 503 for the member, never a stack. */
export class ServiceUnavailable extends HttpError {
  constructor(
    readonly service: string,
    timedOut: boolean,
  ) {
    super(503, timedOut ? 'SERVICE_TIMEOUT' : 'SERVICE_UNAVAILABLE', timedOut ? messages.serviceTimeout : messages.serviceUnavailable);
  }
}

class CallTimedOut extends Error {
  override name = 'TimeoutError';
}

function headersOf(res: http.IncomingMessage): AnswerHeaders {
  return {
    get(name) {
      const value = res.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

// Kept-alive connections to each service, through node:http rather than fetch: fetch's web streams
// and Request/Response objects were an eighth of the BFF's CPU per order in a profile. The agent
// drops an idle connection a second before the service's keep-alive timeout (its `Keep-Alive:
// timeout=5` header) would end it, so a call is never written to a connection the service is
// closing at that moment (a reset, answered 503). Node 20's agent reads that header only when it
// has a `timeout` of its own, which it then lowers to the header's: without one, idle connections
// were kept for ever and a call after a pause could meet the service's close (the likely cause of
// a `POST /auth/register` answered 503 in a CI run). The timeout also bounds an idle connection to
// a service that sends no header. A call in flight is bounded by its own timer (`exchange`).
const idleMs = 30_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxFreeSockets: 64, timeout: idleMs }),
  'https:': new https.Agent({ keepAlive: true, maxFreeSockets: 64, timeout: idleMs }),
};

/** One HTTP exchange: status, headers and the body as text; rejects on a network failure or after `timeoutMs`. */
function exchange(url: URL, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<{ res: http.IncomingMessage; text: string }> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const req = (secure ? https : http).request(url, { method, headers, agent: secure ? agents['https:'] : agents['http:'] }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ res, text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', fail);
    });
    const timer = setTimeout(() => req.destroy(new CallTimedOut(`no answer within ${timeoutMs} ms`)), timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      reject(error);
    }
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * One internal service reached over HTTP. Every call carries a fresh service credential naming the
 * member it acts for and the member's role (from the verified JWT or API key), the request
 * (x-request-id, x-correlation-id) and the client address (x-client-ip, which services trust only
 * because the credential shows the BFF sent it).
 */
export class ServiceClient {
  constructor(
    readonly name: string,
    /** Unset while the service is not deployed (optional in the configuration): every call is a 503. */
    private readonly baseUrl: string | undefined,
    readonly timeoutMs: number,
    private readonly credentials: ServiceCredentials,
  ) {
    this.signer = new ServiceCredentialSigner(credentials.secret);
  }

  private readonly signer: ServiceCredentialSigner;

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
    const token = this.signer.sign({
      from: this.credentials.from,
      to: this.name,
      userId: ctx.caller?.userId ?? null,
      role: ctx.caller?.role ?? null,
    });
    headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let res: http.IncomingMessage;
    let text: string;
    try {
      // Traced: the call's span and `traceparent` make BFF → service one trace (when tracing is on).
      ({ res, text } = await tracedCall(method, url, (key, value) => (headers[key] = value), () => exchange(url, method, headers, body, options.timeoutMs ?? this.timeoutMs), (answer) => answer.res.statusCode ?? 502));
    } catch (error) {
      const timedOut = error instanceof CallTimedOut;
      const code = (error as NodeJS.ErrnoException).code;
      ctx.log.warn({ service: this.name, method, path, timedOut, err: error instanceof Error ? error.message : String(error), cause: code }, 'service unavailable');
      throw new ServiceUnavailable(this.name, timedOut);
    }
    const status = res.statusCode ?? 502;
    const route = `${this.name} ${method} ${path}`;
    if (text === '') return { status, headers: headersOf(res), body: null, route };
    try {
      return { status, headers: headersOf(res), body: JSON.parse(text) as unknown, route };
    } catch {
      ctx.log.error({ service: this.name, method, path, status }, 'service answered with something other than JSON');
      throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
    }
  }

  /**
   * A GET whose answer is read as it arrives (issue 41's exports: NDJSON a service streams from a
   * cursor): resolves with the response once its head is in, its body left unread for the caller
   * to consume (and destroy when done early). `timeoutMs` bounds the head only; a stalled body is
   * the caller's to end. Errors as `call`: 503 when the service is absent or does not answer.
   */
  async open(ctx: CallContext, path: string, query?: URLSearchParams, timeoutMs?: number): Promise<http.IncomingMessage> {
    if (this.baseUrl === undefined) throw new ServiceUnavailable(this.name, false);
    const url = new URL(path, this.baseUrl);
    if (query) url.search = query.toString();
    const headers: Record<string, string> = { accept: 'application/x-ndjson, application/json', 'x-request-id': ctx.requestId, 'x-correlation-id': ctx.correlationId };
    if (ctx.clientIp !== null) headers['x-client-ip'] = ctx.clientIp;
    headers.authorization = `Bearer ${this.signer.sign({ from: this.credentials.from, to: this.name, userId: ctx.caller?.userId ?? null, role: ctx.caller?.role ?? null })}`;
    const limit = timeoutMs ?? this.timeoutMs;
    try {
      return await new Promise<http.IncomingMessage>((resolve, reject) => {
        const secure = url.protocol === 'https:';
        const req = (secure ? https : http).request(url, { method: 'GET', headers, agent: secure ? agents['https:'] : agents['http:'] }, (res) => {
          clearTimeout(timer);
          resolve(res);
        });
        const timer = setTimeout(() => req.destroy(new CallTimedOut(`no answer within ${limit} ms`)), limit);
        req.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        req.end();
      });
    } catch (error) {
      ctx.log.warn({ service: this.name, path, err: error instanceof Error ? error.message : String(error) }, 'service unavailable');
      throw new ServiceUnavailable(this.name, error instanceof CallTimedOut);
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
