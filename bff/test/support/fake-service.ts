import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers']; body: unknown };
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

  calls(route: string): RecordedRequest[] {
    const [method, path] = route.split(' ');
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  reset(): void {
    this.requests.length = 0;
    this.routes.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    if (url.pathname !== '/readyz') this.requests.push(recorded);
    const ready: Handler = () => ({ body: { status: 'ready' } });
    const handler = this.routes.get(`${recorded.method} ${recorded.path}`) ?? (url.pathname === '/readyz' ? ready : undefined);
    const answer: FakeAnswer = handler ? handler(recorded) : { status: 404, body: { code: 'ROUTE_NOT_FOUND', message: '요청한 경로를 찾을 수 없습니다.' } };
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
