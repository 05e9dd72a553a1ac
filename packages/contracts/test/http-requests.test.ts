import { describe, expect, it } from 'vitest';
import { adjustmentRequest, attachDepositRequest, bulkOrderChangeRequest, catalogRequests, fulfillmentRequests, orderStatusPatchRequest, loginIdsRequest, manualDepositRequest, loginRequest, placeOrderRequest, registerRequest, restrictionRequest, topUpRequest } from '../src/http/index.ts';

// The request schemas type what the BFF sends and let the services' rules judge every value: a
// value of another type must read as what those rules already refuse (absent, NaN), never as a
// valid one, and a body that is no object as an empty one.
describe('HTTP request contracts (@smm/contracts/http)', () => {
  it('passes what the BFF sends through unchanged', () => {
    const order = { serviceId: 7, link: 'https://www.instagram.com/p/abc', amount: '100', runs: 3, interval: 60, source: 'api' as const };
    expect(placeOrderRequest.parse(order)).toEqual(order);
    const topUp = { name: '홍길동', point: 50_000, feeType: 'cash', feeValue: { phone: '010-1234-5678' } };
    expect(topUpRequest.parse(topUp)).toEqual(topUp);
    expect(loginRequest.parse({ id: 'kim', password: 'pw' })).toEqual({ id: 'kim', password: 'pw' });
  });

  it('order: a number of another type reads as NaN (refused), a link of another type as empty, the channel as web by default', () => {
    const read = placeOrderRequest.parse({ serviceId: true, link: 5, amount: { n: 1 }, runs: [2], interval: null });
    expect(read).toEqual({ serviceId: Number.NaN, link: '', amount: Number.NaN, runs: Number.NaN, interval: null, source: 'web' });
    // A garbled run count stays "asked for" (NaN), so it never turns an auto order into a one-off one.
    expect(Number.isNaN(read.runs)).toBe(true);
    // The channel is the BFF's to name: an unknown one is refused here.
    expect(placeOrderRequest.safeParse({ source: 'app' }).success).toBe(false);
  });

  it('wallet: odd top-up fields read as absent, an odd receipt type as no known one (never as "none")', () => {
    expect(topUpRequest.parse({ name: { first: '홍' }, point: [5000], feeType: { kind: 'fee' }, feeValue: { company: {}, phone: '01012345678' } })).toEqual({
      name: undefined,
      point: undefined,
      feeType: '',
      feeValue: { company: undefined, phone: '01012345678' },
    });
    expect(topUpRequest.parse({ name: '홍길동', point: 5000, feeValue: 'x' }).feeValue).toBeNull();
    expect(topUpRequest.parse('not an object')).toEqual({});
    expect(adjustmentRequest.parse({ amount: '5000', reason: 7 })).toEqual({ amount: undefined, reason: undefined });
  });

  it("wallet deposits: a time of another type reads as no date (refused, never now); an odd attach target stays named and refused", () => {
    expect(manualDepositRequest.parse({ depositorName: '홍길동', amount: 15_000 })).toEqual({ depositorName: '홍길동', amount: 15_000 });
    expect(manualDepositRequest.parse({ depositorName: 5, amount: '15000', depositedAt: 1_700_000_000_000 })).toEqual({ depositorName: undefined, amount: undefined, depositedAt: '' });
    expect(Number.isNaN(new Date(manualDepositRequest.parse({ depositedAt: {} }).depositedAt ?? 'now').getTime())).toBe(true);
    expect(manualDepositRequest.parse({ depositedAt: null })).toEqual({ depositedAt: null });
    // A wrong top-up id beside a member stays "both named" (refused), never attaches to the member.
    const both = attachDepositRequest.parse({ topUpId: '12', userId: 'u-1' });
    expect(Number.isNaN(both.topUpId)).toBe(true);
    expect(both.userId).toBe('u-1');
    expect(attachDepositRequest.parse({ topUpId: 12, userId: 7 })).toEqual({ topUpId: 12, userId: '' });
    expect(attachDepositRequest.parse({ topUpId: null })).toEqual({ topUpId: null });
  });

  it("order's status change: values pass as sent for order's own codes; a reason of another type and a body that is no object stay refused", () => {
    expect(orderStatusPatchRequest.parse({ status: '2', startCount: 'abc', remains: null })).toEqual({ status: '2', startCount: 'abc', remains: null });
    expect(orderStatusPatchRequest.safeParse({ status: 5, reason: 7 }).success).toBe(false);
    expect(orderStatusPatchRequest.safeParse([1]).success).toBe(false);
    // The console's bulk change: anything but a list reads as no ids (the BFF refuses `ids`).
    expect(bulkOrderChangeRequest.parse({ ids: '1,2', status: 3 })).toEqual({ ids: undefined, status: 3 });
    expect(bulkOrderChangeRequest.parse({ ids: [1, 'x'], remains: 4 })).toEqual({ ids: [1, 'x'], remains: 4 });
    expect(bulkOrderChangeRequest.parse('x')).toEqual({});
  });

  it('auth: text of another type reads as absent; a list of ids with a non-text one reads as no list', () => {
    expect(loginRequest.parse({ id: 12345, password: ['x'] })).toEqual({ id: undefined, password: undefined });
    expect(loginRequest.parse(null)).toEqual({});
    expect(registerRequest.parse({ id: 'kim', extra: 'dropped' })).toEqual({ id: 'kim' });
    expect(loginIdsRequest.parse({ userIds: ['a', 2] })).toEqual({ userIds: undefined });
    expect(restrictionRequest.parse({ level: 'suspended', reason: '도배', until: 0 })).toEqual({ level: 'suspended', reason: '도배', until: undefined });
  });
});

