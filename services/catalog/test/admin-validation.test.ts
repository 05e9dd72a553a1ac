import { beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, forgedCallerHeaders } from '@smm/testkit';
import { messages as m } from '../src/domain/messages.ts';
import { type ErrorBody, client, catalogSuite } from './support.ts';

let categoryId: number;
let serviceId: number;

const service = (over: Record<string, unknown> = {}) => ({ text: '테스트 좋아요', categoryId, min: 10, max: 1000, point: '2.5', ...over });

const suite = catalogSuite();

beforeAll(async () => {
  expect((await suite.admin.post('/admin/platforms', { id: 1, text: '인스타그램', background: '#E1306C' })).status).toBe(201);
  categoryId = (await suite.admin.post<{ id: number }>('/admin/categories', { text: '좋아요', platformId: 1 })).body.id;
  serviceId = (await suite.admin.post<{ id: number }>('/admin/services', service())).body.id;
});

function expectError(res: { status: number; body: unknown }, status: number, code: string, message?: string) {
  expect({ status: res.status, code: (res.body as ErrorBody).code }).toEqual({ status, code });
  if (message !== undefined) expect((res.body as ErrorBody).message).toBe(message);
  else expect((res.body as ErrorBody).message).toMatch(/[가-힣]/);
}

describe('admin access', () => {
  it('refuses callers the BFF did not mark as admin', async () => {
    expectError(await client(suite.catalog.base).get('/admin/platforms'), 403, 'ADMIN_ONLY', m.adminOnly);
    expectError(await client(suite.catalog.base, 'member').post('/admin/notices', { content: 'x' }), 403, 'ADMIN_ONLY', m.adminOnly);
    expect((await suite.admin.get('/admin/platforms')).status).toBe(200);
  });

  it('refuses staff: the catalogue, content and settings are edited by admins only (issue 12)', async () => {
    const staff = client(suite.catalog.base, 'staff');
    expectError(await staff.get('/admin/settings'), 403, 'ADMIN_ONLY', m.adminOnly);
    expectError(await staff.put('/admin/settings/FOOTER_COMPANY', { value: '스태프' }), 403, 'ADMIN_ONLY', m.adminOnly);
    expectError(await staff.put('/admin/platforms/order', { ids: [1] }), 403, 'ADMIN_ONLY', m.adminOnly);
    expectError(await staff.post('/admin/notices', { content: '공지' }), 403, 'ADMIN_ONLY', m.adminOnly);
    expect((await client(suite.catalog.base).get<Array<{ content: string }>>('/notices')).body.map((n) => n.content)).not.toContain('공지');
  });

  it('refuses calls without a valid credential for the catalog, public reads included', async () => {
    for (const [name, headers] of Object.entries(forgedCallerHeaders('catalog'))) {
      const write = await fetch(`${suite.catalog.base}/admin/notices`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ content: '공지' }) });
      const read = await fetch(`${suite.catalog.base}/platforms`, { headers });
      expect({ name, write: write.status, read: read.status }).toEqual({ name, write: 401, read: 401 });
    }
  });

  it('answers malformed JSON and unknown fields with 400', async () => {
    const res = await fetch(`${suite.catalog.base}/admin/notices`, { method: 'POST', headers: { 'content-type': 'application/json', ...callerHeaders({ to: 'catalog', userId: 'admin-1', role: 'admin' }) }, body: '{"content":' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).code).toBe('MALFORMED_BODY');
    expectError(await suite.admin.post('/admin/notices', { content: '공지', colour: 'red' }), 400, 'VALIDATION_FAILED');
  });
});

