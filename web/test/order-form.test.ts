import { describe, expect, it } from 'vitest';
import { orderText as t } from '../src/features/order/messages.ts';
import {
  emptyForm,
  fillChoice,
  orderPayload,
  selectCategory,
  selectPlatform,
  selectService,
  toggleAuto,
  totalPriceDeci,
  totalQuantity,
  validateOrder,
} from '../src/features/order/order-form.ts';
import type { Catalog, CatalogService, OrderForm } from '../src/features/order/order-form.ts';

const likes: CatalogService = { id: 's1', categoryId: 'c1', min: 10, max: 1000, unitPriceDeci: 25, enableAuto: true, isReadOnly: false };
const global: CatalogService = { id: 's2', categoryId: 'c1', min: 50, max: 50000, unitPriceDeci: 8, enableAuto: true, isReadOnly: false };
const followers: CatalogService = { id: 's3', categoryId: 'c2', min: 100, max: 3000, unitPriceDeci: 450, enableAuto: false, isReadOnly: false };
const views: CatalogService = { id: 's4', categoryId: 'c3', min: 100, max: 100000, unitPriceDeci: 3, enableAuto: true, isReadOnly: false };
const catalog: Catalog = {
  categories: [
    { id: 'c1', platformId: 1 },
    { id: 'c2', platformId: 1 },
    { id: 'c3', platformId: 2 },
  ],
  services: [likes, global, followers, views],
};

const valid: OrderForm = { platformId: 1, categoryId: 'c1', serviceId: 's1', link: 'https://www.instagram.com/p/abc', amount: '100', auto: false, runs: '0', interval: '0', comments: '', usernames: '', username: '' };
const rich = 1_000_000;

describe('order form resets (spec §4)', () => {
  it('selecting a platform picks its first category, that category’s first product, amount = min, auto off', () => {
    const form = selectPlatform({ ...valid, auto: true, runs: '3', interval: '90', amount: '999' }, catalog, 2);
    expect(form).toMatchObject({ platformId: 2, categoryId: 'c3', serviceId: 's4', amount: '100', auto: false, runs: '0', interval: '0' });
  });

  it('a new category resets the product to its first one with the minimum amount', () => {
    const form = selectCategory({ ...valid, serviceId: 's2' }, catalog, 'c2');
    expect(form).toMatchObject({ categoryId: 'c2', serviceId: 's3', amount: '100', auto: false });
  });

  it('a new product switches auto-order off and sets the amount to its minimum', () => {
    const form = selectService({ ...valid, auto: true, runs: '5', interval: '60' }, catalog, 's2');
    expect(form).toMatchObject({ serviceId: 's2', amount: '50', auto: false, runs: '0', interval: '0' });
  });

  it('a platform without categories leaves no product chosen', () => {
    const form = selectPlatform(emptyForm, catalog, 9);
    expect(form).toMatchObject({ platformId: 9, categoryId: null, serviceId: null, amount: '' });
  });

  it('a list that arrives after the others fills in what is missing: platform, then category, then product — and nothing else', () => {
    // The first read of the products failed: the platform and category were chosen without them.
    const noProducts: Catalog = { categories: catalog.categories, services: [] };
    const early = fillChoice(emptyForm, noProducts, 1);
    expect(early).toMatchObject({ platformId: 1, categoryId: 'c1', serviceId: null, amount: '' });
    expect(fillChoice(early, noProducts, 1)).toBe(early);
    // Read again: the category's first product is chosen, with its minimum amount.
    expect(fillChoice(early, catalog, 1)).toMatchObject({ platformId: 1, categoryId: 'c1', serviceId: 's1', amount: '10' });
    // The categories came late instead.
    const noCategories = fillChoice(emptyForm, { categories: [], services: catalog.services }, 1);
    expect(noCategories).toMatchObject({ platformId: 1, categoryId: null, serviceId: null });
    expect(fillChoice(noCategories, catalog, 1)).toMatchObject({ categoryId: 'c1', serviceId: 's1' });
    // A complete choice (the member's own) is never changed.
    const chosen = { ...valid, serviceId: 's2', amount: '70' };
    expect(fillChoice(chosen, catalog, 2)).toBe(chosen);
  });

  it('toggling auto-order either way resets runs and interval to 0', () => {
    expect(toggleAuto({ ...valid, runs: '4', interval: '120' }, true)).toMatchObject({ auto: true, runs: '0', interval: '0' });
    expect(toggleAuto({ ...valid, auto: true, runs: '4', interval: '120' }, false)).toMatchObject({ auto: false, runs: '0', interval: '0' });
  });
});

