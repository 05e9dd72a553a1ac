import type { Request, Response, Router } from 'express';
import {
  type AttentionBody,
  type AttentionItem,
  type CostReportBody,
  type MemberTotalsBody,
  type ProfitReportBody,
  type ProfitRow,
  type RankedMemberPageBody,
  type RevenueReportBody,
  costReport,
  fulfillmentAttention,
  memberTotalsList,
  providerList,
  rankedMemberPage,
  reconcileStatus,
  revenueReport,
  walletAttention,
} from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { kstDay, kstDayRange, kstDays, kstMonthOf, kstWeekOf } from '../domain/kst.ts';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { failed, relay } from '../upstream/relay.ts';
import type { CallContext, ServiceAnswer, ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { loginIdsFor } from './admin-login-ids.ts';
import { callContext, callerOf } from './context.ts';
import { userIdRule } from './query.ts';

type By = ProfitReportBody['by'];
const groupings = new Set<By>(['day', 'week', 'month', 'product', 'provider', 'member']);
const words = {
  rangeInvalid: '기간은 yyyy-mm-dd 형식의 날짜로, 시작일이 종료일보다 늦지 않게 입력해 주세요.',
  rangeTooLong: '기간은 최대 3년(1,096일)까지 조회할 수 있습니다.',
  groupInvalid: '집계 기준은 일, 주, 월, 상품, 공급처, 회원 중 하나입니다.',
  sortInvalid: '정렬 기준은 결제 금액, 환불 금액, 주문 수 중 하나입니다.',
  noProvider: '직접 처리(공급처 없음)',
  unknownProduct: '(삭제된 상품)',
  unknownMember: '(알 수 없는 회원)',
};
const dayMs = 86_400_000;

/** The KST days of the query (default: the last 30 days, today included), as days and instants. */
function rangeOf(req: Request): { from: string; to: string; instants: { from: Date; to: Date } } {
  const today = kstDay(new Date());
  const text = (name: string) => (typeof req.query[name] === 'string' && req.query[name] !== '' ? (req.query[name] as string) : undefined);
  const to = text('to') ?? today;
  const from = text('from') ?? kstDay(new Date(Date.now() - 29 * dayMs));
  const instants = kstDayRange(from, to);
  if (instants === null || instants.from === null || instants.to === null) throw new HttpError(400, 'VALIDATION_FAILED', words.rangeInvalid);
  if (instants.to.getTime() - instants.from.getTime() > 1096 * dayMs) throw new HttpError(400, 'VALIDATION_FAILED', words.rangeTooLong);
  return { from, to, instants: { from: instants.from, to: instants.to } };
}

const emptyRow = (key: string, label: string): ProfitRow => ({ key, label, orders: 0, chargedDeci: 0, refundedDeci: 0, revenueDeci: 0, forwarded: 0, costed: 0, costDeci: 0, profitDeci: 0 });
const finish = (row: ProfitRow): ProfitRow => ({ ...row, revenueDeci: row.chargedDeci - row.refundedDeci, profitDeci: row.chargedDeci - row.refundedDeci - row.costDeci });

/**
 * Splits `total` over `weights` in proportion, in whole deci-won that add up to it exactly: each
 * share rounded down, the remainder to the largest fractions (ties to the earlier weight).
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map((x) => Math.floor(x));
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (let k = 0; left > 0 && k < order.length; k++, left--) shares[order[k]!.i]! += 1;
  return shares;
}

/**
 * The back office's figures (issue 41), each service answering its own aggregation:
 * - `GET /api/admin/reports/profit?by=day|week|month|product|provider|member&from&to` (admin):
 *   revenue (charged − refunded, from order: each payment once, on its KST day), provider cost
 *   (fulfillment: what each provider reported charging, at its exchange rate) and profit, one row
 *   per group. Weeks (Monday first) and months are the days added up here. By provider, a
 *   product's revenue is split over the providers its orders went to in the range, in proportion
 *   to their number (exact when a product used one provider); orders of products without a
 *   provider are the "direct" row. Every grouping has the same totals.
 * - `GET /api/admin/member-rankings?sort=spent|refunded|orders&page&pageSize` (operators).
 * - `GET /api/admin/members/:userId/totals` (operators): the member page's totals.
 * - `GET /api/admin/attention` (operators): the dashboard's 처리할 일 — counts and where to act.
 */
export function adminReportRoutes(
  router: Router,
  verifier: TokenVerifier,
  services: { auth: ServiceClient; wallet: ServiceClient; order: ServiceClient; fulfillment: ServiceClient },
): void {
  const admin = access(verifier, 'admin');
  const operator = access(verifier, 'operator');
  const { auth, wallet, order, fulfillment } = services;

  router.get('/admin/reports/profit', admin, async (req: Request, res: Response) => {
    const by = (req.query.by ?? 'day') as By;
    if (!groupings.has(by)) throw new HttpError(400, 'VALIDATION_FAILED', words.groupInvalid);
    const range = rangeOf(req);
    const ctx = callContext(req);
    const query = (group: string) => new URLSearchParams({ by: group, from: range.instants.from.toISOString(), to: range.instants.to.toISOString() });
    const revenueBy = by === 'week' || by === 'month' ? 'day' : by === 'provider' ? 'product' : by;
    const costBy = by === 'week' || by === 'month' ? 'day' : by === 'provider' ? 'provider-product' : by;
    const [revenueAnswer, costAnswer] = await Promise.all([order.call(ctx, 'GET', '/admin/reports/revenue', { query: query(revenueBy) }), fulfillment.call(ctx, 'GET', '/admin/reports/cost', { query: query(costBy) })]);
    if (failed(revenueAnswer)) return relay(res, revenueAnswer);
    if (failed(costAnswer)) return relay(res, costAnswer);
    const revenue = readAnswer(ctx, revenueAnswer, revenueReport);
    const cost = readAnswer(ctx, costAnswer, costReport);
    const rows = by === 'provider' ? await byProvider(ctx, fulfillment, revenue, cost) : await combined(ctx, auth, by, range, revenue, cost);
    const totals = rows.reduce(
      (t, r) => ({
        orders: t.orders + r.orders,
        chargedDeci: t.chargedDeci + r.chargedDeci,
        refundedDeci: t.refundedDeci + r.refundedDeci,
        revenueDeci: t.revenueDeci + r.revenueDeci,
        forwarded: t.forwarded + r.forwarded,
        costed: t.costed + r.costed,
        costDeci: t.costDeci + r.costDeci,
        profitDeci: t.profitDeci + r.profitDeci,
      }),
      { orders: 0, chargedDeci: 0, refundedDeci: 0, revenueDeci: 0, forwarded: 0, costed: 0, costDeci: 0, profitDeci: 0 },
    );
    res.json({ by, from: range.from, to: range.to, rows, totals } satisfies ProfitReportBody);
  });

  router.get('/admin/member-rankings', operator, async (req: Request, res: Response) => {
    const sort = typeof req.query.sort === 'string' ? req.query.sort : 'spent';
    if (!['spent', 'refunded', 'orders'].includes(sort)) throw new HttpError(400, 'VALIDATION_FAILED', words.sortInvalid);
    const query = new URLSearchParams({ sort });
    for (const name of ['page', 'pageSize']) {
      const value = req.query[name];
      if (typeof value === 'string' && /^\d{1,7}$/.test(value)) query.set(name, value);
      else if (value !== undefined) throw new HttpError(400, 'VALIDATION_FAILED', messages.badRequest);
    }
    const ctx = callContext(req);
    const answer = await order.call(ctx, 'GET', '/admin/reports/members', { query });
    if (failed(answer)) return relay(res, answer);
    const pageBody = readAnswer(ctx, answer, rankedMemberPage);
    const ids = await loginIdsFor(auth, ctx, pageBody.items.map((i) => i.userId));
    res.json({ ...pageBody, items: pageBody.items.map((i) => ({ ...i, loginId: ids.get(i.userId) ?? null })) } satisfies RankedMemberPageBody);
  });

  router.get('/admin/members/:userId/totals', operator, async (req: Request, res: Response) => {
    const userId = req.params.userId;
    if (typeof userId !== 'string' || !userIdRule.pattern.test(userId)) throw new HttpError(404, 'MEMBER_NOT_FOUND', messages.memberNotFound);
    const ctx = callContext(req);
    const answer = await order.call(ctx, 'GET', '/admin/reports/member-totals', { query: new URLSearchParams({ ids: userId }) });
    if (failed(answer)) return relay(res, answer);
    const found = readAnswer(ctx, answer, memberTotalsList).items.find((i) => i.userId === userId);
    res.json((found ?? { userId, orders: 0, chargedDeci: 0, refundedDeci: 0 }) satisfies MemberTotalsBody);
  });

  router.get('/admin/attention', operator, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const isAdmin = callerOf(req).role === 'admin';
    // Each part on its own: a service that does not answer leaves its lines without a count.
    const part = async <T>(call: () => Promise<ServiceAnswer>, read: (answer: ServiceAnswer) => T): Promise<T | null> => {
      try {
        const answer = await call();
        return failed(answer) ? null : read(answer);
      } catch {
        return null;
      }
    };
    // Dead letters are not repeated here: the dashboard's own list counts them (admin-dashboard-routes.ts).
    const [forwards, money, reconcile] = await Promise.all([
      part(() => fulfillment.call(ctx, 'GET', '/admin/reports/attention'), (a) => readAnswer(ctx, a, fulfillmentAttention)),
      part(() => wallet.call(ctx, 'GET', '/admin/reports/attention'), (a) => readAnswer(ctx, a, walletAttention)),
      part(() => wallet.call(ctx, 'GET', '/admin/reconcile/latest'), (a) => readAnswer(ctx, a, reconcileStatus)),
    ]);
    res.json({ items: attentionItems(forwards, money, reconcile, isAdmin, new Date()) } satisfies AttentionBody);
  });
}

