import type { IncomingMessage } from 'node:http';
import type { Request, Response, Router } from 'express';
import { ChargeStatus, OrderStatus, deciToWon, isRestrictionLevel, receiptTypeLabels, restrictionLevelLabels } from '@smm/contracts';
import { drained, HttpError } from '@smm/platform';
import { type CsvCell, csvBom, csvLine } from '../domain/csv.ts';
import { kstDateTime, kstDayRange } from '../domain/kst.ts';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { loginIdsFor, userIdOfLoginId } from './admin-login-ids.ts';
import { callContext, callerOf } from './context.ts';

type Row = Record<string, unknown>;
/** What a row may need besides its own fields, gathered once per batch of rows. */
type Extras = { loginIds: Map<string, string>; totals: Map<string, { orders: number; chargedDeci: number; refundedDeci: number }>; staff: boolean };

type ExportKind = {
  /** The file name's Korean word (`주문-2026-12-01-2026-12-06.csv`). */
  title: string;
  service: 'order' | 'wallet' | 'auth';
  path: string;
  /** Member personal data and the operators' log are admins' (staff get 403 ADMIN_ONLY). */
  adminOnly: boolean;
  /** Query values passed to the service as they are (it validates them, in Korean). */
  filters: readonly string[];
  /** `loginId` in the query is turned into this field's userId filter. */
  loginIdFilter?: string;
  /** Fields holding member ids shown as login ids. */
  memberFields: readonly string[];
  /** Adds each member's order totals (members export). */
  totals?: boolean;
  header: readonly string[];
  row(r: Row, extras: Extras): CsvCell[];
};

const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const money = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? deciToWon(v) : null);
const time = (v: unknown): string => kstDateTime(typeof v === 'string' || v instanceof Date ? v : null);
const login = (extras: Extras, v: unknown): string | null => (typeof v === 'string' ? (extras.loginIds.get(v) ?? null) : null);
const labelOf = (labels: Record<string, string>, v: unknown): string => (typeof v === 'string' ? (labels[v] ?? v) : '');

const roleLabels: Record<string, string> = { member: '회원', staff: '스태프', admin: '관리자' };
const signUpLabels: Record<string, string> = { local: '아이디', naver: '네이버', kakao: '카카오' };
const depositStatusLabels: Record<string, string> = { matched: '자동 연결', unmatched: '미확인', ambiguous: '후보 여러 건', attached: '수동 연결' };
const depositSourceLabels: Record<string, string> = { bank: '은행 알림', manual: '수동 등록' };
const ledgerSourceLabels: Record<string, string> = { order: '주문', topup: '충전', refund: '환불', adjustment: '잔액 조정', referral: '추천 적립', 'referral-reversal': '추천 적립 회수' };
const sourceLabels: Record<string, string> = { web: '웹', api: 'API' };

function receiptDetails(r: Row): string {
  const fee = (r.feeValue ?? {}) as Record<string, unknown>;
  if (r.receiptType === 'fee') return [fee.company, fee.businessNumber, fee.leader, fee.phone, fee.email].map((v) => text(v) ?? '').join(' / ');
  if (r.receiptType === 'cash') return text(fee.phone) ?? '';
  return '';
}

