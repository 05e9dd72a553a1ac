import { createHash } from 'node:crypto';
import { ChargeStatus, type ReceiptType, countSetting, paymentTypeOf, receiptTypes, settingKeys } from '@smm/contracts';
import { type Problem, messages, problem } from './messages.ts';

/** Spec §9: top-ups come in 5,000-won steps; the upper bound keeps a typo from asking for billions. */
export const topUpStepWon = 5_000;
export const topUpMaxWon = 10_000_000;
/** An identical request this young and still pending is a double submit, not a new request. */
export const duplicateWindowMs = 60_000;

/** Receipt details as stored: tax invoice, cash receipt, or none. */
export type FeeValue =
  | { company: string; businessNumber: string; leader: string; phone: string; email: string }
  | { phone: string }
  | Record<string, never>;

/** A validated request, before it has an id. */
export type TopUpDraft = {
  userId: string;
  name: string;
  pointDeci: number;
  transferDeci: number;
  receiptType: ReceiptType;
  paymentType: number;
  feeValue: FeeValue;
  /** Same for two requests exactly when user, depositor, amount and receipt are the same. */
  fingerprint: string;
};

export type TopUp = TopUpDraft & {
  id: number;
  status: number;
  createdAt: Date;
  responseAt: Date | null;
  expiresAt: Date;
  /** The operator's reason for a rejection (issue 12); absent on older requests. */
  rejectReason?: string | null;
  /** When an operator marked the tax invoice or cash receipt as issued. */
  receiptIssuedAt?: Date | null;
  /** Failed because its time ran out with no deposit (issue 39), not by an operator's rejection. */
  expired?: boolean;
  /** Withdrawn by its member while pending (issue 40); counts like an unpaid expiry toward the hold. */
  canceled?: boolean;
};

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const digitsWithHyphens = (value: string, lengths: readonly number[]): boolean =>
  /^[0-9-]+$/.test(value) && lengths.includes(value.replace(/-/g, '').length);
const emailLike = (value: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** The amount in deci-won when it is a positive whole multiple of 5,000 won up to the maximum. */
function pointDeciOf(value: unknown): number | undefined {
  const won = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(won) || won <= 0 || won > topUpMaxWon || won % topUpStepWon !== 0) return undefined;
  return won * 10;
}

function receiptTypeOf(value: unknown): ReceiptType | undefined {
  if (value === undefined || value === null) return 'none'; // the receipt is optional on the form
  return receiptTypes.find((type) => type === value);
}

function feeValueOf(receiptType: ReceiptType, raw: unknown): { feeValue: FeeValue } | { problem: Problem } {
  const input = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  if (receiptType === 'fee') {
    const company = text(input.company);
    const businessNumber = text(input.businessNumber);
    const leader = text(input.leader);
    const phone = text(input.phone);
    const email = text(input.email);
    if (company === '') return { problem: problem('COMPANY_REQUIRED', messages.companyRequired) };
    if (!digitsWithHyphens(businessNumber, [10])) return { problem: problem('BUSINESS_NUMBER_INVALID', messages.businessNumberInvalid) };
    if (leader === '') return { problem: problem('LEADER_REQUIRED', messages.leaderRequired) };
    if (!digitsWithHyphens(phone, [10, 11])) return { problem: problem('RECEIPT_PHONE_INVALID', messages.receiptPhoneInvalid) };
    if (!emailLike(email)) return { problem: problem('RECEIPT_EMAIL_INVALID', messages.receiptEmailInvalid) };
    return { feeValue: { company, businessNumber, leader, phone, email } };
  }
  if (receiptType === 'cash') {
    const phone = text(input.phone);
    if (!digitsWithHyphens(phone, [10, 11])) return { problem: problem('RECEIPT_PHONE_INVALID', messages.receiptPhoneInvalid) };
    return { feeValue: { phone } };
  }
  return { feeValue: {} };
}

/**
 * What the member transfers: the points, plus 10 % when a tax invoice is asked for and the fee
 * setting is on. Exact in deci-won because the amount is a multiple of 5,000 won.
 */
export function transferDeciOf(pointDeci: number, receiptType: ReceiptType, feeEnabled: boolean): number {
  return receiptType === 'fee' && feeEnabled ? (pointDeci * 11) / 10 : pointDeci;
}

/**
 * Checks a top-up request in the agreed order (depositor, amount, receipt type, receipt details)
 * and answers the first broken rule, or the draft to store.
 */