describe('platforms', () => {
  it.each([[0], [15], [1.5], ['2']])('refuses platform id %j', async (id) => {
    expectError(await suite.admin.post('/admin/platforms', { id, text: '유튜브', background: '#FF0000' }), 400, 'VALIDATION_FAILED', m.platformIdRange);
  });
  it('refuses a taken id, a bad colour, empty or long text, an empty patch', async () => {
    expectError(await suite.admin.post('/admin/platforms', { id: 1, text: '다른 이름', background: '#000000' }), 409, 'PLATFORM_EXISTS', m.platformExists);
    expectError(await suite.admin.post('/admin/platforms', { id: 2, text: '유튜브', background: 'red' }), 400, 'VALIDATION_FAILED', m.colorInvalid);
    expectError(await suite.admin.post('/admin/platforms', { id: 2, text: '  ', background: '#FF0000' }), 400, 'VALIDATION_FAILED', m.textRequired);
    expectError(await suite.admin.post('/admin/platforms', { id: 2, text: '가'.repeat(101), background: '#FF0000' }), 400, 'VALIDATION_FAILED', m.textTooLong);
    expectError(await suite.admin.patch('/admin/platforms/1', {}), 400, 'VALIDATION_FAILED', m.nothingToUpdate);
    expectError(await suite.admin.patch('/admin/platforms/1', { visible: 'no' }), 400, 'VALIDATION_FAILED', m.visibleInvalid);
  });
  it('answers 404 for unknown ids and refuses to delete a platform with categories', async () => {
    expectError(await suite.admin.patch('/admin/platforms/9', { text: '없음' }), 404, 'PLATFORM_NOT_FOUND', m.platformNotFound);
    expectError(await suite.admin.del('/admin/platforms/9'), 404, 'PLATFORM_NOT_FOUND');
    expectError(await suite.admin.del('/admin/platforms/1'), 409, 'PLATFORM_HAS_CATEGORIES', m.platformHasCategories);
    expectError(await suite.admin.patch('/admin/platforms/abc', { text: 'x' }), 400, 'VALIDATION_FAILED', m.idInvalid);
  });
  it('creates, updates and deletes an empty platform', async () => {
    const created = await suite.admin.post('/admin/platforms', { id: 14, text: '기타', background: '#777' });
    expect(created).toMatchObject({ status: 201, body: { id: 14, text: '기타', icon: 'etc', visible: true, background: '#777' } });
    expect((await suite.admin.patch('/admin/platforms/14', { text: '기타 플랫폼', visible: false })).body).toMatchObject({ text: '기타 플랫폼', visible: false });
    expect((await suite.admin.del('/admin/platforms/14')).status).toBe(204);
    expect((await suite.admin.get<Array<{ id: number }>>('/admin/platforms')).body.map((p) => p.id)).toEqual([1]);
  });
});

describe('categories', () => {
  it('needs a known platform', async () => {
    expectError(await suite.admin.post('/admin/categories', { text: '팔로워', platformId: 5 }), 400, 'UNKNOWN_PLATFORM', m.unknownPlatform);
    expectError(await suite.admin.patch(`/admin/categories/${categoryId}`, { platformId: 5 }), 400, 'UNKNOWN_PLATFORM', m.unknownPlatform);
    expectError(await suite.admin.post('/admin/categories', { text: '팔로워', platformId: 0 }), 400, 'VALIDATION_FAILED', m.idInvalid);
    expectError(await suite.admin.post('/admin/categories', { platformId: 1 }), 400, 'VALIDATION_FAILED', m.textRequired);
  });
  it('answers 404 for unknown ids and refuses to delete a category with services', async () => {
    expectError(await suite.admin.patch('/admin/categories/999', { text: 'x' }), 404, 'CATEGORY_NOT_FOUND', m.categoryNotFound);
    expectError(await suite.admin.del('/admin/categories/999'), 404, 'CATEGORY_NOT_FOUND');
    expectError(await suite.admin.del(`/admin/categories/${categoryId}`), 409, 'CATEGORY_HAS_SERVICES', m.categoryHasServices);
    const empty = await suite.admin.post<{ id: number }>('/admin/categories', { text: '빈 카테고리', platformId: 1 });
    expect((await suite.admin.del(`/admin/categories/${empty.body.id}`)).status).toBe(204);
  });
});