async function combined(ctx: CallContext, auth: ServiceClient, by: Exclude<By, 'provider'>, range: { from: string; to: string }, revenue: RevenueReportBody, cost: CostReportBody): Promise<ProfitRow[]> {
  const keyOf = (key: string) => (by === 'week' ? kstWeekOf(key) : by === 'month' ? kstMonthOf(key) : key);
  const rows = new Map<string, ProfitRow>();
  if (by === 'day' || by === 'week' || by === 'month') for (const day of kstDays(range.from, range.to, 1200)) rows.set(keyOf(day), emptyRow(keyOf(day), keyOf(day)));
  const row = (key: string) => rows.get(key) ?? rows.set(key, emptyRow(key, key)).get(key)!;
  for (const g of revenue.groups) {
    const r = row(keyOf(g.key));
    r.orders += g.orders;
    r.chargedDeci += g.chargedDeci;
    r.refundedDeci += g.refundedDeci;
    if (by === 'product' && g.label) r.label = g.label;
  }
  for (const g of cost.groups) {
    const r = row(keyOf(g.key));
    r.forwarded += g.orders;
    r.costed += g.costed;
    r.costDeci += g.costDeci;
  }
  let list = [...rows.values()].map(finish);
  if (by === 'member') {
    // Auth names at most 500 members a call.
    const ids = new Map<string, string>();
    for (let i = 0; i < list.length; i += 500) for (const [id, login] of await loginIdsFor(auth, ctx, list.slice(i, i + 500).map((r) => r.key))) ids.set(id, login);
    list = list.map((r) => ({ ...r, label: ids.get(r.key) ?? words.unknownMember }));
  }
  if (by === 'product') list = list.map((r) => (r.label === r.key ? { ...r, label: r.key === 'none' ? words.unknownProduct : `#${r.key}` } : r));
  return by === 'member' || by === 'product' ? list.sort((a, b) => b.revenueDeci - a.revenueDeci || (a.key < b.key ? -1 : 1)) : list.sort((a, b) => (a.key < b.key ? -1 : 1));
}

