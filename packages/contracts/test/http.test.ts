import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  adminDashboard,
  importResult,
  providerNames,
  settingsChange,
  adminMemberDetail,
  adminMemberList,
  adminMemberPageView,
  adminProviderList,
  adjustmentList,
  auditPage,
  autoOrderCancel,
  browserSession,
  bulkOrderResult,
  cancelAnswer,
  forwardRecordList,
  fulfillmentNoticeList,
  ledgerPage,
  mappingList,
  providerCheck,
  providerServiceList,
  referralSummary,
  settingsView,
  adminServiceView,
  adminDepositRows,
  adminOrderSearch,
  adminTopUpPage,
  adminTopUpRows,
  anyOrderView,
  authProfile,
  authSession,
  balance,
  depositPage,
  errorBody,
  memberLogins,
  memberProfile,
  moneySummary,
  orderCounts,
  orderForwards,
  orderList,
  orderPage,
  placedOrder,
  productFlags,
  providerList,
  providerOrderChunk,
  refillView,
  resolvedApiKey,
  serviceList,
  sessionState,
  topUpPage,
} from '../src/http/index.ts';

// Answers as the services' views build them (order views.ts, wallet views.ts and deposit-routes.ts,
// auth get-profile.ts and sessions.ts, fulfillment order-forwards.ts and providers.ts, catalog views.ts).
const order = {
  kind: 'order',
  id: 23501,
  userId: 'b6c1d7e0-5f7a-4a55-9f43-1f3b2b7c9a10',
  createdAt: '2026-03-02T01:02:03.000Z',
  serviceId: 1,
  serviceText: '인스타그램 한국인 좋아요',
  link: 'https://www.instagram.com/p/abc',
  linkUrl: 'https://www.instagram.com/p/abc',
  point: 25.5,
  pointDeci: 255,
  amount: 100,
  status: 0,
  startCount: null,
  remains: 100,
  autoOrderId: null,
  run: null,
  payment: 'paid',
  refundedDeci: 0,
  source: 'web',
  reason: null,
};
const auto = {
  kind: 'auto',
  id: 23502,
  userId: order.userId,
  createdAt: order.createdAt,
  serviceId: 1,
  serviceText: order.serviceText,
  link: 'kim_insta',
  linkUrl: null,
  point: 51,
  pointDeci: 510,
  chargeDeci: 510,
  refundedDeci: 0,
  amount: 100,
  completed: 0,
  runs: 2,
  interval: 60,
  totalQuantity: 200,
  status: null,
  payment: 'awaiting_payment',
  source: 'api',
};
const topUp = { id: 7, createdAt: order.createdAt, point: 10000, pointDeci: 100000, transferAmount: 11000, transferDeci: 110000, receiptType: 'fee', status: 0, responseAt: null, expiresAt: '2026-03-03T01:02:03.000Z' };
const adminTopUp = { ...topUp, userId: order.userId, name: '홍길동', paymentType: 1, feeValue: { company: '주식회사 예시', businessNumber: '123-45-67890', leader: '홍길동', phone: '010-1234-5678', email: 'a@b.kr' }, rejectReason: null, receiptIssuedAt: null };
const deposit = {
  id: 'bank:tx-1',
  source: 'bank',
  transactionId: 'tx-1',
  depositorName: '홍길동',
  amount: 11000,
  amountDeci: 110000,
  depositedAt: order.createdAt,
  receivedAt: order.createdAt,
  status: 'matched',
  topUpId: 7,
  userId: order.userId,
  candidates: [7],
  resolvedAt: order.createdAt,
};
const profile = {
  userId: order.userId,
  id: 'kim',
  email: 'kim@example.com',
  phoneNumber: null,
  role: 'member',
  provider: 'local',
  registerWhere: '검색',
  apiKey: 'smm_ab12…',
  apiKeyPrefix: 'smm_ab12',
  apiKeyIssuedAt: order.createdAt,
  referralCode: 'K7QX2M9P',
  createdAt: order.createdAt,
  restriction: { level: 'warning', reason: '약관 위반 경고', until: null },
};
const forward = { orderId: 23501, state: 'forwarded', providerId: 1, providerName: 'Panel A', providerOrderId: '9001', providerStatus: 'In progress', updatedAt: order.createdAt };
const provider = { id: 1, name: 'Panel A', url: 'https://panel.example/api/v2', key: '…abcd', currency: 'USD', wonDeciPerUnit: 13000, lowBalanceThreshold: '10', idempotentAdd: false, balance: '12.5', balanceCheckedAt: null, balanceLow: false, lastError: null, createdAt: order.createdAt };
const page = <T>(items: T[]) => ({ items, page: 1, pageSize: 20, hasNext: false });

