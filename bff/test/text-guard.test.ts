import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(async () => {
  for (const fake of [h.auth, h.catalog, h.wallet, h.order]) fake.reset();
  await h.redis.flushall();
});

const unsafe = '입력값에 사용할 수 없는 문자(제어 문자, 방향 제어 문자)가 포함되어 있습니다.';
const invisible = '보이지 않는 문자만으로는 입력할 수 없습니다.';

describe('free text at the edge', () => {
  it('refuses control characters, bidi overrides and invisible-only text in any field, naming it, before a service sees it', async () => {
    const admin = h.keys.admin();
    for (const [body, field, message] of [
      [{ title: '\u200B\u3164', content: '본문' }, 'title', invisible],
      [{ title: '공지\n제목', content: '본문' }, 'title', unsafe],
      [{ title: '공지', content: 'abc\u202Etxt.exe' }, 'content', unsafe],
      [{ title: '공지', content: '본문', tags: ['ok', 'esc\u001b[31m'] }, 'tags.1', unsafe],
    ] as const) {
      const res = await call(h.url, 'POST', '/api/admin/notices', { token: admin, body });
      expect([res.status, res.body.code, res.body.message], field).toEqual([400, 'VALIDATION_FAILED', message]);
      expect(res.body.details).toEqual([{ field, message }]);
    }
    const query = await call(h.url, 'GET', '/api/admin/notices?q=%E2%80%AE', { token: admin });
    expect(query.status).toBe(400);
    expect(h.catalog.requests).toEqual([]);
  });

  it('lets line breaks through in multi-line fields (content, reason) and ordinary Korean text everywhere', async () => {
    h.catalog.on('POST /admin/notices', { status: 201, body: { id: 1 } });
    const res = await call(h.url, 'POST', '/api/admin/notices', { token: h.keys.admin(), body: { title: '점검 안내 (주)스마일 🙏', content: '첫 줄\r\n둘째 줄\t끝' } });
    expect(res.status).toBe(201);
    expect(h.catalog.calls('POST /admin/notices')[0]!.body).toEqual({ title: '점검 안내 (주)스마일 🙏', content: '첫 줄\r\n둘째 줄\t끝' });
  });

  it('answers API v2 in its own shape, and never reaches the order service', async () => {
    const res = await call(h.url, 'POST', '/api/v2', { body: { key: 'k', action: 'add', service: '1', link: 'https://a.com/\u0000', quantity: '10' } });
    expect([res.status, res.body]).toEqual([400, { error: 'Incorrect text: control, direction or invisible-only characters' }]);
    expect(h.order.requests).toEqual([]);
    expect(h.auth.requests).toEqual([]);
  });
});