async function byProvider(ctx: CallContext, fulfillment: ServiceClient, revenue: RevenueReportBody, cost: CostReportBody): Promise<ProfitRow[]> {
  const providersAnswer = await fulfillment.call(ctx, 'GET', '/admin/providers');
  const names = new Map(failed(providersAnswer) ? [] : readAnswer(ctx, providersAnswer, providerList).map((p) => [String(p.id), p.name] as const));
  const rows = new Map<string, ProfitRow>();
  const row = (key: string) => rows.get(key) ?? rows.set(key, emptyRow(key, key === 'manual' || key === 'none' ? words.noProvider : (names.get(key) ?? `#${key}`))).get(key)!;
  // Forwards of each product per provider: the weights its revenue is split by.
  const perProduct = new Map<string, Array<{ provider: string; orders: number }>>();
  for (const g of cost.groups) {
    const [provider = 'manual', product = 'none'] = g.key.split(':');
    const r = row(provider);
    r.forwarded += g.orders;
    r.costed += g.costed;
    r.costDeci += g.costDeci;
    perProduct.set(product, [...(perProduct.get(product) ?? []), { provider, orders: g.orders }]);
  }
  for (const g of revenue.groups) {
    const split = perProduct.get(g.key) ?? [{ provider: 'manual', orders: 1 }];
    const weights = split.map((s) => s.orders);
    const charged = allocate(g.chargedDeci, weights);
    const refunded = allocate(g.refundedDeci, weights);
    const orders = allocate(g.orders, weights);
    split.forEach((s, i) => {
      const r = row(s.provider);
      r.orders += orders[i]!;
      r.chargedDeci += charged[i]!;
      r.refundedDeci += refunded[i]!;
    });
  }
  return [...rows.values()].map(finish).sort((a, b) => b.revenueDeci - a.revenueDeci || (a.key < b.key ? -1 : 1));
}