export function validateTopUp(userId: string, body: unknown, feeEnabled: boolean): { ok: true; draft: TopUpDraft } | { ok: false; problem: Problem } {
  const input = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const name = text(input.name);
  const refuse = (p: Problem) => ({ ok: false as const, problem: p });
  if (name === '') return refuse(problem('DEPOSITOR_REQUIRED', messages.depositorRequired));
  const pointDeci = pointDeciOf(input.point);
  if (pointDeci === undefined) return refuse(problem('POINT_INVALID', messages.pointInvalid));
  const receiptType = receiptTypeOf(input.feeType);
  if (receiptType === undefined) return refuse(problem('RECEIPT_TYPE_INVALID', messages.receiptTypeInvalid));
  const receipt = feeValueOf(receiptType, input.feeValue);
  if ('problem' in receipt) return refuse(receipt.problem);
  const { feeValue } = receipt;
  const fingerprint = createHash('sha256').update(JSON.stringify([userId, name, pointDeci, receiptType, feeValue])).digest('base64url');
  return {
    ok: true,
    draft: {
      userId,
      name,
      pointDeci,
      transferDeci: transferDeciOf(pointDeci, receiptType, feeEnabled),
      receiptType,
      paymentType: paymentTypeOf(receiptType),
      feeValue,
      fingerprint,
    },
  };
}

export type TopUpDecision = 'approve' | 'reject' | 'expire' | 'cancel';

/** Only a pending request can be approved, rejected or expired; each ends it for good. */
export function decideTopUp(topUp: Pick<TopUp, 'status'>, decision: TopUpDecision): { ok: true; status: number } | { ok: false; problem: Problem } {
  if (topUp.status !== ChargeStatus.values.PENDING) return { ok: false, problem: problem('TOPUP_NOT_PENDING', messages.topUpNotPending) };
  return { ok: true, status: decision === 'approve' ? ChargeStatus.values.SUCCESS : ChargeStatus.values.FAIL };
}

/**
 * Decoy requests (issue 39): a member who opens many requests under common names can capture other
 * people's deposits or make them ambiguous. A member whose requests expired unpaid this many times
 * within the window is held: new requests are refused until the oldest ages out of the window.
 * A request its member cancelled (issue 40) counts the same: otherwise cancelling each decoy just
 * before it expires would open the next one and never be held. Honest members cancel rarely; three
 * unpaid ends in a week is the same signal whoever ended them.
 */
export const heldAfterExpired = 3;
export const heldWindowMs = 7 * 24 * 3600_000;
export const hourMs = 3600_000;

/** Only the member who asked may cancel, and only while the request is pending. */
export function cancelProblem(topUp: Pick<TopUp, 'status' | 'userId'> | null, userId: string): { status: 404 | 409; problem: Problem } | null {
  // Someone else's request answers exactly like a missing one.
  if (!topUp || topUp.userId !== userId) return { status: 404, problem: problem('TOPUP_NOT_FOUND', messages.topUpNotFound) };
  if (topUp.status !== ChargeStatus.values.PENDING) return { status: 409, problem: problem('TOPUP_NOT_PENDING', messages.topUpNotPending) };
  return null;
}

/** What the limits count, for one member at the moment of a new request. */
export type RequestCounts = { open: number; lastHour: number; expiredRecently: number };

/**
 * The refusal of a new request, or null: held first (it says why whatever the other counts),
 * then the open-request limit (TOP_UP_OPEN_LIMIT, 1 by default), then the hourly rate
 * (TOP_UP_HOURLY_LIMIT). Settings are the replica's strings; missing or unreadable ones fall back.
 */
export function requestLimitProblem(counts: RequestCounts, settings: { openLimit: string | undefined; hourlyLimit: string | undefined }): Problem | null {
  if (counts.expiredRecently >= heldAfterExpired) return problem('TOPUP_HELD', messages.topUpHeld);
  const openLimit = countSetting(settingKeys.topUpOpenLimit, settings.openLimit);
  if (counts.open >= openLimit) return problem('TOPUP_OPEN_LIMIT', `${messages.topUpOpenLimitPrefix} ${counts.open}${messages.topUpOpenLimitSuffix}`);
  const hourlyLimit = countSetting(settingKeys.topUpHourlyLimit, settings.hourlyLimit);
  if (counts.lastHour >= hourlyLimit) return problem('TOPUP_RATE_LIMIT', `${messages.topUpHourlyLimitPrefix} ${hourlyLimit}${messages.topUpHourlyLimitSuffix}`);
  return null;
}