describe('services', () => {
  it('creates a service with a price of one decimal digit, typed as text or number', async () => {
    const created = await suite.admin.post('/admin/services', service({ point: 12.5, notice: ' 안내 ', enableAuto: true }));
    expect(created).toMatchObject({ status: 201, body: { point: 12.5, unitPriceDeci: 125, notice: '안내', enableAuto: true, isReadOnly: false, visible: true, platformId: 1 } });
    expect((await suite.admin.post('/admin/services', service({ point: '3' }))).body).toMatchObject({ point: 3, unitPriceDeci: 30 });
  });

  it.each([
    ['{ min: 11, max: 10 }', { min: 11, max: 10 }, 'MIN_ABOVE_MAX', m.minAboveMax],
    ['{ min: 0 }', { min: 0 }, 'VALIDATION_FAILED', m.minInvalid],
    ['{ min: -5 }', { min: -5 }, 'VALIDATION_FAILED', m.minInvalid],
    ['{ min: 1.5 }', { min: 1.5 }, 'VALIDATION_FAILED', m.minInvalid],
    ['{ max: 0 }', { max: 0 }, 'VALIDATION_FAILED', m.maxInvalid],
    ['{ max: 100 }', { max: '100' }, 'VALIDATION_FAILED', m.maxInvalid],
    ['{ max: 100_000_001 }', { max: 100_000_001 }, 'QUANTITY_TOO_LARGE', m.quantityTooLarge],
    ['{ point: 2.55 }', { point: '2.55' }, 'INVALID_PRICE', m.priceInvalid],
    ['{ point: 0.15 }', { point: 0.15 }, 'INVALID_PRICE', m.priceInvalid],
    ['{ point: 0 }', { point: 0 }, 'INVALID_PRICE', m.priceInvalid],
    ['{ point: -1 }', { point: '-1' }, 'INVALID_PRICE', m.priceInvalid],
    ['{ point: 무료 }', { point: '무료' }, 'INVALID_PRICE', m.priceInvalid],
    ['{ point: 1000000.5 }', { point: '1000000.5' }, 'PRICE_TOO_HIGH', m.priceTooHigh],
    ['{ point: null }', { point: null }, 'VALIDATION_FAILED', m.priceInvalid],
    ['{ categoryId: 999 }', { categoryId: 999 }, 'UNKNOWN_CATEGORY', m.unknownCategory],
    ['{ text:  }', { text: '' }, 'VALIDATION_FAILED', m.textRequired],
    ['{ enableAuto: yes }', { enableAuto: 'yes' }, 'VALIDATION_FAILED', m.flagInvalid],
    ['{ notice: 5001자 }', { notice: 'x'.repeat(5001) }, 'VALIDATION_FAILED', m.noticeTooLong],
  ])('refuses to create with %s', async (_label, over, code, message) => {
    expectError(await suite.admin.post('/admin/services', service(over)), 400, code, message);
  });

  it('checks min ≤ max against the stored values on a partial update', async () => {
    expectError(await suite.admin.patch(`/admin/services/${serviceId}`, { min: 1001 }), 400, 'MIN_ABOVE_MAX', m.minAboveMax);
    expectError(await suite.admin.patch(`/admin/services/${serviceId}`, { max: 9 }), 400, 'MIN_ABOVE_MAX', m.minAboveMax);
    expectError(await suite.admin.patch(`/admin/services/${serviceId}`, { point: '1.25' }), 400, 'INVALID_PRICE', m.priceInvalid);
    expectError(await suite.admin.patch(`/admin/services/${serviceId}`, { categoryId: 999 }), 400, 'UNKNOWN_CATEGORY', m.unknownCategory);
    expectError(await suite.admin.patch(`/admin/services/${serviceId}`, {}), 400, 'VALIDATION_FAILED', m.nothingToUpdate);
    expect((await suite.admin.patch(`/admin/services/${serviceId}`, { min: 1000, point: '4.5', isReadOnly: true })).body).toMatchObject({ min: 1000, max: 1000, point: 4.5, isReadOnly: true });
  });

  it('answers 404 for unknown services', async () => {
    expectError(await suite.admin.patch('/admin/services/999', { text: 'x' }), 404, 'SERVICE_NOT_FOUND', m.serviceNotFound);
    expectError(await suite.admin.del('/admin/services/999'), 404, 'SERVICE_NOT_FOUND', m.serviceNotFound);
    expectError(await suite.admin.get('/admin/services/999'), 404, 'SERVICE_NOT_FOUND');
    expectError(await client(suite.catalog.base).get('/services/999'), 404, 'SERVICE_NOT_FOUND');
  });
});

describe('concurrent changes', () => {
  it('never leaves a product in a category deleted at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const category = (await suite.admin.post<{ id: number }>('/admin/categories', { text: `경합 ${round}`, platformId: 1 })).body.id;
      const [created, deleted] = await Promise.all([suite.admin.post('/admin/services', service({ categoryId: category })), suite.admin.del(`/admin/categories/${category}`)]);
      const outcome = [created.status, deleted.status];
      expect([[201, 409], [400, 204]]).toContainEqual(outcome);
      if (outcome[0] === 201) expect((created.body as { categoryId: number }).categoryId).toBe(category);
    }
    const categories = new Set((await suite.admin.get<Array<{ id: number }>>('/admin/categories')).body.map((c) => c.id));
    const services = (await suite.admin.get<Array<{ categoryId: number }>>('/admin/services')).body;
    expect(services.filter((s) => !categories.has(s.categoryId))).toEqual([]);
  });
});