describe('order price (spec §5: total quantity = amount × max(runs, 1), price = unit × total)', () => {
  it('a one-off order costs unit price × amount, exactly in deci-won', () => {
    expect(totalQuantity(valid)).toBe(100);
    expect(totalPriceDeci(likes, valid)).toBe(2500); // 2.5 won × 100 = 250 won
    expect(totalPriceDeci(views, { amount: '7', auto: false, runs: '0' })).toBe(21); // 0.3 × 7 = 2.1 won, no float drift
  });

  it('an automatic order multiplies by the runs; runs below 1 count as one run', () => {
    expect(totalQuantity({ amount: '100', auto: true, runs: '3' })).toBe(300);
    expect(totalPriceDeci(likes, { amount: '100', auto: true, runs: '3' })).toBe(7500);
    expect(totalQuantity({ amount: '100', auto: true, runs: '0' })).toBe(100);
  });

  it('runs typed on a one-off order are ignored', () => {
    expect(totalQuantity({ amount: '100', auto: false, runs: '5' })).toBe(100);
  });

  it('an empty or fractional amount prices as 0 instead of a wrong figure', () => {
    expect(totalPriceDeci(likes, { amount: '', auto: false, runs: '0' })).toBe(0);
    expect(totalPriceDeci(likes, { amount: '10.5', auto: false, runs: '0' })).toBe(0);
    expect(totalPriceDeci(undefined, valid)).toBe(0);
  });
});

describe('order validation order (spec §5)', () => {
  const first = (form: OrderForm, service: CatalogService | undefined = likes, balance = rich) => validateOrder(form, service, balance)?.message ?? null;

  it('accepts a complete one-off order the balance covers', () => {
    expect(validateOrder(valid, likes, 2500)).toBeNull();
  });

  it('1. a product must be chosen, before anything else', () => {
    expect(validateOrder({ ...emptyForm }, undefined, 0)?.message).toBe(t.chooseService);
  });

  it('2. the link must not be empty (blank counts as empty), before the amount is checked', () => {
    expect(first({ ...valid, link: '   ', amount: '1' })).toBe(t.linkRequired);
  });

  it('3. the amount may not be below the minimum, 4. nor above the maximum', () => {
    expect(first({ ...valid, amount: '9' })).toBe(t.belowMin);
    expect(first({ ...valid, amount: '' })).toBe(t.belowMin);
    expect(first({ ...valid, amount: '10.5' })).toBe('주문 수량은 소수점 없이 정수로 입력해 주세요.');
    expect(first({ ...valid, amount: '100.0' })).toBeNull();
    expect(first({ ...valid, amount: '1001' })).toBe(t.aboveMax);
    expect(first({ ...valid, amount: '1000' })).toBeNull();
  });

  it('5. automatic orders: runs > 1, runs integer, interval ≥ 60, interval integer — in that order', () => {
    const auto = { ...valid, auto: true };
    expect(first({ ...auto, runs: '1', interval: '10' })).toBe(t.runsTooFew);
    expect(first({ ...auto, runs: '2.5', interval: '10' })).toBe(t.runsNotInteger);
    expect(first({ ...auto, runs: '2', interval: '59' })).toBe(t.intervalTooShort);
    expect(first({ ...auto, runs: '2', interval: '60.5' })).toBe(t.intervalNotInteger);
    expect(first({ ...auto, runs: '2', interval: '60' })).toBeNull();
  });

  it('automatic orders have ceilings: at most 1,000 runs, at most 43,200 minutes between runs', () => {
    const auto = { ...valid, auto: true };
    expect(first({ ...auto, runs: '1001', interval: '60' })).toBe(t.runsTooMany);
    expect(first({ ...auto, runs: '2', interval: '1000000000' })).toBe(t.intervalTooLong);
    expect(first({ ...auto, runs: '2', interval: '43201' })).toBe(t.intervalTooLong);
    expect(first({ ...auto, runs: '1000', interval: '43200' })).not.toBe(t.runsTooMany);
  });

  it('the amount is checked before the automatic-order fields', () => {
    expect(first({ ...valid, auto: true, amount: '1', runs: '0', interval: '0' })).toBe(t.belowMin);
  });

  it('6. the balance must cover the total price (unit price × amount × max(runs, 1)), checked last', () => {
    expect(first(valid, likes, 2499)).toBe(t.insufficient);
    expect(first({ ...valid, auto: true, runs: '1' }, likes, 0)).toBe(t.runsTooFew);
    // An automatic order is checked against all its runs, as the server does: 3 runs cost 3 × 2500.
    expect(first({ ...valid, auto: true, runs: '3', interval: '60' }, likes, 2500)).toBe(t.insufficient);
    expect(first({ ...valid, auto: true, runs: '3', interval: '60' }, likes, 7499)).toBe(t.insufficient);
    expect(first({ ...valid, auto: true, runs: '3', interval: '60' }, likes, 7500)).toBeNull();
  });

  it('a guest passing every input rule gets the login message instead of the balance check', () => {
    expect(validateOrder(valid, likes, 0, { guest: true })?.message).toBe(t.guest);
  });
});