const kinds: Record<string, ExportKind> = {
  orders: {
    title: '주문',
    service: 'order',
    path: '/admin/export/orders',
    adminOnly: false,
    filters: ['status', 'serviceId'],
    loginIdFilter: 'userId',
    memberFields: ['userId'],
    header: ['주문 번호', '주문 시각', '결제 시각', '아이디', '상품 번호', '상품명', '링크', '수량', '결제 금액(원)', '환불 금액(원)', '상태', '시작 수량', '남은 수량', '자동 주문 번호', '회차', '주문 경로'],
    row: (r, x) => [
      num(r.id),
      time(r.createdAt),
      time(r.paidAt),
      login(x, r.userId),
      num(r.serviceId),
      text(r.serviceText),
      text(r.link),
      num(r.amount),
      money(r.chargeDeci),
      money(r.refundedDeci),
      typeof r.status === 'number' && OrderStatus.is(r.status) ? OrderStatus.label(r.status) : '',
      num(r.startCount),
      num(r.remains),
      num(r.autoOrderId),
      num(r.run),
      labelOf(sourceLabels, r.source),
    ],
  },
  members: {
    title: '회원',
    service: 'auth',
    path: '/admin/export/members',
    adminOnly: true,
    filters: ['role'],
    memberFields: ['referredBy'],
    totals: true,
    header: ['회원 번호', '아이디', '이메일', '전화번호', '권한', '가입 방식', '가입 경로', '추천인', '제재', '가입 시각', '주문 수', '결제 합계(원)', '환불 합계(원)', '순매출(원)'],
    row: (r, x) => {
      const restriction = r.restriction as { level?: unknown } | null | undefined;
      const totals = x.totals.get(String(r.userId)) ?? { orders: 0, chargedDeci: 0, refundedDeci: 0 };
      return [
        text(r.userId),
        text(r.loginId),
        text(r.email),
        text(r.phoneNumber),
        labelOf(roleLabels, r.role),
        labelOf(signUpLabels, r.provider),
        text(r.registerWhere),
        login(x, r.referredBy),
        isRestrictionLevel(restriction?.level) ? restrictionLevelLabels[restriction.level] : r.status === 'banned' ? restrictionLevelLabels.banned : '',
        time(r.createdAt),
        totals.orders,
        deciToWon(totals.chargedDeci),
        deciToWon(totals.refundedDeci),
        deciToWon(totals.chargedDeci - totals.refundedDeci),
      ];
    },
  },
  'top-ups': {
    title: '충전',
    service: 'wallet',
    path: '/admin/export/top-ups',
    adminOnly: false,
    filters: ['status', 'paymentType'],
    loginIdFilter: 'userId',
    memberFields: ['userId'],
    header: ['번호', '신청 시각', '아이디', '입금자명', '충전 포인트', '입금 금액', '영수증', '영수증 정보', '발행 처리', '상태', '처리 시각', '거절 사유'],
    row: (r, x) => [
      num(r.id),
      time(r.createdAt),
      login(x, r.userId),
      text(r.name),
      money(r.pointDeci),
      money(r.transferDeci),
      typeof r.receiptType === 'string' && r.receiptType in receiptTypeLabels ? receiptTypeLabels[r.receiptType as keyof typeof receiptTypeLabels] : '',
      // Business numbers, phones and e-mails of receipts are personal data: admins' only.
      x.staff ? '' : receiptDetails(r),
      time(r.receiptIssuedAt),
      typeof r.status === 'number' && ChargeStatus.is(r.status) ? ChargeStatus.label(r.status) : '',
      time(r.responseAt),
      text(r.rejectReason),
    ],
  },
  deposits: {
    title: '입금',
    service: 'wallet',
    path: '/admin/export/deposits',
    adminOnly: false,
    filters: ['status'],
    memberFields: ['userId', 'resolvedBy'],
    header: ['입금 번호', '경로', '거래 번호', '입금자명', '금액(원)', '입금 시각', '수신 시각', '상태', '충전 요청 번호', '아이디', '처리자', '처리 시각'],
    row: (r, x) => [
      text(r.id),
      labelOf(depositSourceLabels, r.source),
      text(r.transactionId),
      text(r.depositorName),
      money(r.amountDeci),
      time(r.depositedAt),
      time(r.receivedAt),
      labelOf(depositStatusLabels, r.status),
      num(r.topUpId),
      login(x, r.userId),
      login(x, r.resolvedBy),
      time(r.resolvedAt),
    ],
  },
  ledger: {
    title: '원장',
    service: 'wallet',
    path: '/admin/export/ledger',
    adminOnly: false,
    filters: ['source'],
    loginIdFilter: 'userId',
    memberFields: ['userId'],
    header: ['시각', '아이디', '순번', '구분', '원인', '금액(원)', '잔액(원)', '참조 번호'],
    row: (r, x) => [
      time(r.createdAt),
      login(x, r.userId),
      num(r.seq),
      r.kind === 'debit' ? '차감' : r.kind === 'credit' ? '적립' : '',
      labelOf(ledgerSourceLabels, r.source),
      money(r.deltaDeci),
      money(r.balanceAfterDeci),
      text(r.referenceId),
    ],
  },
  audit: {
    title: '감사기록',
    service: 'auth',
    path: '/admin/export/audit',
    adminOnly: true,
    filters: ['action', 'targetType', 'targetId'],
    loginIdFilter: 'actorId',
    memberFields: ['actorId', 'beneficiaryId'],
    header: ['시각', '운영자', '권한', '서비스', '작업', '대상 종류', '대상', '혜택 회원', '이전 값', '이후 값'],
    row: (r, x) => [
      time(r.at),
      login(x, r.actorId),
      labelOf(roleLabels, r.actorRole),
      text(r.service),
      text(r.action),
      text(r.targetType),
      text(r.targetId),
      login(x, r.beneficiaryId),
      r.before == null ? '' : JSON.stringify(r.before),
      r.after == null ? '' : JSON.stringify(r.after),
    ],
  },
};

