import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, opsToken, startHarness } from './support/harness.ts';
import { profileBody } from './support/service-bodies.ts';

/** A port nothing listens on: bound for a moment, then released. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let h: Harness;
const logged: Array<Record<string, unknown>> = [];
beforeAll(async () => {
  // wallet points at a dead port: "a service that is down"
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  h = await startHarness({ upstreamTimeoutMs: 400, walletUrl: `http://127.0.0.1:${await deadPort()}`, logger: pino({ level: 'warn' }, sink) });
});
afterAll(() => h.stop());
beforeEach(() => {
  h.auth.reset();
  h.catalog.reset();
  h.order.reset();
});

describe('when a service is down or misbehaves', () => {
  it('answers 503 with a Korean message when a service cannot be reached', async () => {
    h.auth.on('GET /members/me', { body: profileBody({ userId: 'member-1', id: 'kim', role: 'member', apiKey: null, referralCode: null }) });
    const res = await call(h.url, 'GET', '/api/auth/profile', { token: h.keys.member() });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: '서비스에 일시적으로 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.' });
    // The log says why, not only "fetch failed".
    expect(logged.find((l) => l.msg === 'service unavailable' && l.service === 'wallet')).toMatchObject({ cause: expect.stringContaining('ECONNREFUSED') });
  });

  it('answers 503 once a service takes longer than the timeout', async () => {
    h.catalog.on('GET /platforms', { delayMs: 3000, body: [] });
    const started = Date.now();
    const res = await call(h.url, 'GET', '/api/service/platforms');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 'SERVICE_TIMEOUT', message: '서비스 응답이 지연되고 있습니다. 잠시 후 다시 시도해 주세요.' });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('hides a service 500 without a proper body behind a generic 502, never a stack', async () => {
    h.catalog.on('GET /notices', { status: 500, raw: '<html>Error: boom\n    at stack.js:1:1</html>' });
    const res = await call(h.url, 'GET', '/api/service/notices');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 'SERVICE_FAILED', message: '일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.' });
  });

  it('passes a service 5xx that carries a Korean message on as it is', async () => {
    h.auth.on('POST /sessions/naver', { status: 502, body: { code: 'SOCIAL_PROVIDER_UNAVAILABLE', message: '네이버 로그인에 실패했습니다. 잠시 후 다시 시도해 주세요.' } });
    const res = await call(h.url, 'POST', '/api/auth/login/naver', { body: { code: 'c' } });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('네이버 로그인에 실패했습니다. 잠시 후 다시 시도해 주세요.');
  });

  it('answers 502 SERVICE_FAILED when a service answers off its contract, and logs the call and what is off', async () => {
    // A registration path list whose options lost their text: the choice cannot be checked.
    h.catalog.on('GET /register-where', { body: [{ id: 1, name: '검색' }] });
    const before = h.auth.calls('POST /members').length;
    const res = await call(h.url, 'POST', '/api/auth/register', { body: { id: 'kim', password: 'pw-12345', email: 'k@e.kr', registerWhere: '검색' } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 'SERVICE_FAILED', message: '일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.' });
    expect(h.auth.calls('POST /members').length).toBe(before);
    expect(logged.find((l) => l.msg === 'service answered off its contract')).toMatchObject({ route: 'catalog GET /register-where', status: 200, issues: [expect.objectContaining({ path: '0.text' })] });

    // A paid order whose id is not a number: the member is told it failed, never a 500 or a wrong id.
    h.order.on('POST /orders', { status: 201, body: { outcome: 'accepted', order: { id: '7', kind: 'order' } } });
    const order = await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), body: { serviceId: '1', link: 'kim', amount: 10 } });
    expect(order.status).toBe(502);
    expect(order.body.code).toBe('SERVICE_FAILED');
    expect(logged.filter((l) => l.msg === 'service answered off its contract').map((l) => l.route)).toContain('order POST /orders');
  });

  it('is not ready while a service is down, and says which', async () => {
    const res = await call(h.url, 'GET', '/readyz', { token: opsToken });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not_ready', checks: { redis: 'ok', auth: 'ok', catalog: 'ok', wallet: 'unavailable', order: 'ok', fulfillment: 'ok' } });
  });

  it('keeps the internal services and the metrics off the public port unless the ops token is given', async () => {
    for (const token of [undefined, 'wrong-token-0123456789']) {
      const ready = await call(h.url, 'GET', '/readyz', token === undefined ? {} : { token });
      expect([ready.status, ready.body]).toEqual([503, { status: 'not_ready' }]);
      expect((await fetch(`${h.url}/metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    }
    const metrics = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${opsToken}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
  });
});
