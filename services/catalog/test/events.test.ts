import { describe, expect, it } from 'vitest';
import { type EventEnvelope, Topics } from '@smm/contracts';
import { outboxModel } from '@smm/platform';
import { eventually, catalogSuite } from './support.ts';

const suite = catalogSuite({ events: true });

/**
 * Waits until the topic holds `count` events in all, then a little longer, so an extra (duplicate
 * or unexpected) event would be seen; answers the events of one aggregate in topic order.
 */
async function settle(count: number): Promise<EventEnvelope[]> {
  await suite.catalog.flush();
  await eventually(() => suite.received.events.length, (n) => n >= count);
  await new Promise((r) => setTimeout(r, 600));
  expect(suite.received.events.length).toBe(count);
  return suite.received.events;
}
const of = (events: EventEnvelope[], aggregateId: string) => events.filter((e) => e.aggregateId === aggregateId);

describe('catalog events on suite.catalog.events.v1', () => {
  it('announce each product change exactly once, with what replicas hold', async () => {
    await suite.admin.post('/admin/platforms', { id: 1, text: '인스타그램', background: '#E1306C' });
    await suite.admin.post('/admin/platforms', { id: 2, text: '유튜브', background: '#FF0000' });
    const category = (await suite.admin.post<{ id: number }>('/admin/categories', { text: '좋아요', platformId: 1 })).body.id;
    expect(await settle(0)).toEqual([]); // platforms and categories alone concern no replica

    const created = await suite.admin.post<{ id: number }>(
      '/admin/services',
      { text: '인스타그램 한국인 좋아요', categoryId: category, min: 10, max: 10000, point: '2.5', enableAuto: true, notice: '안내' },
      { 'x-correlation-id': 'corr-create-1' },
    );
    const id = created.body.id;
    let events = await settle(1);
    expect(events[0]).toMatchObject({
      type: 'ServiceUpserted',
      version: 1,
      aggregateId: `service-${id}`,
      correlationId: 'corr-create-1',
      data: { serviceId: id, text: '인스타그램 한국인 좋아요', platformId: 1, categoryId: category, min: 10, max: 10000, unitPriceDeci: 25, enableAuto: true, isReadOnly: false, visible: true },
    });

    await suite.admin.patch(`/admin/services/${id}`, { point: 3, max: 5000 });
    await suite.admin.patch(`/admin/services/${id}`, { notice: '새 안내 문구' }); // notices are not replicated: no event
    expect((await suite.admin.patch(`/admin/services/${id}`, { min: 6000 })).status).toBe(400); // refused: no event
    events = await settle(2);
    expect(of(events, `service-${id}`)[1]!.data).toMatchObject({ unitPriceDeci: 30, max: 5000, min: 10 });

    await suite.admin.patch('/admin/platforms/1', { visible: false });
    await suite.admin.patch('/admin/platforms/1', { text: '인스타' }); // no visibility change: no event
    events = await settle(3);
    expect(of(events, `service-${id}`)[2]!.data).toMatchObject({ visible: false, platformId: 1 });

    await suite.admin.patch(`/admin/categories/${category}`, { platformId: 2 });
    events = await settle(4);
    expect(of(events, `service-${id}`)[3]!.data).toMatchObject({ visible: true, platformId: 2 });

    await suite.admin.put('/admin/services/order', { ids: [id] });
    await suite.admin.post('/admin/notices', { content: '공지' });
    await suite.admin.del(`/admin/services/${id}`, { 'x-correlation-id': 'corr-delete-1' });
    expect((await suite.admin.del(`/admin/services/${id}`)).status).toBe(404);
    events = await settle(5);
    expect(of(events, `service-${id}`).map((e) => e.type)).toEqual(['ServiceUpserted', 'ServiceUpserted', 'ServiceUpserted', 'ServiceUpserted', 'ServiceRemoved']);
    expect(events[4]).toMatchObject({ type: 'ServiceRemoved', aggregateId: `service-${id}`, correlationId: 'corr-delete-1', data: { serviceId: id } });
  });

  it('announce each setting change exactly once, and nothing for unchanged values', async () => {
    const base = suite.received.events.length;
    await suite.admin.put('/admin/settings/ENABLE_PHONE_NUMBER_VERIFICATION', { value: true });
    await suite.admin.put('/admin/settings', { values: { ENABLE_PHONE_NUMBER_VERIFICATION: 'TRUE', ENABLE_REFERRAL: false, FOOTER_CEO: '홍길동' } });
    await suite.admin.put('/admin/settings', { values: { ENABLE_REFERRAL: 'false' } });
    expect((await suite.admin.put('/admin/settings', { values: { FOOTER_CEO: '김철수', NOPE: 'x' } })).status).toBe(400);
    const events = (await settle(base + 3)).slice(base);
    expect(events.map((e) => [e.type, e.aggregateId, e.data])).toEqual(
      expect.arrayContaining([
        ['SettingChanged', 'setting-ENABLE_PHONE_NUMBER_VERIFICATION', { key: 'ENABLE_PHONE_NUMBER_VERIFICATION', value: 'true' }],
        ['SettingChanged', 'setting-ENABLE_REFERRAL', { key: 'ENABLE_REFERRAL', value: 'false' }],
        ['SettingChanged', 'setting-FOOTER_CEO', { key: 'FOOTER_CEO', value: '홍길동' }],
      ]),
    );
  });

  it('publish every committed event once: the topic matches the outbox', async () => {
    await suite.catalog.flush();
    const outbox = await outboxModel(suite.catalog.connection).find({ topic: Topics.catalog }).lean();
    expect(new Set(suite.received.events.map((e) => e.eventId))).toEqual(new Set(outbox.map((r) => r.eventId)));
    expect(suite.received.events.length).toBe(outbox.length);
  });
});