const words = {
  rangeInvalid: '기간은 yyyy-mm-dd 형식의 날짜로, 시작일이 종료일보다 늦지 않게 입력해 주세요.',
  filterInvalid: '검색 조건이 올바르지 않습니다.',
  exportFailed: '내보내기가 중간에 실패했습니다. 다시 시도해 주세요.',
};
const filterValue = /^[\w.:-]{1,64}$/;
const loginIdPattern = /^[^\s/]{1,50}$/;
/** Rows gathered before one login-id lookup: a lookup per row would be thousands of calls. */
const batchSize = 200;

/** The service query of an export: the KST days as instants, the filters, the login id as a userId. */
async function serviceQuery(req: Request, kind: ExportKind, auth: ServiceClient, ctx: CallContext): Promise<URLSearchParams | null> {
  const day = (name: string) => (typeof req.query[name] === 'string' && req.query[name] !== '' ? (req.query[name] as string) : undefined);
  const range = kstDayRange(day('from'), day('to'));
  if (range === null) throw new HttpError(400, 'VALIDATION_FAILED', words.rangeInvalid);
  const query = new URLSearchParams();
  if (range.from) query.set('from', range.from.toISOString());
  if (range.to) query.set('to', range.to.toISOString());
  for (const name of kind.filters) {
    const value = req.query[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string' || !filterValue.test(value)) throw new HttpError(400, 'VALIDATION_FAILED', words.filterInvalid);
    query.set(name, value);
  }
  const loginId = typeof req.query.loginId === 'string' ? req.query.loginId.trim() : '';
  if (kind.loginIdFilter && loginId !== '') {
    if (!loginIdPattern.test(loginId)) throw new HttpError(400, 'VALIDATION_FAILED', words.filterInvalid);
    const userId = await userIdOfLoginId(auth, ctx, loginId);
    if (userId === null) return null;
    query.set(kind.loginIdFilter, userId);
  }
  return query;
}

function fileName(kind: ExportKind, req: Request): string {
  const from = typeof req.query.from === 'string' ? req.query.from : '';
  const to = typeof req.query.to === 'string' ? req.query.to : '';
  return [kind.title, from, to].filter((part) => part !== '').join('_') + '.csv';
}

/** A service's error answer (JSON) relayed as it is, or a 502 for anything else. */
async function relayError(res: Response, upstream: IncomingMessage): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of upstream) chunks.push(chunk as Buffer);
  let body: unknown = null;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
  }
  relay(res, { status: upstream.statusCode ?? 502, headers: { get: () => null }, body });
}

/**
 * The back office's CSV exports (issue 41): `GET /api/admin/exports/:kind.csv` for orders,
 * members, top-ups, deposits, the ledger and the audit log, for a KST date range (`from`, `to`:
 * yyyy-mm-dd, both days included) and each kind's filters (`loginId` where a member is named).
 * UTF-8 with a byte-order mark, Korean headers, KST times `yyyy-mm-dd hh:mm:ss`, money as won
 * numbers, formula-looking cells neutralised (domain/csv.ts).
 *
 * Streamed end to end: the service writes NDJSON from a cursor, this reads it as it arrives, turns
 * each batch of 200 rows into CSV (one login-id lookup per batch) and writes it with backpressure,
 * so a year of orders passes through holding a batch, never the file. A client that leaves stops the
 * service's cursor; a failure after the first bytes breaks the transfer (the download is incomplete,
 * never a short file that looks whole).
 *
 * Who may export what: operators (staff too) the orders, top-ups (staff without receipt details),
 * deposits and the ledger — the queues they work; members and the audit log are admins' only
 * (personal data; the log oversees staff). `/api/admin/top-ups.csv` is the top-up export under its
 * older address.
 */
