import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.ts';
import { rawRequest } from './support/raw-request.ts';

let h: Harness;
const services = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, text: `인스타그램 한국인 좋아요 ${i + 1}`, categoryId: 10, platformId: 1, min: 10, max: 100_000, point: 1, unitPriceDeci: 10, notice: '작업 시작까지 평균 10분', enableAuto: true, isReadOnly: false }));

beforeAll(async () => {
  h = await startHarness();
  h.catalog.on('GET /services', { body: services });
});
afterAll(() => h.stop());

describe('API reads', () => {
  it('are sent compressed to a client that accepts it, and decode to the same list', async () => {
    const res = await rawRequest(`${h.url}/api/service/services`, { acceptEncoding: 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const list = JSON.parse(gunzipSync(res.body).toString()) as Array<{ id: number; text: string }>;
    expect(list).toHaveLength(60);
    expect(list[59]!.text).toBe('인스타그램 한국인 좋아요 60');
    expect(res.body.length).toBeLessThan(JSON.stringify(list).length / 3);
  });

  it('are sent as they are to a client that does not accept compression', async () => {
    const res = await rawRequest(`${h.url}/api/service/services`, { acceptEncoding: 'identity' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toHaveLength(60);
  });
});
