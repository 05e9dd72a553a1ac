import { describe, expect, it } from 'vitest';
import { changeStatus } from './order-status.ts';
import { checkOrder } from './place-order-rules.ts';
import type { Product } from './product.ts';

const base: Product = { serviceId: 1, text: 's', platformId: 1, categoryId: 1, min: 2, max: 5, unitPriceDeci: 2500, enableAuto: false, isReadOnly: false, visible: true };
const comments: Product = { ...base, type: 'custom-comments' };
const mentions: Product = { ...base, type: 'mentions-custom-list' };
const likes: Product = { ...base, type: 'comment-likes', min: 10, max: 100, unitPriceDeci: 30 };
const pack: Product = { ...base, type: 'package', min: 1000, max: 1000, unitPriceDeci: 22_000 };
const code = (verdict: ReturnType<typeof checkOrder>) => (verdict.ok ? 'ok' : verdict.refusal.problem.code);
const message = (verdict: ReturnType<typeof checkOrder>) => (verdict.ok ? '' : verdict.refusal.problem.message);

describe('typed products (issue 40)', () => {
  it('custom comments: one line, one comment; the quantity is the number of lines, whatever was sent', () => {
    const placed = checkOrder({ link: 'https://i.com/p/1', amount: 999, comments: ' 멋져요 \r\n\n좋아요!\n최고 ' }, comments, false);
    expect(placed).toMatchObject({ ok: true, order: { serviceType: 'custom-comments', amount: 3, details: { comments: ['멋져요', '좋아요!', '최고'] }, chargeDeci: 7500 } });
    expect(code(checkOrder({ link: 'a', comments: ' \n \n' }, comments, false))).toBe('COMMENTS_REQUIRED');
    expect(message(checkOrder({ link: 'a', comments: ' \n' }, comments, false))).toBe('댓글을 한 줄에 하나씩 입력해 주세요.');
    expect(code(checkOrder({ link: 'a', comments: ['a', 'b'] }, comments, false))).toBe('COMMENTS_REQUIRED');
    expect(message(checkOrder({ link: 'a', comments: 'a' }, comments, false))).toBe('댓글 수가 최소 주문 수량보다 적습니다. (최소 2개)');
    expect(code(checkOrder({ link: 'a', comments: 'a\nb\nc\nd\ne\nf' }, comments, false))).toBe('AMOUNT_ABOVE_MAX');
    expect(message(checkOrder({ link: 'a', comments: `a\n${'가'.repeat(301)}` }, comments, false))).toBe('댓글은 한 줄에 300자 이하로 입력해 주세요. (2번째 줄)');
    // The link comes first (spec §5 order).
    expect(code(checkOrder({ link: '', comments: '' }, comments, false))).toBe('LINK_REQUIRED');
  });

  it('mentions: usernames by line or comma, @ dropped, each checked, no duplicates', () => {
    expect(checkOrder({ link: 'a', usernames: '@kim.1\nlee_2, park' }, mentions, false)).toMatchObject({ ok: true, order: { amount: 3, details: { usernames: ['kim.1', 'lee_2', 'park'] }, chargeDeci: 7500 } });
    expect(code(checkOrder({ link: 'a', usernames: '' }, mentions, false))).toBe('USERNAMES_REQUIRED');
    expect(message(checkOrder({ link: 'a', usernames: 'kim\nno way' }, mentions, false))).toBe('아이디 형식이 올바르지 않습니다: no way (영문·한글·숫자·마침표·밑줄 30자 이하)');
    expect(message(checkOrder({ link: 'a', usernames: 'kim\n@kim' }, mentions, false))).toBe('같은 아이디가 두 번 들어 있습니다: kim');
  });

  it('comment likes: the author username first, then the quantity as typed', () => {
    expect(checkOrder({ link: 'a', username: '@writer', amount: '40' }, likes, false)).toMatchObject({ ok: true, order: { amount: 40, details: { username: 'writer' }, chargeDeci: 1200 } });
    expect(message(checkOrder({ link: 'a', amount: 40 }, likes, false))).toBe('댓글 작성자의 아이디를 입력해 주세요.');
    expect(code(checkOrder({ link: 'a', username: 'a b', amount: 40 }, likes, false))).toBe('USERNAME_INVALID');
    expect(code(checkOrder({ link: 'a', username: 'w', amount: 5 }, likes, false))).toBe('AMOUNT_BELOW_MIN');
  });

  it('package: the fixed quantity, charged the price of one package', () => {
    expect(checkOrder({ link: 'a' }, pack, false)).toMatchObject({ ok: true, order: { amount: 1000, details: undefined, perRunDeci: 22_000, chargeDeci: 22_000 } });
    expect(checkOrder({ link: 'a', amount: 5 }, pack, false)).toMatchObject({ ok: true, order: { amount: 1000, chargeDeci: 22_000 } });
    // The price the screen showed is the package's.
    expect(checkOrder({ link: 'a', unitPriceDeci: 22_000 }, pack, false)).toMatchObject({ ok: true });
  });

  it('auto orders only for default products, even when a replica still says enableAuto', () => {
    expect(code(checkOrder({ link: 'a', comments: 'a\nb', runs: 2, interval: 60 }, { ...comments, enableAuto: true }, false))).toBe('AUTO_NOT_SUPPORTED');
    expect(code(checkOrder({ link: 'a', runs: 2, interval: 60 }, { ...pack, enableAuto: true }, false))).toBe('AUTO_NOT_SUPPORTED');
    expect(checkOrder({ link: 'a', amount: 2, runs: 2, interval: 60 }, { ...base, enableAuto: true }, false)).toMatchObject({ ok: true, order: { kind: 'auto', serviceType: 'default' } });
  });

  it('a default product ignores typed fields (API clients send them along)', () => {
    expect(checkOrder({ link: 'a', amount: 3, comments: 'x', username: 'y' }, base, false)).toMatchObject({ ok: true, order: { serviceType: 'default', details: undefined, chargeDeci: 7500 } });
  });

  it("a package's partial refund is its unworked share of the charge, rounded down", () => {
    const facts = { id: 9, status: 1, amount: 1000, unitPriceDeci: 22_000, chargeDeci: 22_001, startCount: null, remains: 1000, serviceType: 'package' as const };
    expect(changeStatus(facts, { status: 3, remains: 250 })).toMatchObject({ ok: true, change: { refund: { amountDeci: 5500, reason: 'partial' } } });
    expect(changeStatus(facts, { status: 3, remains: 1000 })).toMatchObject({ ok: true, change: { refund: { amountDeci: 22_001 } } });
    expect(changeStatus(facts, { status: 5 })).toMatchObject({ ok: true, change: { refund: { amountDeci: 22_001, reason: 'canceled' } } });
  });
});
