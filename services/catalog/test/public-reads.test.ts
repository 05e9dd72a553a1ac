import { describe, expect, it } from 'vitest';
import { allSettingKeys } from '@smm/contracts';
import { client, startCatalog, catalogSuite } from './support.ts';

type Platform = { id: number; text: string; icon: string; visible: boolean; background: string };
type Category = { id: number; text: string; platform: number; platformId: number };
type Service = { id: number; text: string; categoryId: number; platformId: number; min: number; max: number; point: number; unitPriceDeci: number; notice: string; enableAuto: boolean; isReadOnly: boolean };
type Notice = { id: number; content: string; isTop: boolean };
type Settings = { version: number; etag: string; items: Array<{ key: string; value: string }>; flags: Record<string, boolean> };

const suite = catalogSuite({ seed: true });

describe('public catalogue reads after the seed', () => {
  it('lists only visible platforms, with their fixed icons, in sort order', async () => {
    const { status, body } = await suite.visitor.get<Platform[]>('/platforms');
    expect(status).toBe(200);
    expect(body.map((p) => p.text)).toEqual(['인스타그램', '유튜브', '틱톡', '페이스북', '네이버 블로그', '트위터(X)', '스레드']);
    expect(body[0]).toEqual({ id: 1, text: '인스타그램', icon: 'instagram', visible: true, background: '#E1306C' });
    const all = await suite.admin.get<Platform[]>('/admin/platforms');
    expect(all.body.find((p) => p.text === '카카오스토리')).toMatchObject({ id: 8, visible: false, icon: 'kakaostory' });
  });

  it('lists categories of visible platforms only, naming their platform', async () => {
    const { body } = await suite.visitor.get<Category[]>('/categories');
    expect(body.length).toBeGreaterThan(10);
    expect(body.some((c) => c.platform === 8)).toBe(false);
    expect(body.find((c) => c.platform === 1 && c.text === '팔로워')).toBeDefined();
    expect(body.every((c) => c.platformId === c.platform)).toBe(true);
    expect(body.map((c) => c.text)).toEqual(expect.arrayContaining(['좋아요', '팔로워', '조회수', '댓글', '구독자']));
  });

  it('lists visible services with the unit price in won and exact deci-won', async () => {
    const { body } = await suite.visitor.get<Service[]>('/services');
    const likes = body.find((s) => s.text === '인스타그램 한국인 좋아요');
    expect(likes).toMatchObject({ min: 10, max: 10000, point: 2.5, unitPriceDeci: 25, enableAuto: true, isReadOnly: false, platformId: 1 });
    expect(likes?.notice).toContain('한국인');
    expect(body.filter((s) => s.isReadOnly)).toHaveLength(1);
    expect(body.filter((s) => s.enableAuto).length).toBeGreaterThan(2);
    expect(body.some((s) => s.text.startsWith('카카오스토리'))).toBe(false);
    for (const s of body) {
      expect(s.min).toBeLessThanOrEqual(s.max);
      expect(Math.round(s.point * 10)).toBe(s.unitPriceDeci);
    }
    const one = await suite.visitor.get<Service>(`/services/${likes!.id}`);
    expect(one.body).toEqual(likes);
  });

  it('puts notices on top first', async () => {
    const { body } = await suite.visitor.get<Notice[]>('/notices');
    expect(body.length).toBeGreaterThanOrEqual(3);
    const firstNormal = body.findIndex((n) => !n.isTop);
    expect(firstNormal).toBeGreaterThan(0);
    expect(body.slice(firstNormal).every((n) => !n.isTop)).toBe(true);
    // A notice created later and put on top still comes before every normal notice.
    await suite.admin.post('/admin/notices', { content: '[긴급] 점검 안내', isTop: true });
    const after = await suite.visitor.get<Notice[]>('/notices');
    expect(after.body.findIndex((n) => n.content === '[긴급] 점검 안내')).toBeLessThan(after.body.findIndex((n) => !n.isTop));
  });

  it('serves the FAQ and register-where options', async () => {
    const faqs = await suite.visitor.get<Array<{ title: string; answer: string }>>('/faqs');
    expect(faqs.body.length).toBeGreaterThanOrEqual(8);
    expect(faqs.body.map((f) => f.title).join(' ')).toContain('환불');
    const where = await suite.visitor.get<Array<{ text: string }>>('/register-where');
    expect(where.body.map((w) => w.text)).toContain('기타');
    expect(where.body.map((w) => w.text)).toContain('지인 추천');
  });

  it('serves every setting of spec §3 with flags read as booleans', async () => {
    const { body, headers } = await suite.visitor.get<Settings>('/settings');
    expect(body.items.map((i) => i.key)).toEqual(allSettingKeys);
    expect(body.flags).toMatchObject({ ENABLE_REFERRAL: true, ENABLE_QNA: true, ENABLE_PRICE_LIST: true, ENABLE_PHONE_NUMBER_VERIFICATION: false, ENABLE_SERVICE_CHECK: false, ENABLE_PAYMENT_FEE: true, ENABLE_TOSS_PAYMENT: false, ENABLE_NAVER_LOGIN: false, ENABLE_KAKAO_LOGIN: false });
    expect(headers.get('etag')).toBe(body.etag);
    expect(body.version).toBeGreaterThan(0);
  });
});

