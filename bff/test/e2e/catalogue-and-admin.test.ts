import { describe, expect, it } from 'vitest';
import { api, asAdmin, newMember, setSettings } from './support/client.ts';

type Platform = { id: number; text: string; visible: boolean; background: string };
type Category = { id: number; text: string; platform: number };
type Service = { id: number; text: string; categoryId: number; min: number; max: number; point: number; notice: string; enableAuto: boolean; isReadOnly: boolean };

describe('public reads (spec §7), no token needed', () => {
  it('platforms, categories, services, notices, FAQ and register-where in the spec shapes', async () => {
    const platforms = await api<Platform[]>('GET', '/service/platforms');
    expect(platforms.status).toBe(200);
    expect(platforms.body.map((p) => p.text)).toEqual(expect.arrayContaining(['인스타그램', '유튜브']));
    expect(platforms.body.every((p) => p.visible && p.id >= 1 && p.id <= 14)).toBe(true);

    const categories = await api<Category[]>('GET', '/service/categorys');
    expect(categories.body.length).toBeGreaterThan(0);
    expect(categories.body[0]).toEqual(expect.objectContaining({ id: expect.any(Number), text: expect.any(String), platform: expect.any(Number) }));

    const services = await api<Service[]>('GET', '/service/services');
    expect(services.body.length).toBeGreaterThan(0);
    for (const s of services.body) {
      expect(s).toEqual(expect.objectContaining({ id: expect.any(Number), text: expect.any(String), categoryId: expect.any(Number), point: expect.any(Number), enableAuto: expect.any(Boolean), isReadOnly: expect.any(Boolean) }));
      expect(s.min).toBeLessThanOrEqual(s.max);
    }

    const notices = await api<Array<{ content: string; isTop: boolean }>>('GET', '/service/notices');
    expect(notices.body.some((n) => n.isTop)).toBe(true);
    const qnas = await api<Array<{ title: string; answer: string }>>('GET', '/service/qnas');
    expect(qnas.body[0]).toEqual(expect.objectContaining({ title: expect.any(String), answer: expect.any(String) }));
    const where = await api<Array<{ text: string }>>('GET', '/service/register-where');
    expect(where.body.length).toBeGreaterThan(0);
  });

  it('settings: an array of {key, value} with every setting key, served from the cache on repeat', async () => {
    const first = await api<Array<{ key: string; value: string }>>('GET', '/service/settings');
    expect(first.status).toBe(200);
    expect(first.body.map((s) => s.key)).toEqual(expect.arrayContaining(['FOOTER_COMPANY', 'MAIN_COLOR', 'ENABLE_PHONE_NUMBER_VERIFICATION', 'KAKAO_TOKEN']));
    const second = await api('GET', '/service/settings');
    expect(second.headers.get('x-cache')).toBe('hit');
  });
});

describe('admin API (admin role only)', () => {
  const writes: Array<[string, string]> = [
    ['GET', '/admin/services'],
    ['POST', '/admin/services'],
    ['PATCH', '/admin/services/1'],
    ['DELETE', '/admin/notices/1'],
    ['POST', '/admin/platforms'],
    ['PUT', '/admin/categories/order'],
    ['POST', '/admin/faqs'],
    ['POST', '/admin/register-where'],
    ['PUT', '/admin/settings'],
    ['PUT', '/admin/settings/MAIN_COLOR'],
  ];

  it('answers 401 to anonymous callers and 403 to members', async () => {
    const member = await newMember();
    for (const [method, path] of writes) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { value: '#000000', text: 'x' };
      const anonymous = await api(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.code).toBe('TOKEN_INVALID');
      const asMember = await api(method, path, { token: member.token, body });
      expect(asMember.status, `${method} ${path}`).toBe(403);
      expect(asMember.body).toEqual({ code: 'ADMIN_ONLY', message: '관리자만 사용할 수 있습니다.' });
    }
    // nothing changed
    expect((await api<Service[]>('GET', '/service/services')).body.some((s) => s.text === 'x')).toBe(false);
  });

  it('lets an admin add, change and hide a product; members see the result; bad input gets catalog\'s Korean 400', async () => {
    const token = await asAdmin();
    const category = (await api<Category[]>('GET', '/service/categorys')).body[0]!;
    const bad = await api('POST', '/admin/services', { token, body: { text: '테스트 상품', categoryId: category.id, min: 100, max: 10, point: '1.5' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('최소 수량은 최대 수량보다 클 수 없습니다.');
    const unknown = await api('POST', '/admin/services', { token, body: { text: '테스트 상품', categoryId: 999_999, min: 10, max: 100, point: '1.5' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('존재하지 않는 카테고리입니다.');

    const text = `E2E 좋아요 ${Date.now()}`;
    const created = await api<Service>('POST', '/admin/services', { token, body: { text, categoryId: category.id, min: 10, max: 1000, point: '2.5', notice: '안내', enableAuto: true } });
    expect(created.status).toBe(201);
    let listed = (await api<Service[]>('GET', '/service/services')).body.find((s) => s.id === created.body.id);
    expect(listed).toMatchObject({ text, min: 10, max: 1000, point: 2.5, enableAuto: true, isReadOnly: false });

    const patched = await api('PATCH', `/admin/services/${created.body.id}`, { token, body: { max: 500, isReadOnly: true } });
    expect(patched.status).toBe(200);
    listed = (await api<Service[]>('GET', '/service/services')).body.find((s) => s.id === created.body.id);
    expect(listed).toMatchObject({ max: 500, isReadOnly: true });

    expect((await api('PATCH', `/admin/services/${created.body.id}`, { token, body: { visible: false } })).status).toBe(200);
    expect((await api<Service[]>('GET', '/service/services')).body.some((s) => s.id === created.body.id)).toBe(false);
    expect((await api<Service[]>('GET', '/admin/services', { token })).body.some((s) => s.id === created.body.id)).toBe(true);
  });

  it('lets an admin post a notice and a FAQ entry that everyone then reads', async () => {
    const token = await asAdmin();
    const content = `E2E 공지 ${Date.now()}`;
    expect((await api('POST', '/admin/notices', { token, body: { content, isTop: true } })).status).toBe(201);
    const notices = (await api<Array<{ content: string; isTop: boolean }>>('GET', '/service/notices')).body;
    expect(notices.find((n) => n.content === content)).toMatchObject({ isTop: true });
    const title = `E2E 질문 ${Date.now()}`;
    expect((await api('POST', '/admin/qnas', { token, body: { title, answer: '답변입니다.' } })).status).toBe(201);
    expect((await api<Array<{ title: string }>>('GET', '/service/qnas')).body.some((q) => q.title === title)).toBe(true);
  });

  it('a settings change shows at once in the cached /service/settings; an invalid value is refused', async () => {
    const token = await asAdmin();
    await api('GET', '/service/settings');
    const colour = `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0').toUpperCase()}`;
    await setSettings({ MAIN_COLOR: colour });
    const after = await api<Array<{ key: string; value: string }>>('GET', '/service/settings');
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(after.body.find((s) => s.key === 'MAIN_COLOR')?.value).toBe(colour);
    expect((await api('GET', '/service/settings')).headers.get('x-cache')).toBe('hit');

    const bad = await api('PUT', '/admin/settings/MAIN_COLOR', { token, body: { value: 'blue' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('색상 설정은 #RRGGBB 형식으로 입력해 주세요.');
    const unknownKey = await api('PUT', '/admin/settings/NO_SUCH_KEY', { token, body: { value: 'x' } });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.message).toContain('알 수 없는 설정 항목입니다.');
  });
});