const hourMs = 3_600_000;
/** "3시간 12분" / "45분" / "1일 2시간": how long the oldest waiting forward has waited. */
export function ageText(since: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days}일 ${hours}시간`;
  if (hours > 0) return `${hours}시간 ${minutes % 60}분`;
  return `${minutes}분`;
}

type FulfillmentPart = ReturnType<typeof fulfillmentAttention.parse>;
type WalletPart = ReturnType<typeof walletAttention.parse>;
type ReconcilePart = ReturnType<typeof reconcileStatus.parse>;

function attentionItems(
  forwards: FulfillmentPart | null,
  money: WalletPart | null,
  reconcile: ReconcilePart | null,
  isAdmin: boolean,
  now: Date,
): AttentionItem[] {
  const tone = (count: number | null, danger = false): AttentionItem['tone'] => (count === null || count === 0 ? 'ok' : danger ? 'danger' : 'warn');
  const f = forwards?.forwards ?? null;
  const oldest = f?.oldestWaitingAt ? new Date(f.oldestWaitingAt) : null;
  const waitingLong = oldest !== null && now.getTime() - oldest.getTime() > hourMs;
  const items: AttentionItem[] = [
    { key: 'forwards-queued', label: '공급처 전송 대기', count: f?.queued ?? null, detail: oldest ? `가장 오래된 주문 ${ageText(oldest, now)} 대기` : null, href: '/admin/orders', tone: waitingLong ? 'danger' : tone(f?.queued ?? null) },
    { key: 'forwards-retrying', label: '공급처 전송 재시도 중', count: f?.retrying ?? null, detail: null, href: '/admin/orders', tone: tone(f?.retrying ?? null) },
    { key: 'forwards-unknown', label: '전송 결과 확인 중', count: f?.unknown ?? null, detail: null, href: '/admin/review', tone: tone(f?.unknown ?? null) },
    { key: 'deposits-unmatched', label: '연결되지 않은 입금', count: money?.deposits.unmatched ?? null, detail: null, href: '/admin/deposits', tone: tone(money?.deposits.unmatched ?? null, true) },
    { key: 'deposits-ambiguous', label: '후보가 여러 건인 입금', count: money?.deposits.ambiguous ?? null, detail: null, href: '/admin/deposits', tone: tone(money?.deposits.ambiguous ?? null, true) },
  ];
  const latest = reconcile?.latest ?? null;
  items.push({
    key: 'reconcile',
    label: '정합성 점검 불일치',
    count: reconcile === null ? null : (latest?.total ?? 0),
    detail: latest === null ? (reconcile === null ? null : '아직 점검하지 않았습니다') : null,
    href: '/admin/dashboard#reconcile-title',
    tone: tone(latest?.total ?? null, true),
  });
  if (isAdmin) {
    const providers = forwards?.providers ?? null;
    const failing = providers?.filter((p) => p.lastError !== null) ?? null;
    const low = providers?.filter((p) => p.balanceState === 'low' || p.balanceState === 'negative') ?? null;
    items.push(
      { key: 'providers-failing', label: '마지막 호출이 실패한 공급처', count: failing?.length ?? null, detail: failing && failing.length > 0 ? failing.map((p) => p.name).join(', ') : null, href: '/admin/providers', tone: tone(failing?.length ?? null, true) },
      {
        key: 'providers-low',
        label: '잔액이 부족하거나 마이너스인 공급처',
        count: low?.length ?? null,
        detail: low && low.length > 0 ? low.map((p) => `${p.name} ${p.balance ?? ''} ${p.currency}${p.balanceState === 'negative' ? ' (마이너스)' : ''}`).join(', ') : null,
        href: '/admin/providers',
        tone: tone(low?.length ?? null, low?.some((p) => p.balanceState === 'negative') ?? false),
      },
    );
  }
  return items;
}
