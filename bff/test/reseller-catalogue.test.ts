import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';
import { platformViewBody } from './support/service-bodies.ts';

/**
 * The reseller list's cache window counts from when catalog was asked, not from when it answered:
 * a slow answer must not stretch how long a new product stays out of the list.
 */
const WINDOW_MS = 1000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ reseller: { ratePerMinute: 1000, apiKeyCacheSeconds: 60, catalogueCacheMs: WINDOW_MS, orderWaitMs: 500 } });
  h.auth.on('POST /api-keys/resolve', { body: { userId: 'user-a', loginId: 'login-a', role: 'member' } });
  h.catalog.on('GET /categories', { body: [{ id: 10, text: '좋아요', platform: 1, platformId: 1 }] });
  h.catalog.on('GET /platforms', { body: [platformViewBody({ id: 1, text: '인스타그램' })] });
});
afterAll(() => h.stop());

const product = (id: number) => ({ id, text: `상품 ${id}`, categoryId: 10, platformId: 1, min: 10, max: 1000, point: 2, unitPriceDeci: 20, notice: '', enableAuto: true, isReadOnly: false });
const listed = async () => ((await call<Array<{ id: number }>>(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-a' } })).body).map((s) => s.id);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the reseller API’s product list', () => {
  it('lists a product made during a slow answer once the window from the question has passed', async () => {
    // Catalog takes 700 ms to answer; product 2 is made while that answer is on its way.
    h.catalog.on('GET /services', { body: [product(1)], delayMs: 700 });
    expect(await listed()).toEqual([1]);
    // The BFF asked at least 700 ms before this answer reached the test (when exactly, a loaded
    // machine decides), so the window counted from the question ends by 300 ms from now; counted
    // from the answer, it would last 1,000 ms from about now.
    const answeredAt = Date.now();
    h.catalog.on('GET /services', { body: [product(1), product(2)] });
    // Still inside the window: the cached list is served.
    expect(await listed()).toEqual([1]);
    await wait(answeredAt + WINDOW_MS - 700 + 150 - Date.now());
    expect(await listed()).toEqual([1, 2]);
  });
});
