import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RunningServer, conflict, createHttpApp, createLogger, listen, parseInput } from '../src/index.ts';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const logger = createLogger({ service: 'test-svc', level: 'debug', destination: sink });

let dbUp = true;
const orderBody = z.object({
  link: z.string().min(1, '링크를 입력해 주세요.'),
  amount: z.number().int(),
});

const app = createHttpApp({
  logger,
  bodyLimit: '1kb',
  readiness: {
    db: async () => {
      if (!dbUp) throw new Error('connection refused at 10.0.0.1');
    },
    slow: () => new Promise((resolve) => setTimeout(resolve, 10)),
  },
  readinessTimeoutMs: 500,
  // Credentials are covered by service-auth.test.ts; these tests are about the rest of the factory.
  serviceAuth: null,
  opsToken: 'http-test-ops-token',
  routes: (r) => {
    r.post('/orders', (req, res) => {
      const body = parseInput(orderBody, req.body);
      res.status(201).json({ ok: true, amount: body.amount, correlationId: req.correlationId });
    });
    r.get('/conflict', () => {
      throw conflict('이미 사용 중인 아이디입니다.', 'ID_TAKEN');
    });
    r.get('/boom', async () => {
      throw new Error('secret internals: password=hunter2');
    });
  },
});

const ops = { authorization: 'Bearer http-test-ops-token' };
let server: RunningServer;
let base: string;
beforeAll(async () => {
  server = await listen(app, 0);
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('HTTP server factory', () => {
  it('answers 400 to a deeply nested body instead of overflowing further down', async () => {
    const deep = post('/orders', '['.repeat(500) + ']'.repeat(500));
    expect((await deep).status).toBe(400);
    expect(await (await post('/orders', '['.repeat(33) + ']'.repeat(33))).json()).toMatchObject({ code: 'JSON_TOO_DEEP' });
    expect((await post('/orders', JSON.stringify({ link: 'x', amount: 1, extra: [[[[1]]]] }))).status).toBe(201);
  });

  it('answers liveness and readiness', async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`, { headers: ops });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { db: 'ok', slow: 'ok' } });
    // On the public edge, without the ops token: the status, not the list of what it checks.
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready' });
  });

  it('reports not ready, by dependency, without leaking the reason', async () => {
    dbUp = false;
    try {
      const ready = await fetch(`${base}/readyz`, { headers: ops });
      expect(ready.status).toBe(503);
      const text = await ready.text();
      expect(JSON.parse(text)).toEqual({ status: 'not_ready', checks: { db: 'unavailable', slow: 'ok' } });
      expect(text).not.toContain('10.0.0.1');
    } finally {
      dbUp = true;
    }
  });

  it('validates input with the schema’s Korean message and field details', async () => {
    const res = await post('/orders', JSON.stringify({ link: '', amount: 10 }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: '링크를 입력해 주세요.',
      details: [{ field: 'link', message: '링크를 입력해 주세요.' }],
    });
  });

  it('answers a generic Korean format message when the schema has none', async () => {
    const res = await post('/orders', JSON.stringify({ link: 'x', amount: 'ten' }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('입력 형식이 올바르지 않습니다.');
  });

  it('turns malformed and oversized bodies into 4xx, not 500', async () => {
    const malformed = await post('/orders', '{"link":');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toBe('MALFORMED_BODY');
    const big = await post('/orders', JSON.stringify({ link: 'x'.repeat(5000), amount: 1 }));
    expect(big.status).toBe(413);
  });

  it('maps domain errors to their status and message', async () => {
    const res = await fetch(`${base}/conflict`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'ID_TAKEN', message: '이미 사용 중인 아이디입니다.' });
  });

  it('hides unexpected errors behind a generic 500 and logs them', async () => {
    const res = await fetch(`${base}/boom`, { headers: { 'x-request-id': 'req-boom-1' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ code: 'INTERNAL', message: '일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.' });
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('at ');
    const logged = lines.find((l) => l.msg === 'unexpected error' && l.requestId === 'req-boom-1');
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('hunter2');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('ROUTE_NOT_FOUND');
  });

  it('keeps a well-formed request id, carries the correlation id and logs each request', async () => {
    const res = await post('/orders', JSON.stringify({ link: 'x', amount: 1 }), { 'x-request-id': 'abc-123', 'x-correlation-id': 'corr-7' });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    expect(((await res.json()) as { correlationId: string }).correlationId).toBe('corr-7');
    const line = lines.find((l) => l.msg === 'request completed' && l.requestId === 'abc-123');
    expect(line).toMatchObject({ service: 'test-svc', level: 'info', correlationId: 'corr-7', method: 'POST', path: '/orders', status: 201 });
  });

  it('replaces a malformed request id with a fresh one', async () => {
    const res = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