describe("catalog's and fulfillment's operator bodies: the shapes here, the service's words", () => {
  const words = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, `msg:${k}`])) as Record<K, string>;

  it('catalog: each broken rule answers with the message catalog passed in', () => {
    const m = words(['textRequired', 'textTooLong', 'flagInvalid', 'idInvalid', 'colorInvalid', 'platformIdRange', 'visibleInvalid', 'nothingToUpdate', 'priceInvalid', 'minInvalid', 'maxInvalid', 'noticeTooLong', 'noticeContentRequired', 'noticeContentTooLong', 'faqTitleRequired', 'faqAnswerRequired', 'faqTooLong', 'reorderEmpty', 'settingsEmpty', 'settingValueInvalid', 'typeInvalid'] as const);
    const r = catalogRequests(m, { minPlatformId: 1, maxPlatformId: 14, isColour: (v) => v.startsWith('#') });
    const issue = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;
    expect(issue(r.platformCreate.safeParse({ id: 15, text: '틱톡', background: '#000' }))).toBe('msg:platformIdRange');
    expect(issue(r.platformCreate.safeParse({ id: 3, text: '틱톡', background: 'black' }))).toBe('msg:colorInvalid');
    expect(issue(r.servicePatch.safeParse({}))).toBe('msg:nothingToUpdate');
    expect(issue(r.serviceCreate.safeParse({ text: '좋아요', categoryId: 1, min: 0, max: 10, point: 1 }))).toBe('msg:minInvalid');
    expect(r.serviceCreate.parse({ text: ' 좋아요 ', categoryId: 1, min: 1, max: 10, point: '2.5' })).toEqual({ text: '좋아요', categoryId: 1, min: 1, max: 10, point: '2.5', notice: '', enableAuto: false, isReadOnly: false, visible: true, type: 'default' });
    expect(issue(r.servicePatch.safeParse({ type: 'poll' }))).toBe('msg:typeInvalid');
    expect(r.servicePatch.parse({ type: 'custom-comments' })).toEqual({ type: 'custom-comments' });
    expect(issue(r.reorder.safeParse({ ids: [] }))).toBe('msg:reorderEmpty');
  });

  it("fulfillment: a provider patch fills no defaults, a mapping or review action of no known kind says the service's word", () => {
    const m = words(['providerNameInvalid', 'providerUrlInvalid', 'providerKeyInvalid', 'currencyInvalid', 'exchangeRateInvalid', 'thresholdInvalid', 'idempotentAddInvalid', 'ruleInvalid', 'providerOrderIdInvalid', 'badAction', 'requestActionInvalid'] as const);
    const r = fulfillmentRequests(m);
    expect(r.providerPatch.parse({ name: 'B 패널' })).toEqual({ name: 'B 패널' });
    expect(r.providerCreate.safeParse({ name: 'B', url: 'ftp://x', key: 'k' }).error?.issues[0]?.message).toBe('msg:providerUrlInvalid');
    expect(r.mapping.safeParse({ mode: 'other' }).error?.issues[0]?.message).toBe('msg:ruleInvalid');
    expect(r.reviewAction.safeParse({ action: 'link', providerOrderId: 'a b' }).error?.issues[0]?.message).toBe('msg:providerOrderIdInvalid');
    expect(r.reviewAction.safeParse({ action: 'delete' }).error?.issues[0]?.message).toBe('msg:badAction');
    expect(r.reviewAction.parse({ action: 'resume' })).toEqual({ action: 'resume' });
    expect(r.requestAction.parse({ action: 'close', note: ' 공급처에서 처리 ' })).toEqual({ action: 'close', note: '공급처에서 처리' });
    expect(r.requestAction.safeParse({ action: 'refund' }).error?.issues[0]?.message).toBe('msg:requestActionInvalid');
    expect(r.requestAction.safeParse({ action: 'close', note: 'x'.repeat(201) }).error?.issues[0]?.message).toBe('msg:requestActionInvalid');
  });
});
