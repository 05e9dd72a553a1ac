import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventEnvelope, Topics } from '@smm/contracts';
import { outboxModel } from '@smm/platform';
import { type Catalog, client, collectEvents, eventually, startCatalog, startInfra } from './support.ts';

let infra: Awaited<ReturnType<typeof startInfra>>;
let catalog: Catalog;
let admin: ReturnType<typeof client>;
let received: Awaited<ReturnType<typeof collectEvents>>;

beforeAll(async () => {
  infra = await startInfra();
  catalog = await startCatalog(infra);
  admin = client(catalog.base, 'admin');
  received = await collectEvents(catalog.kafka);
});

afterAll(async () => {
  await received?.stop();
  await catalog?.close();
  await infra?.stop();
});

/**
 * Waits until the topic holds `count` events in all, then a little longer, so an extra (duplicate
 * or unexpected) event would be seen; answers the events of one aggregate in topic order.
 */
async function settle(count: number): Promise<EventEnvelope[]> {
  await catalog.flush();
  await eventually(() => received.events.length, (n) => n >= count);
  await new Promise((r) => setTimeout(r, 600));
  expect(received.events.length).toBe(count);
  return received.events;
}
const of = (events: EventEnvelope[], aggregateId: string) => events.filter((e) => e.aggregateId === aggregateId);

describe('catalog events on catalog.events.v1', () => {
  it('announce each product change exactly once, with what replicas hold', async () => {
    await admin.post('/admin/platforms', { id: 1, text: '인스타그램', background: '#E1306C' });
    await admin.post('/admin/platforms', { id: 2, text: '유튜브', background: '#FF0000' });
    const category = (await admin.post<{ id: number }>('/admin/categories', { text: '좋아요', platformId: 1 })).body.id;
    expect(await settle(0)).toEqual([]); // platforms and categories alone concern no replica

    const created = await admin.post<{ id: number }>(
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

    await admin.patch(`/admin/services/${id}`, { point: 3, max: 5000 });
    await admin.patch(`/admin/services/${id}`, { notice: '새 안내 문구' }); // notices are not replicated: no event
    expect((await admin.patch(`/admin/services/${id}`, { min: 6000 })).status).toBe(400); // refused: no event
    events = await settle(2);
    expect(of(events, `service-${id}`)[1]!.data).toMatchObject({ unitPriceDeci: 30, max: 5000, min: 10 });

    await admin.patch('/admin/platforms/1', { visible: false });
    await admin.patch('/admin/platforms/1', { text: '인스타' }); // no visibility change: no event
    events = await settle(3);
    expect(of(events, `service-${id}`)[2]!.data).toMatchObject({ visible: false, platformId: 1 });

    await admin.patch(`/admin/categories/${category}`, { platformId: 2 });
    events = await settle(4);
    expect(of(events, `service-${id}`)[3]!.data).toMatchObject({ visible: true, platformId: 2 });

    await admin.put('/admin/services/order', { ids: [id] });
    await admin.post('/admin/notices', { content: '공지' });
    await admin.del(`/admin/services/${id}`, { 'x-correlation-id': 'corr-delete-1' });
    expect((await admin.del(`/admin/services/${id}`)).status).toBe(404);
    events = await settle(5);
    expect(of(events, `service-${id}`).map((e) => e.type)).toEqual(['ServiceUpserted', 'ServiceUpserted', 'ServiceUpserted', 'ServiceUpserted', 'ServiceRemoved']);
    expect(events[4]).toMatchObject({ type: 'ServiceRemoved', aggregateId: `service-${id}`, correlationId: 'corr-delete-1', data: { serviceId: id } });
  });

  it('announce each setting change exactly once, and nothing for unchanged values', async () => {
    const base = received.events.length;
    await admin.put('/admin/settings/ENABLE_PHONE_NUMBER_VERIFICATION', { value: true });
    await admin.put('/admin/settings', { values: { ENABLE_PHONE_NUMBER_VERIFICATION: 'TRUE', ENABLE_REFERRAL: false, FOOTER_CEO: '홍길동' } });
    await admin.put('/admin/settings', { values: { ENABLE_REFERRAL: 'false' } });
    expect((await admin.put('/admin/settings', { values: { FOOTER_CEO: '김철수', NOPE: 'x' } })).status).toBe(400);
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
    await catalog.flush();
    const outbox = await outboxModel(catalog.connection).find({ topic: Topics.catalog }).lean();
    expect(new Set(received.events.map((e) => e.eventId))).toEqual(new Set(outbox.map((r) => r.eventId)));
    expect(received.events.length).toBe(outbox.length);
  });
});
