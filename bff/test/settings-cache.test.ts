import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeAnswer, RecordedRequest } from './support/fake-service.ts';
import { type Harness, call, opsToken, startHarness } from './support/harness.ts';

let h: Harness;
/** How long a cached copy counts as fresh; the tests wait just past it to see a revalidation. */
const WINDOW_SECONDS = 2;
const pastWindow = WINDOW_SECONDS * 1000 + 150;
/** What the fake catalog holds: a version and values, answered like catalog does (ETag, 304). */
let version = 1;
let values: Record<string, string> = { MAIN_COLOR: '#4F46E5', ENABLE_QNA: 'true' };
let down = false;

function settingsAnswer(req: RecordedRequest): FakeAnswer {
  if (down) return { delayMs: 5000 };
  const etag = `"settings-${version}"`;
  if (req.headers['if-none-match'] === etag) return { status: 304, headers: { etag } };
  return { headers: { etag }, body: { version, etag, items: Object.entries(values).map(([key, value]) => ({ key, value })), flags: {} } };
}

beforeAll(async () => {
  h = await startHarness({ revalidateSeconds: WINDOW_SECONDS, upstreamTimeoutMs: 300 });
});
afterAll(() => h.stop());
beforeEach(async () => {
  await h.redis.flushall();
  h.catalog.reset();
  h.catalog.on('GET /settings', settingsAnswer);
  version = 1;
  values = { MAIN_COLOR: '#4F46E5', ENABLE_QNA: 'true' };
  down = false;
});

const read = () => call<Array<{ key: string; value: string }>>(h.url, 'GET', '/api/service/settings');
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /api/service/settings', () => {
  it('answers the spec shape and serves repeated reads from Redis without asking catalog', async () => {
    const first = await read();
    expect(first.status).toBe(200);
    expect(first.body).toEqual([
      { key: 'MAIN_COLOR', value: '#4F46E5' },
      { key: 'ENABLE_QNA', value: 'true' },
    ]);
    expect(first.headers.get('x-cache')).toBe('miss');
    for (let i = 0; i < 3; i++) expect((await read()).headers.get('x-cache')).toBe('hit');
    expect(h.catalog.calls('GET /settings')).toHaveLength(1);
    expect(await h.redis.ttl('bff:settings:v1')).toBeGreaterThan(3500);
  });

  it('asks catalog by ETag after the revalidation window and keeps the cache when nothing changed', async () => {
    await read();
    await wait(pastWindow);
    const again = await read();
    expect(again.headers.get('x-cache')).toBe('revalidated');
    expect(h.catalog.calls('GET /settings')[1]!.headers['if-none-match']).toBe('"settings-1"');
  });

  it('picks up a change made in catalog once the window has passed', async () => {
    await read();
    values = { ...values, MAIN_COLOR: '#000000' };
    version = 2;
    expect((await read()).body[0]).toEqual({ key: 'MAIN_COLOR', value: '#4F46E5' });
    await wait(pastWindow);
    const changed = await read();
    expect(changed.headers.get('x-cache')).toBe('miss');
    expect(changed.body[0]).toEqual({ key: 'MAIN_COLOR', value: '#000000' });
  });

  it('drops the cache at once when an admin changes settings through the BFF', async () => {
    await read();
    h.catalog.on('PUT /admin/settings/MAIN_COLOR', (req) => {
      values = { ...values, MAIN_COLOR: String((req.body as { value: string }).value) };
      version += 1;
      return { body: { version, changed: ['MAIN_COLOR'] } };
    });
    const put = await call(h.url, 'PUT', '/api/admin/settings/MAIN_COLOR', { token: h.keys.admin(), body: { value: '#123456' } });
    expect(put.status).toBe(200);
    const after = await read();
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(after.body[0]).toEqual({ key: 'MAIN_COLOR', value: '#123456' });
  });

  it('keeps serving the cached copy while catalog is down, and 503 when there is none', async () => {
    await read();
    down = true;
    await wait(pastWindow);
    const stale = await read();
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-cache')).toBe('stale');
    expect(stale.body).toHaveLength(2);
    await h.redis.flushall();
    const none = await read();
    expect(none.status).toBe(503);
    expect(none.body).toMatchObject({ code: 'SERVICE_TIMEOUT' });
  });
});

describe('GET /api/service/qnas', () => {
  it('follows ENABLE_QNA: the FAQ while it is on, 404 with a Korean message while it is off', async () => {
    h.catalog.on('GET /faqs', { body: [{ id: 1, title: '질문', answer: '답변' }] });
    const on = await call(h.url, 'GET', '/api/service/qnas');
    expect(on.status).toBe(200);
    expect(on.body).toEqual([{ id: 1, title: '질문', answer: '답변' }]);
    values = { ...values, ENABLE_QNA: 'false' };
    version = 2;
    await wait(pastWindow);
    const off = await call(h.url, 'GET', '/api/service/qnas');
    expect(off.status).toBe(404);
    expect(off.body).toEqual({ code: 'QNA_DISABLED', message: '자주 묻는 질문 메뉴를 이용할 수 없습니다.' });
  });
});

// Last in the file: it stops this file's Redis.
describe('without Redis', () => {
  it('still answers settings straight from catalog, and /readyz says Redis is away', async () => {
    await read();
    await h.embeddedRedis.close();
    const res = await read();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-cache')).toBe('miss');
    expect(res.body).toHaveLength(2);
    const ready = await call(h.url, 'GET', '/readyz', { token: opsToken });
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ checks: { redis: 'unavailable' } });
  });
});