describe('order payload (spec §3)', () => {
  it('sends runs and interval 0 for a one-off order and numbers for an automatic one, with the unit price shown', () => {
    expect(orderPayload({ ...valid, link: ' https://x.com/a ' }, likes)).toEqual({ serviceId: 's1', link: 'https://x.com/a', amount: 100, runs: 0, interval: 0, unitPriceDeci: 25 });
    expect(orderPayload({ ...valid, auto: true, runs: '3', interval: '90' }, likes)).toEqual({ serviceId: 's1', link: valid.link, amount: 100, runs: 3, interval: 90, unitPriceDeci: 25 });
  });
});

describe('typed products (issue 40)', () => {
  const comments: CatalogService = { id: 't1', categoryId: 'c9', min: 2, max: 5, unitPriceDeci: 1000, enableAuto: false, isReadOnly: false, type: 'custom-comments' };
  const pack: CatalogService = { id: 't2', categoryId: 'c9', min: 1000, max: 1000, unitPriceDeci: 22_000, enableAuto: false, isReadOnly: false, type: 'package' };
  const mentions: CatalogService = { id: 't3', categoryId: 'c9', min: 1, max: 3, unitPriceDeci: 500, enableAuto: false, isReadOnly: false, type: 'mentions-custom-list' };
  const likesOf: CatalogService = { id: 't4', categoryId: 'c9', min: 10, max: 100, unitPriceDeci: 30, enableAuto: false, isReadOnly: false, type: 'comment-likes' };
  const form = (fields: Partial<OrderForm>): OrderForm => ({ ...valid, ...fields });

  it('counts comment lines as the quantity and prices them; a package is one package at its price', () => {
    const f = form({ comments: '좋아요\n\n  최고  \n멋져요' });
    expect(totalQuantity(f, comments)).toBe(3);
    expect(totalPriceDeci(comments, f)).toBe(3000);
    expect(orderPayload(f, comments)).toMatchObject({ amount: 3, comments: f.comments });
    expect(totalQuantity(form({ amount: '' }), pack)).toBe(1000);
    expect(totalPriceDeci(pack, form({ amount: '' }))).toBe(22_000);
    expect(orderPayload(form({}), pack)).toMatchObject({ amount: 1000, unitPriceDeci: 22_000 });
    expect(orderPayload(form({}), pack)).not.toHaveProperty('comments');
  });

  it('checks each type after the link, in Korean, and the counted quantity against min/max', () => {
    expect(validateOrder(form({ link: '' }), comments, rich)).toEqual({ field: 'link', message: t.linkRequired });
    expect(validateOrder(form({ comments: ' \n' }), comments, rich)).toEqual({ field: 'comments', message: '댓글을 한 줄에 하나씩 입력해 주세요.' });
    expect(validateOrder(form({ comments: 'a' }), comments, rich)).toEqual({ field: 'comments', message: '입력한 줄 수가 최소 주문 수량보다 적습니다. (최소 2개)' });
    expect(validateOrder(form({ comments: 'a\nb\nc\nd\ne\nf' }), comments, rich)?.field).toBe('comments');
    expect(validateOrder(form({ comments: 'a\nb' }), comments, rich)).toBeNull();
    expect(validateOrder(form({ usernames: 'kim\n@kim' }), mentions, rich)).toEqual({ field: 'usernames', message: '같은 아이디가 두 번 들어 있습니다: kim' });
    expect(validateOrder(form({ usernames: 'kim\nno way' }), mentions, rich)?.message).toMatch(/^아이디 형식이 올바르지 않습니다: no way/);
    expect(validateOrder(form({ amount: '20' }), likesOf, rich)).toEqual({ field: 'username', message: '댓글 작성자의 아이디를 입력해 주세요.' });
    expect(validateOrder(form({ amount: '5', username: 'writer' }), likesOf, rich)).toEqual({ field: 'amount', message: t.belowMin });
    expect(validateOrder(form({}), pack, 21_999)).toEqual({ field: 'balance', message: t.insufficient });
    expect(validateOrder(form({}), pack, 22_000)).toBeNull();
  });

  it('a new product clears the typed fields', () => {
    const next = selectService(form({ comments: 'x', usernames: 'y', username: 'z' }), { categories: [], services: [comments, pack] }, 't2');
    expect(next).toMatchObject({ serviceId: 't2', comments: '', usernames: '', username: '', amount: '1000' });
  });
});

