import { describe, expect, it } from 'vitest';
import type { AuditTargetType } from '@smm/contracts';
import { auditRecordsInOutbox } from '@smm/platform';
import { catalogSuite } from './support.ts';

/** Issue 12: every operator change of the catalogue leaves exactly one audit record, written with it. */

const suite = catalogSuite();
const auditOf = (id: string | number, type?: AuditTargetType) => auditRecordsInOutbox(suite.catalog.connection, String(id), type);
const by = { userId: 'admin-1', role: 'admin' };

describe('audit records of catalog', () => {
  it('platform: create, update (changed fields only), refused update, delete', async () => {
    expect((await suite.admin.post('/admin/platforms', { id: 7, text: '틱톡', background: '#000000' })).status).toBe(201);
    expect((await suite.admin.patch('/admin/platforms/7', { text: '틱톡', visible: false })).status).toBe(200);
    expect((await suite.admin.patch('/admin/platforms/7', { background: 'red' })).status).toBe(400);
    expect((await suite.admin.del('/admin/platforms/7')).status).toBe(204);
    expect(await auditOf(7, 'platform')).toEqual([
      { actor: by, service: 'catalog', action: 'catalog.platform.create', target: { type: 'platform', id: '7' }, before: null, after: { text: '틱톡', background: '#000000', visible: true } },
      { actor: by, service: 'catalog', action: 'catalog.platform.update', target: { type: 'platform', id: '7' }, before: { visible: true }, after: { visible: false } },
      { actor: by, service: 'catalog', action: 'catalog.platform.delete', target: { type: 'platform', id: '7' }, before: { text: '틱톡', background: '#000000', visible: false }, after: null },
    ]);
  });

  it('product price change and notice edit record the value before and after; a setting records its old and new value', async () => {
    expect((await suite.admin.post('/admin/platforms', { id: 8, text: '유튜브', background: '#FF0000' })).status).toBe(201);
    const categoryId = (await suite.admin.post<{ id: number }>('/admin/categories', { text: '구독자', platformId: 8 })).body.id;
    const productId = (await suite.admin.post<{ id: number }>('/admin/services', { text: '구독자 늘리기', categoryId, min: 10, max: 1000, point: '2.5' })).body.id;
    expect((await suite.admin.patch(`/admin/services/${productId}`, { point: '3' })).status).toBe(200);
    const product = await auditOf(productId, 'product');
    expect(product.map((r) => r.action)).toEqual(['catalog.product.create', 'catalog.product.update']);
    expect(product[1]).toMatchObject({ before: { unitPriceDeci: 25 }, after: { unitPriceDeci: 30 } });

    const notice = await suite.admin.post<{ id: number }>('/admin/notices', { content: '점검 안내' });
    expect((await suite.admin.patch(`/admin/notices/${notice.body.id}`, { content: '점검 완료' })).status).toBe(200);
    const notices = await auditOf(notice.body.id, 'notice');
    expect(notices.map((r) => [r.action, r.before, r.after])).toEqual([
      ['catalog.content.create', null, expect.objectContaining({ content: '점검 안내' })],
      ['catalog.content.update', { content: '점검 안내' }, { content: '점검 완료' }],
    ]);

    const second = (await suite.admin.post<{ id: number }>('/admin/platforms', { id: 9, text: '틱톡', background: '#000000' })).body.id;
    expect((await suite.admin.put('/admin/platforms/order', { ids: [second, 8] })).status).toBe(200);
    expect(await auditOf('sort-order', 'platform')).toEqual([expect.objectContaining({ action: 'catalog.items.reorder', before: { order: [8, 9] }, after: { order: [9, 8] } })]);

    expect((await suite.admin.put('/admin/settings/MAIN_COLOR', { value: '#123456' })).status).toBe(200);
    expect((await suite.admin.put('/admin/settings/MAIN_COLOR', { value: '#123456' })).status).toBe(200);
    expect(await auditOf('MAIN_COLOR')).toEqual([expect.objectContaining({ action: 'catalog.setting.change', target: { type: 'setting', id: 'MAIN_COLOR' }, after: { value: '#123456' } })]);
  });
});