const cases: Array<{ name: string; schema: z.ZodType; real: unknown; malformed: unknown }> = [
  { name: 'error body', schema: errorBody, real: { code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.', orderId: 9 }, malformed: { error: 'x' } },
  { name: 'order or auto order', schema: anyOrderView, real: auto, malformed: { ...order, kind: 'subscription' } },
  { name: 'order page', schema: orderPage, real: page([order]), malformed: { ...page([order]), hasNext: 'no' } },
  { name: 'orders by id', schema: orderList, real: { items: [order, auto] }, malformed: [order] },
  { name: 'placed order', schema: placedOrder, real: { outcome: 'accepted', order }, malformed: { outcome: 'accepted', order: { ...order, id: '23501' } } },
  { name: 'order counts', schema: orderCounts, real: { byStatus: { '0': 3, '2': 10 } }, malformed: { byStatus: { '0': 'three' } } },
  { name: 'profile', schema: authProfile, real: profile, malformed: { ...profile, restriction: { level: 'muted', reason: '', until: null } } },
  { name: 'login ids', schema: memberLogins, real: { items: [{ userId: order.userId, loginId: 'kim' }] }, malformed: { items: [{ userId: order.userId }] } },
  { name: 'resolved api key', schema: resolvedApiKey, real: { userId: order.userId, loginId: 'kim', role: 'member' }, malformed: { userId: order.userId, loginId: 'kim', role: 'root' } },
  { name: 'session state', schema: sessionState, real: { userId: order.userId, status: 'active', version: 2, restriction: null, endedSessions: ['6f1c2e0a-3b1d-4c5e-9f7a-2d8b4e6c1a90'] }, malformed: { userId: order.userId, status: 'active', version: '3', restriction: null } },
  { name: 'session', schema: authSession, real: { accessToken: 'a.b.c', expiresIn: 900, refreshToken: 'r'.repeat(43), refreshExpiresIn: 1209600 }, malformed: { accessToken: 'a.b.c', expiresIn: 900 } },
  { name: 'balance', schema: balance, real: { userId: order.userId, point: 1234.5, pointDeci: 12345 }, malformed: { userId: order.userId, point: 1234.5, pointDeci: 1234.5 } },
  { name: "member's top-ups", schema: topUpPage, real: page([(({ expiresAt: _e, ...rest }) => rest)(topUp)]), malformed: page([{ ...topUp, receiptType: 'invoice' }]) },
  { name: "operators' top-ups", schema: adminTopUpPage, real: page([adminTopUp]), malformed: page([{ ...adminTopUp, rejectReason: undefined }]) },
  { name: 'deposits', schema: depositPage, real: page([deposit, { ...deposit, id: 'manual:2', source: 'manual', status: 'unmatched', topUpId: null, userId: null, candidates: [], resolvedAt: null }]), malformed: page([{ ...deposit, amountDeci: '110000' }]) },
  { name: 'money summary', schema: moneySummary, real: { days: [{ date: '2026-03-02', salesDeci: 2550, refundsDeci: 0, topUpsDeci: 100000, topUpCount: 1 }], pendingTopUps: 2 }, malformed: { days: [] } },
  { name: 'order forwards', schema: orderForwards, real: { items: [forward, { ...forward, orderId: 23500, state: 'pending', providerId: null, providerName: null, providerOrderId: null, providerStatus: null }] }, malformed: { items: [{ ...forward, providerId: '1' }] } },
  { name: "provider's orders", schema: providerOrderChunk, real: { items: [forward], hasMore: true }, malformed: { items: [forward] } },
  { name: 'providers', schema: providerList, real: [provider], malformed: [{ ...provider, balanceLow: 'no' }] },
  { name: 'refill', schema: refillView, real: { refill: 9, orderId: 23501, status: 'Pending' }, malformed: { refill: '9', orderId: 23501, status: 'Pending' } },
  { name: 'product flags', schema: productFlags, real: [{ productId: 1, refill: true, cancel: false }], malformed: [{ productId: 1, refill: 'yes', cancel: false }] },
  {
    name: 'catalogue services',
    schema: serviceList,
    real: [{ id: 1, text: order.serviceText, categoryId: 10, platformId: 1, min: 10, max: 10000, point: 2.5, unitPriceDeci: 25, notice: '', enableAuto: true, isReadOnly: false }],
    malformed: [{ id: 1, text: order.serviceText }],
  },
  {
    name: "operators' product",
    schema: adminServiceView,
    real: { id: 1, text: order.serviceText, categoryId: 10, platformId: 1, min: 10, max: 10000, point: 2.5, unitPriceDeci: 25, notice: '', enableAuto: true, isReadOnly: false, visible: false, sortOrder: 3 },
    malformed: { id: 1, text: order.serviceText, categoryId: 10, platformId: 1, min: 10, max: 10000, point: 2.5, unitPriceDeci: 25, notice: '', enableAuto: true, isReadOnly: false },
  },
  // The operators' screens, relayed whole (fulfillment, auth, wallet, catalog admin views).
  { name: "operators' providers", schema: adminProviderList, real: [provider], malformed: [{ ...provider, idempotentAdd: undefined }] },
  { name: 'provider check', schema: providerCheck, real: { ok: false, balance: null, currency: null, error: '연결 실패', provider }, malformed: { ok: false, balance: null, currency: null, error: '연결 실패' } },
  {
    name: "provider's services",
    schema: providerServiceList,
    real: [{ service: '101', name: 'Likes', type: 'Default', category: 'Instagram', rate: '0.90', min: 10, max: 5000, dripfeed: false, refill: true, cancel: false, listed: true }],
    malformed: [{ service: 101, name: 'Likes', type: 'Default', category: 'Instagram', rate: '0.90', min: 10, max: 5000, dripfeed: false, refill: true, cancel: false, listed: true }],
  },
  {
    name: 'mappings',
    schema: mappingList,
    real: [
      { productId: 1, mode: 'provider', providerId: 1, providerServiceId: '101', rule: { kind: 'markup', percent: 30 }, allowBelowCost: false, costDeci: 12, unitPriceDeci: 16, min: 10, max: 5000, dripfeed: false, refill: true, cancel: false, suspendedReason: null, updatedAt: order.createdAt },
      { productId: 2, mode: 'manual', providerId: null, providerServiceId: null, rule: null, allowBelowCost: false, costDeci: null, unitPriceDeci: null, min: null, max: null, dripfeed: false, refill: false, cancel: false, suspendedReason: null, updatedAt: order.createdAt },
    ],
    malformed: [{ productId: 1, mode: 'provider', providerId: 1, providerServiceId: '101', rule: { kind: 'percent', percent: 30 }, allowBelowCost: false, costDeci: 12, unitPriceDeci: 16, min: 10, max: 5000, dripfeed: false, refill: true, cancel: false, suspendedReason: null, updatedAt: order.createdAt }],
  },
  {
    name: 'forwards under review',
    schema: forwardRecordList,
    real: [{ orderId: 23501, userId: order.userId, productId: null, link: null, amount: null, source: 'run', state: 'review', providerId: 1, providerOrderId: null, attempts: 3, note: '응답 없음', createdAt: order.createdAt, updatedAt: order.createdAt }],
    malformed: [{ orderId: 23501, userId: order.userId, productId: 1, link: 'https://x', amount: 100, state: 'review', providerId: 1, providerOrderId: null, attempts: 3, note: null }],
  },
  {
    name: 'fulfillment notices',
    schema: fulfillmentNoticeList,
    real: { unread: 1, items: [{ id: 'n1', kind: 'balance-low', providerId: 1, productId: null, text: '잔액 부족', createdAt: order.createdAt, read: false }] },
    malformed: { unread: 1, items: [{ id: 'n1', kind: 'price-up', providerId: 1, productId: null, text: '', createdAt: order.createdAt, read: false }] },
  },
  { name: 'cancel', schema: cancelAnswer, real: { orderId: 23501, cancel: 'requested' }, malformed: { orderId: 23501, cancel: 'pending' } },
  { name: 'auto-order cancel', schema: autoOrderCancel, real: { autoOrder: auto, refund: 255, refundDeci: 2550 }, malformed: { autoOrder: auto, refundDeci: 2550 } },
  { name: 'browser session', schema: browserSession, real: { accessToken: 'a.b.c', expiresIn: 900 }, malformed: { expiresIn: 900 } },
  { name: 'member search', schema: adminMemberList, real: page([{ userId: order.userId, loginId: 'kim', email: null, phoneNumber: '01012345678', role: 'member', provider: 'local', createdAt: order.createdAt, restrictionLevel: null }]), malformed: page([{ userId: order.userId, loginId: 'kim' }]) },
  {
    name: "operators' member",
    schema: adminMemberDetail,
    real: { ...profile, loginId: 'kim', referredBy: null, restriction: null, restrictionHistory: [{ id: 'r1', level: null, previousLevel: 'warning', reason: '오인 제재', until: null, changedByLoginId: 'admin', at: order.createdAt }] },
    malformed: { ...profile, loginId: 'kim', referredBy: null },
  },
  {
    name: 'audit log',
    schema: auditPage,
    real: page([{ id: 'a1', at: order.createdAt, actor: { userId: 'u1', loginId: null, role: 'admin' }, service: 'wallet', action: 'wallet.balance.adjust', target: { type: 'member', id: order.userId, loginId: 'kim' }, before: null, after: { amountDeci: 1000 } }]),
    malformed: page([{ id: 'a1', at: order.createdAt, actor: 'admin', service: 'wallet', action: 'wallet.balance.adjust', target: { type: 'member', id: order.userId, loginId: 'kim' }, before: null, after: null }]),
  },
  { name: 'ledger', schema: ledgerPage, real: page([{ seq: 3, createdAt: order.createdAt, deltaDeci: -2550, balanceAfterDeci: 9795, kind: 'debit', source: 'order', referenceId: '23501' }]), malformed: page([{ seq: 3, createdAt: order.createdAt, deltaDeci: -2550, balanceAfterDeci: 9795, kind: 'refund', source: 'order', referenceId: '23501' }]) },
  {
    name: 'adjustments',
    schema: adjustmentList,
    real: { items: [{ id: 'j1', userId: order.userId, amount: -100, amountDeci: -1000, balanceAfterDeci: 0, reason: '오입금 회수', operatorId: 'u1', createdAt: order.createdAt }] },
    malformed: { items: [{ id: 'j1', reason: '오입금 회수' }] },
  },
  {
    name: 'referral summary',
    schema: referralSummary,
    real: { ratePercent: 5, memberCount: 1, members: [{ loginId: 'bo***', registeredAt: order.createdAt }], earningsDeci: 1500, earnings: 150, history: page([{ createdAt: order.createdAt, kind: 'credit', member: 'bo***', amountDeci: 1500, point: 150, sourceDeci: 30000, ratePercent: 5, shortfallDeci: 0 }]) },
    malformed: { ratePercent: 5, memberCount: 1, members: [], earningsDeci: 1500, earnings: 150, history: { items: [] } },
  },
  { name: 'settings', schema: settingsView, real: { version: 4, etag: '"settings-4"', items: [{ key: 'SITE_NAME', value: '패널' }], flags: { AUTO_ORDER: true } }, malformed: { version: 4, etag: '"settings-4"', items: [], flags: { AUTO_ORDER: 'on' } } },
  { name: 'service import', schema: importResult, real: { imported: 120, skipped: 2 }, malformed: { imported: 120 } },
  { name: 'provider names', schema: providerNames, real: [{ id: 1, name: 'Panel A' }], malformed: [{ id: '1', name: 'Panel A' }] },
  { name: 'settings change', schema: settingsChange, real: { version: 5, changed: ['SITE_NAME'] }, malformed: { version: 5, changed: 'SITE_NAME' } },
  // Composed by the BFF for the web app (member.ts, admin-console.ts).
  {
    name: "member's profile",
    schema: memberProfile,
    real: { id: 'kim', point: 1234.5, pointDeci: 12345, apiKey: null, referralCode: 'K7QX2M9P', userId: order.userId, role: 'member', email: null, restriction: null },
    malformed: { id: 'kim', point: 1234.5, pointDeci: 12345, apiKey: null, referralCode: null, userId: order.userId, email: null, restriction: null },
  },
  {
    name: "operators' order search",
    schema: adminOrderSearch,
    real: { ...page([{ ...order, loginId: 'kim', forwarding: { state: 'forwarded', providerId: 1, providerName: 'Panel A', providerOrderId: '9001', providerStatus: null } }, { ...order, id: 23500, loginId: null, forwarding: null }]), scanLimited: true },
    malformed: { ...page([{ ...order, loginId: 'kim' }]), forwardingUnavailable: false },
  },
  { name: "operators' top-ups with login ids", schema: adminTopUpRows, real: page([{ ...adminTopUp, loginId: 'kim' }]), malformed: page([adminTopUp]) },
  { name: "operators' deposits with login ids", schema: adminDepositRows, real: page([{ ...deposit, loginId: null }]), malformed: page([deposit]) },
  {
    name: "operators' member page",
    schema: adminMemberPageView,
    real: { member: { ...profile, loginId: 'kim', referredBy: null, restrictionHistory: [] }, balance: { point: 0, pointDeci: 0 }, ledger: null, adjustments: { items: [] }, topUps: page([adminTopUp]), orders: page([order]) },
    malformed: { member: { ...profile, loginId: 'kim', referredBy: null, restrictionHistory: [] }, balance: { pointDeci: 0 }, ledger: null, adjustments: null, topUps: null, orders: null },
  },
  { name: 'bulk order change', schema: bulkOrderResult, real: { results: [{ id: 1, ok: true }, { id: 2, ok: false, code: 'ORDER_FINAL', message: '완료된 주문은 변경할 수 없습니다.' }] }, malformed: { results: [{ id: 2, ok: false }] } },
  {
    name: "operators' dashboard",
    schema: adminDashboard,
    real: {
      days: [{ date: '2026-03-02', salesDeci: 2550, refundsDeci: 0, topUpsDeci: 100000, topUpCount: 1 }],
      pendingTopUps: 2,
      ordersByStatus: { '0': 3 },
      fulfillment: { review: 1, failed: 0, notices: null, providers: null },
      deadLetters: { total: 2, topics: [{ consumer: 'order', topic: 'wallet.events.dlq', count: 2 }] },
    },
    malformed: { days: [], pendingTopUps: 0, ordersByStatus: {}, fulfillment: { review: 1, failed: 0, notices: 0, providers: [provider] }, deadLetters: null },
  },
];

describe('HTTP answer contracts (@smm/contracts/http)', () => {
  it.each(cases)('$name: accepts a real answer and keeps every field', ({ schema, real }) => {
    const parsed = schema.safeParse(real);
    expect(parsed.error?.issues).toBeUndefined();
    expect(parsed.data).toEqual(real);
  });

  it.each(cases)('$name: refuses a malformed answer', ({ schema, malformed }) => {
    expect(schema.safeParse(malformed).success).toBe(false);
  });

  it('keeps fields a service adds, so the BFF can relay a body whole', () => {
    expect(orderPage.parse({ ...page([{ ...order, extra: 1 }]), scanLimited: true })).toMatchObject({ scanLimited: true, items: [{ extra: 1 }] });
  });

  it('imports nothing of node: the browser may load the subpath', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const dir = new URL('../src/http/', import.meta.url);
    for (const file of readdirSync(dir)) expect(readFileSync(new URL(file, dir), 'utf8')).not.toMatch(/from 'node:|envelope\.ts/);
  });
});