describe('subscriptions (issue 40)', () => {
  const sub: CatalogService = { id: 's9', categoryId: 'c1', min: 50, max: 1000, unitPriceDeci: 20, enableAuto: false, isReadOnly: false, type: 'subscriptions' };
  const form: OrderForm = { ...valid, serviceId: 's9', link: '', username: '@brand.kr', subMin: '100', subMax: '200', posts: '3', delay: '5', expiry: '' };

  it('are priced for the max per post × posts, and ask no link', () => {
    expect(totalQuantity(form, sub)).toBe(600);
    expect(totalPriceDeci(sub, form)).toBe(12_000);
    expect(validateOrder(form, sub, rich)).toBeNull();
    expect(validateOrder(form, sub, 11_999)).toEqual({ field: 'balance', message: t.insufficient });
  });

  it('check the profile, min ≤ max within the range, whole posts, an expiry not in the past, in that order', () => {
    const problem = (change: Partial<OrderForm>) => validateOrder({ ...form, ...change }, sub, rich);
    expect(problem({ username: ' ' })).toEqual({ field: 'username', message: t.subUsernameRequired });
    expect(problem({ subMin: 'x' })).toEqual({ field: 'subMin', message: t.subMinInvalid });
    expect(problem({ subMax: '' })).toEqual({ field: 'subMax', message: t.subMaxInvalid });
    expect(problem({ subMin: '10' })).toEqual({ field: 'subMin', message: t.belowMin });
    expect(problem({ subMax: '1001' })).toEqual({ field: 'subMax', message: t.aboveMax });
    expect(problem({ subMin: '300' })).toEqual({ field: 'subMin', message: t.subMinAboveMax });
    for (const posts of ['0', '-1', '1.5', '1001', '']) expect(problem({ posts })).toEqual({ field: 'posts', message: t.subPostsInvalid(1000) });
    expect(problem({ expiry: '2020-01-01' })).toEqual({ field: 'expiry', message: t.subExpiryInvalid });
  });

  it('send the standard fields, not link, amount or runs', () => {
    expect(orderPayload({ ...form, expiry: '2099-12-31' }, sub)).toEqual({ serviceId: 's9', username: '@brand.kr', min: 100, max: 200, posts: 3, delay: 5, expiry: '2099-12-31', unitPriceDeci: 20 });
    expect(orderPayload(form, sub)).not.toHaveProperty('expiry');
  });
});
