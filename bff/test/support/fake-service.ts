import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServiceCaller, verifyServiceCredential } from '@smm/platform';
import { testServiceSecret } from '@smm/testkit';

/** `caller`: who the request's service credential names, verified as the real service would; null without a valid one. */
export type RecordedRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers']; body: unknown; caller: ServiceCaller | null };
export type FakeAnswer = { status?: number; body?: unknown; raw?: string; headers?: Record<string, string>; delayMs?: number };
type Handler = (req: RecordedRequest) => FakeAnswer;

/**
 * A stand-in for one internal service on 127.0.0.1: answers what a test programs per
 * "METHOD /path" and records every request, so a test can see what the BFF forwarded.
 */
export class FakeService {
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, Handler>();
  private readonly server = createServer((req, res) => void this.handle(req, res));
  url = '';

  /** `name`: the service it plays, the audience a credential must name. */
  constructor(readonly name: string) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  on(route: string, answer: FakeAnswer | Handler): this {
    this.routes.set(route, typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  /**
   * Answers for paths no programmed route takes, kept across `reset()`: the harness makes the fake
   * auth report every member active at token version 0, as a real auth would for fresh members.
   */
  fallback: ((req: RecordedRequest) => FakeAnswer | undefined) | undefined;

  calls(route: string): RecordedRequest[] {
    const [method, path] = route.split(' ');
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  reset(): void {
    this.requests.length = 0;
    this.routes.clear();
  }

  private callerOf(req: IncomingMessage): ServiceCaller | null {
    const token = req.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
    return token === undefined ? null : verifyServiceCredential(token, testServiceSecret, this.name);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown), caller: this.callerOf(req) };
    if (url.pathname !== '/readyz') this.requests.push(recorded);
    const ready: Handler = () => ({ body: { status: 'ready' } });
    const handler = this.routes.get(`${recorded.method} ${recorded.path}`) ?? (url.pathname === '/readyz' ? ready : undefined);
    const answer: FakeAnswer = (handler ? handler(recorded) : this.fallback?.(recorded)) ?? { status: 404, body: { code: 'ROUTE_NOT_FOUND', message: '요청한 경로를 찾을 수 없습니다.' } };
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    const status = answer.status ?? 200;
    if (answer.raw !== undefined) {
      res.writeHead(status, { 'content-type': 'text/html', ...answer.headers });
      res.end(answer.raw);
      return;
    }
    if (answer.body === undefined) {
      res.writeHead(status, answer.headers ?? {});
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }
}