describe('what members see follows the operator', () => {
  it('hides a hidden service and every service of a hidden platform', async () => {
    const services = (await suite.visitor.get<Service[]>('/services')).body;
    const target = services.find((s) => s.text === '틱톡 조회수')!;
    await suite.admin.patch(`/admin/services/${target.id}`, { visible: false });
    expect((await suite.visitor.get<Service[]>('/services')).body.some((s) => s.id === target.id)).toBe(false);
    expect((await suite.visitor.get(`/services/${target.id}`)).status).toBe(404);
    expect((await suite.admin.get(`/admin/services/${target.id}`)).status).toBe(200);

    await suite.admin.patch('/admin/platforms/3', { visible: false });
    expect((await suite.visitor.get<Platform[]>('/platforms')).body.some((p) => p.id === 3)).toBe(false);
    expect((await suite.visitor.get<Category[]>('/categories')).body.some((c) => c.platform === 3)).toBe(false);
    expect((await suite.visitor.get<Service[]>('/services')).body.some((s) => s.platformId === 3)).toBe(false);
    await suite.admin.patch('/admin/platforms/3', { visible: true });
    const back = (await suite.visitor.get<Service[]>('/services')).body.filter((s) => s.platformId === 3);
    expect(back.map((s) => s.text).sort()).toEqual(['틱톡 좋아요', '틱톡 팔로워']);
  });

  it('shows a change made through another replica at once (cached answers follow the catalog version)', async () => {
    const other = await startCatalog(suite.infra, suite.catalog.database);
    try {
      const before = (await suite.visitor.get<Service[]>('/services')).body;
      const target = before[0]!;
      await client(other.base, 'admin').patch(`/admin/services/${target.id}`, { point: '7.5', text: '다른 복제본에서 바꾼 이름' });
      const after = (await suite.visitor.get<Service[]>('/services')).body.find((s) => s.id === target.id);
      expect(after).toMatchObject({ point: 7.5, text: '다른 복제본에서 바꾼 이름' });
      await client(other.base, 'admin').post('/admin/register-where', { text: '카페·커뮤니티' });
      expect((await suite.visitor.get<Array<{ text: string }>>('/register-where')).body.at(-1)?.text).toBe('카페·커뮤니티');
    } finally {
      await other.close();
    }
  });

  it('follows a reorder', async () => {
    const before = (await suite.visitor.get<Platform[]>('/platforms')).body.map((p) => p.id);
    const reversed = [...before].reverse();
    const res = await suite.admin.put('/admin/platforms/order', { ids: reversed });
    expect(res.status).toBe(200);
    expect((await suite.visitor.get<Platform[]>('/platforms')).body.map((p) => p.id)).toEqual(reversed);

    // Reordering the services of one category leaves the others where they were.
    const services = (await suite.visitor.get<Service[]>('/services')).body;
    const instaLikes = services.filter((s) => s.categoryId === services[0]!.categoryId).map((s) => s.id);
    expect(instaLikes.length).toBeGreaterThanOrEqual(2);
    const others = services.filter((s) => !instaLikes.includes(s.id)).map((s) => s.id);
    await suite.admin.put('/admin/services/order', { ids: [...instaLikes].reverse() });
    const after = (await suite.visitor.get<Service[]>('/services')).body;
    expect(after.filter((s) => instaLikes.includes(s.id)).map((s) => s.id)).toEqual([...instaLikes].reverse());
    expect(after.filter((s) => !instaLikes.includes(s.id)).map((s) => s.id)).toEqual(others);
  });

  it('moves the settings version and ETag on a change, and answers 304 while unchanged', async () => {
    const first = await suite.visitor.get<Settings>('/settings');
    const unchanged = await suite.visitor.get('/settings', { 'if-none-match': first.body.etag });
    expect(unchanged.status).toBe(304);
    expect((await suite.visitor.get<{ version: number }>('/settings/version')).body.version).toBe(first.body.version);

    const put = await suite.admin.put<{ version: number; changed: string[] }>('/admin/settings/MAIN_COLOR', { value: '#111111' });
    expect(put.body).toEqual({ version: first.body.version + 1, changed: ['MAIN_COLOR'] });
    const changed = await suite.visitor.get<Settings>('/settings', { 'if-none-match': first.body.etag });
    expect(changed.status).toBe(200);
    expect(changed.body.version).toBe(first.body.version + 1);
    expect(changed.body.items.find((i) => i.key === 'MAIN_COLOR')?.value).toBe('#111111');

    // Writing the same value again changes nothing, so caches stay valid.
    const same = await suite.admin.put<{ version: number; changed: string[] }>('/admin/settings', { values: { MAIN_COLOR: '#111111' } });
    expect(same.body).toEqual({ version: first.body.version + 1, changed: [] });
  });
});