export function adminExportRoutes(router: Router, verifier: TokenVerifier, services: { auth: ServiceClient; wallet: ServiceClient; order: ServiceClient }): void {
  const operator = access(verifier, 'operator');

  const handler = (kindName: string) => async (req: Request, res: Response) => {
    const kind = kinds[kindName];
    if (kind === undefined) throw new HttpError(404, 'ROUTE_NOT_FOUND', messages.routeNotFound);
    const staff = callerOf(req).role !== 'admin';
    if (kind.adminOnly && staff) throw new HttpError(403, 'ADMIN_ONLY', messages.adminOnly);
    const ctx = callContext(req);
    const query = await serviceQuery(req, kind, services.auth, ctx);
    const start = () => {
      res.status(200);
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.setHeader('content-disposition', `attachment; filename="export.csv"; filename*=UTF-8''${encodeURIComponent(fileName(kind, req))}`);
      res.write(csvBom + csvLine(kind.header));
    };
    if (query === null) {
      // The login id names nobody: an empty file with its header.
      start();
      res.end();
      return;
    }
    const upstream = await services[kind.service].open(ctx, kind.path, query);
    if (upstream.statusCode !== 200) return relayError(res, upstream);
    start();
    let left = false;
    res.on('close', () => {
      left = !res.writableFinished;
      if (left) upstream.destroy();
    });
    const flush = async (rows: Row[]) => {
      if (rows.length === 0) return;
      const memberIds = rows.flatMap((r) => kind.memberFields.map((f) => r[f]).filter((v): v is string => typeof v === 'string'));
      const extras: Extras = { loginIds: await loginIdsFor(services.auth, ctx, memberIds), totals: new Map(), staff };
      if (kind.totals) extras.totals = await memberTotals(services.order, ctx, rows.map((r) => String(r.userId)));
      const text = rows.map((r) => csvLine(kind.row(r, extras))).join('');
      if (!res.write(text)) await drained(res);
    };
    try {
      let rest = '';
      let rows: Row[] = [];
      for await (const chunk of upstream) {
        if (left) return;
        const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          if (line === '') continue;
          const row = JSON.parse(line) as Row;
          if (row.error !== undefined) throw new Error(`service export failed: ${JSON.stringify(row.error)}`);
          rows.push(row);
        }
        if (rows.length >= batchSize) {
          await flush(rows);
          rows = [];
        }
      }
      if (left) return;
      if (!upstream.complete) throw new Error('service export ended early');
      if (rest.trim() !== '') rows.push(JSON.parse(rest) as Row);
      await flush(rows);
      res.end();
    } catch (error) {
      req.log.error({ err: (error as Error).message, kind: kindName }, words.exportFailed);
      upstream.destroy();
      res.destroy(error as Error);
    }
  };

  router.get('/admin/exports/:file', operator, (req: Request, res: Response) => {
    const file = typeof req.params.file === 'string' ? req.params.file : '';
    if (!file.endsWith('.csv')) throw new HttpError(404, 'ROUTE_NOT_FOUND', messages.routeNotFound);
    return handler(file.slice(0, -4))(req, res);
  });
  router.get('/admin/top-ups.csv', operator, handler('top-ups'));
}

/** Orders, charged and refunded per member (order's totals, one call per batch); missing on failure. */
async function memberTotals(order: ServiceClient, ctx: CallContext, userIds: string[]): Promise<Extras['totals']> {
  const answer = await order.call(ctx, 'GET', '/admin/reports/member-totals', { query: new URLSearchParams({ ids: [...new Set(userIds)].join(',') }) });
  if (answer.status !== 200) throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
  const items = (answer.body as { items?: Array<{ userId: string; orders: number; chargedDeci: number; refundedDeci: number }> }).items ?? [];
  return new Map(items.map((i) => [i.userId, i]));
}