describe('notices, FAQ and register-where options', () => {
  it('validates and answers 404 for unknown ids', async () => {
    expectError(await suite.admin.post('/admin/notices', { content: ' ' }), 400, 'VALIDATION_FAILED', m.noticeContentRequired);
    expectError(await suite.admin.post('/admin/notices', { content: '공지', isTop: 'true' }), 400, 'VALIDATION_FAILED', m.flagInvalid);
    expectError(await suite.admin.patch('/admin/notices/999', { isTop: true }), 404, 'NOTICE_NOT_FOUND', m.noticeNotFound);
    expectError(await suite.admin.del('/admin/notices/999'), 404, 'NOTICE_NOT_FOUND');
    expectError(await suite.admin.post('/admin/faqs', { answer: '답' }), 400, 'VALIDATION_FAILED', m.faqTitleRequired);
    expectError(await suite.admin.post('/admin/faqs', { title: '질문' }), 400, 'VALIDATION_FAILED', m.faqAnswerRequired);
    expectError(await suite.admin.patch('/admin/faqs/999', { title: '질문' }), 404, 'FAQ_NOT_FOUND', m.faqNotFound);
    expectError(await suite.admin.post('/admin/register-where', { text: '' }), 400, 'VALIDATION_FAILED', m.textRequired);
    expectError(await suite.admin.del('/admin/register-where/999'), 404, 'REGISTER_WHERE_NOT_FOUND', m.registerWhereNotFound);
  });

  it('creates, updates, reorders and deletes', async () => {
    const a = await suite.admin.post<{ id: number }>('/admin/faqs', { title: '질문 A', answer: '답 A' });
    const b = await suite.admin.post<{ id: number }>('/admin/faqs', { title: '질문 B', answer: '답 B' });
    expect(a.status).toBe(201);
    expect((await suite.admin.patch(`/admin/faqs/${a.body.id}`, { answer: '새 답 A' })).body).toMatchObject({ id: a.body.id, title: '질문 A', answer: '새 답 A' });
    await suite.admin.put('/admin/faqs/order', { ids: [b.body.id, a.body.id] });
    expect((await client(suite.catalog.base).get<Array<{ title: string }>>('/faqs')).body.map((f) => f.title)).toEqual(['질문 B', '질문 A']);
    expect((await suite.admin.del(`/admin/faqs/${a.body.id}`)).status).toBe(204);
    expect((await client(suite.catalog.base).get<Array<{ title: string }>>('/faqs')).body.map((f) => f.title)).toEqual(['질문 B']);
  });
});

describe('reorder', () => {
  it('refuses an empty list, duplicates and unknown ids', async () => {
    expectError(await suite.admin.put('/admin/services/order', { ids: [] }), 400, 'VALIDATION_FAILED', m.reorderEmpty);
    expectError(await suite.admin.put('/admin/services/order', { ids: [serviceId, serviceId] }), 400, 'REORDER_DUPLICATE', m.reorderDuplicate);
    expectError(await suite.admin.put('/admin/services/order', { ids: [serviceId, 999] }), 404, 'SERVICE_NOT_FOUND');
    expectError(await suite.admin.put('/admin/platforms/order', { ids: [7] }), 404, 'PLATFORM_NOT_FOUND');
  });
});

describe('settings', () => {
  it('refuses unknown keys and malformed values, changing nothing', async () => {
    expectError(await suite.admin.put('/admin/settings/SITE_THEME', { value: 'dark' }), 400, 'UNKNOWN_SETTING');
    expectError(await suite.admin.put('/admin/settings/ENABLE_QNA', { value: 'yes' }), 400, 'INVALID_SETTING_VALUE');
    expectError(await suite.admin.put('/admin/settings/MAIN_COLOR', { value: 'blue' }), 400, 'INVALID_SETTING_VALUE');
    expectError(await suite.admin.put('/admin/settings/ENABLE_QNA', {}), 400, 'VALIDATION_FAILED', m.settingValueInvalid);
    expectError(await suite.admin.put('/admin/settings', { values: {} }), 400, 'NOTHING_TO_UPDATE', m.settingsEmpty);
    expectError(await suite.admin.put('/admin/settings', { values: { ENABLE_QNA: true, NOPE: 'x' } }), 400, 'UNKNOWN_SETTING');
    const settings = await client(suite.catalog.base).get<{ items: unknown[]; version: number }>('/settings');
    expect(settings.body).toMatchObject({ items: [], version: 0 });
  });

  it('stores flags as "true"/"false" and reads them back as booleans', async () => {
    const res = await suite.admin.put<{ changed: string[] }>('/admin/settings', { values: { ENABLE_QNA: true, ENABLE_REFERRAL: 'FALSE', FOOTER_COMPANY: ' 주식회사 테스트 ' } });
    expect(res.body.changed).toEqual(['ENABLE_QNA', 'ENABLE_REFERRAL', 'FOOTER_COMPANY']);
    const settings = await client(suite.catalog.base).get<{ items: Array<{ key: string; value: string }>; flags: Record<string, boolean> }>('/settings');
    expect(settings.body.items).toEqual([
      { key: 'FOOTER_COMPANY', value: '주식회사 테스트' },
      { key: 'ENABLE_REFERRAL', value: 'false' },
      { key: 'ENABLE_QNA', value: 'true' },
    ]);
    expect(settings.body.flags).toEqual({ ENABLE_REFERRAL: false, ENABLE_QNA: true });
  });
});
