import { beforeAll, describe, expect, it } from 'vitest';
import { formatReport, reconcile } from '@smm/reconcile';
import { eventually } from '@smm/testkit';
import { api, asAdmin, stack } from './support/client.ts';
import { type Member, apiKeyOf, member, order, orderServiceUp, pointDeciOf, product, v2 } from './support/money.ts';

type Json = Record<string, unknown>;

/**
 * Issue 40: products that need more than a link and a quantity, through the whole stack — the
 * catalogue's rules, the member's order API with the price shown, API v2 with the standard's fields
 * (`comments`, `usernames`, `username`, a Package without quantity), the history showing what was
 * given, and bad input charging nothing.
 */
describe.runIf(orderServiceUp())('typed products (custom comments, package, mentions, comment likes)', () => {
  let m: Member;
  let key: string;
  let comments: Awaited<ReturnType<typeof product>>;
  let pack: Awaited<ReturnType<typeof product>>;
  let mentions: Awaited<ReturnType<typeof product>>;
  let likes: Awaited<ReturnType<typeof product>>;
  beforeAll(async () => {
    m = await member(100_000);
    key = await apiKeyOf(m);
    comments = await product({ type: 'custom-comments', min: 2, max: 5, point: 100, enableAuto: false }, m);
    pack = await product({ type: 'package', min: 1000, max: 1000, point: 2200, enableAuto: false }, m);
    mentions = await product({ type: 'mentions-custom-list', min: 1, max: 10, point: 50, enableAuto: false }, m);
    likes = await product({ type: 'comment-likes', min: 10, max: 100, point: 3, enableAuto: false }, m);
  });

  it('catalogue: auto orders only on default products, a package sells one quantity, an unknown type is refused', async () => {
    const admin = await asAdmin();
    const refused = await api('PATCH', `/admin/services/${comments.id}`, { token: admin, body: { enableAuto: true } });
    expect(refused).toMatchObject({ status: 400, body: { code: 'AUTO_NEEDS_DEFAULT_TYPE', message: '자동 주문은 기본 유형(링크 + 수량) 상품에만 켤 수 있습니다.' } });
    expect(await api('PATCH', `/admin/services/${pack.id}`, { token: admin, body: { max: 2000 } })).toMatchObject({ status: 400, body: { code: 'PACKAGE_QUANTITY' } });
    expect(await api('PATCH', `/admin/services/${pack.id}`, { token: admin, body: { type: 'poll' } })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    const listed = (await api<Json[]>('GET', '/service/services')).body.find((s) => s.id === comments.id);
    expect(listed).toMatchObject({ type: 'custom-comments', enableAuto: false });
  });

  it('API v2: services report the standard type names; add takes comments, usernames, username, and a Package without quantity', async () => {
    const list = await eventually(() => v2<Json[]>({ key, action: 'services' }), (r) => r.body.some((s) => s.service === likes.id), 5000);
    const of = (id: number) => list.body.find((s) => s.service === id);
    expect(of(comments.id)).toMatchObject({ type: 'Custom Comments', rate: '100000.0', dripfeed: false });
    expect(of(pack.id)).toMatchObject({ type: 'Package', rate: '2200.0', min: 1000, max: 1000 });
    expect(of(mentions.id)).toMatchObject({ type: 'Mentions Custom List' });
    expect(of(likes.id)).toMatchObject({ type: 'Comment Likes', rate: '3000.0' });

    const before = await pointDeciOf(m);
    const c = await v2<{ order: number }>({ key, action: 'add', service: String(comments.id), link: 'https://www.instagram.com/p/typed-c', comments: '첫 댓글\r\n두 번째 댓글\n\n세 번째 ' });
    expect(c).toMatchObject({ status: 200, body: { order: expect.any(Number) } });
    const p = await v2<{ order: number }>({ key, action: 'add', service: String(pack.id), link: 'https://www.instagram.com/p/typed-p' });
    expect(p).toMatchObject({ status: 200, body: { order: expect.any(Number) } });
    const u = await v2<{ order: number }>({ key, action: 'add', service: String(mentions.id), link: 'https://www.instagram.com/p/typed-u', usernames: '@kim.a, lee_b\npark' }, 'json');
    const l = await v2<{ order: number }>({ key, action: 'add', service: String(likes.id), link: 'https://www.instagram.com/p/typed-l', username: '@writer', quantity: '20' });
    expect([u.status, l.status]).toEqual([200, 200]);
    // 3 comments × 100 + one package 2,200 + 3 usernames × 50 + 20 likes × 3 = 2,710 won, exactly.
    expect(await pointDeciOf(m)).toBe(before - 27_100);
    expect((await v2({ key, action: 'status', order: String(c.body.order) })).body).toMatchObject({ charge: '300.0', remains: '3' });
    expect((await v2({ key, action: 'status', order: String(p.body.order) })).body).toMatchObject({ charge: '2200.0', remains: '1000' });

    const history = (await api<{ items: Json[] }>('GET', '/service/order-history?pageSize=20', { token: m.token })).body.items;
    const shown = (id: number) => history.find((o) => o.id === id);
    expect(shown(c.body.order)).toMatchObject({ serviceType: 'custom-comments', amount: 3, details: { comments: ['첫 댓글', '두 번째 댓글', '세 번째'] } });
    expect(shown(p.body.order)).toMatchObject({ serviceType: 'package', amount: 1000, pointDeci: 22_000 });
    expect(shown(u.body.order)).toMatchObject({ serviceType: 'mentions-custom-list', amount: 3, details: { usernames: ['kim.a', 'lee_b', 'park'] } });
    expect(shown(l.body.order)).toMatchObject({ serviceType: 'comment-likes', amount: 20, details: { username: 'writer' } });
  });

  it('bad typed input is a clear error and charges nothing (v2 and the web order API)', async () => {
    const before = await pointDeciOf(m);
    const add = (fields: Record<string, string>) => v2({ key, action: 'add', link: 'https://www.instagram.com/p/typed-bad', ...fields });
    expect(await add({ service: String(comments.id), comments: ' \n ' })).toMatchObject({ status: 400, body: { error: 'Incorrect comments: one comment per line, 300 characters at most' } });
    expect(await add({ service: String(comments.id), comments: 'a\nb\nc\nd\ne\nf' })).toMatchObject({ status: 400, body: { error: 'Quantity more than maximal 5' } });
    expect(await add({ service: String(mentions.id), usernames: 'kim\nkim' })).toMatchObject({ status: 400, body: { error: 'Incorrect usernames: one username per line, no duplicates' } });
    expect(await add({ service: String(likes.id), quantity: '20' })).toMatchObject({ status: 400, body: { error: 'Incorrect username' } });
    expect(await add({ service: String(likes.id), username: 'w' })).toMatchObject({ status: 400, body: { error: 'Incorrect quantity' } });
    expect(await add({ service: String(comments.id), comments: 'a\nb', runs: '2', interval: '60' })).toMatchObject({ status: 400, body: { error: 'Drip-feed is not supported for this service' } });

    const web = (body: Json) => order(m, { link: 'https://www.instagram.com/p/typed-web', ...body });
    expect(await web({ serviceId: comments.id, comments: '하나', unitPriceDeci: 1000 })).toMatchObject({ status: 400, body: { code: 'AMOUNT_BELOW_MIN', message: '댓글 수가 최소 주문 수량보다 적습니다. (최소 2개)' } });
    expect(await web({ serviceId: likes.id, username: 'no way', amount: 20, unitPriceDeci: 30 })).toMatchObject({ status: 400, body: { code: 'USERNAME_INVALID' } });
    expect(await web({ serviceId: pack.id, unitPriceDeci: 21_000 })).toMatchObject({ status: 409, body: { code: 'PRICE_CHANGED' } });
    expect(await pointDeciOf(m)).toBe(before);

    // The web's order screen: the price shown is the package's, charged once.
    expect(await web({ serviceId: pack.id, amount: 1000, unitPriceDeci: 22_000 })).toMatchObject({ status: 201, body: { order: { serviceType: 'package', amount: 1000, pointDeci: 22_000 } } });
    expect(await pointDeciOf(m)).toBe(before - 22_000);

    const report = await eventually(() => reconcile({ url: stack().mongoUrl, readPreference: 'primary' }), (r) => r.total === 0, 30_000).catch(async () => reconcile({ url: stack().mongoUrl, readPreference: 'primary' }));
    expect(report.total, formatReport(report).join('\n')).toBe(0);
  });
});
