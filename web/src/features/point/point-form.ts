import type { ReceiptType } from '../../lib/statuses.ts';
import { pointText as t } from './messages.ts';

/** Spec §9: quick-add buttons and the 5,000-won unit of a top-up. */
export const quickAdds = [5_000, 10_000, 50_000, 100_000] as const;
export const topUpUnit = 5_000;
/** Spec §5: a tax invoice adds 10 % when the payment-fee setting is on. */
export const feeRatePercent = 10;

export type FeeValue = { company?: string; businessNumber?: string; leader?: string; phone?: string; email?: string };
export type TopUpForm = { name: string; point: number; feeType: ReceiptType; feeValue: FeeValue };

export const emptyTopUp: TopUpForm = { name: '', point: 0, feeType: 'none', feeValue: {} };

export function addAmount(form: TopUpForm, won: number): TopUpForm {
  return { ...form, point: form.point + won };
}

export function resetAmount(form: TopUpForm): TopUpForm {
  return { ...form, point: 0 };
}

/** Spec §4: changing the receipt type clears the receipt details. */
export function changeReceiptType(form: TopUpForm, feeType: ReceiptType): TopUpForm {
  return { ...form, feeType, feeValue: {} };
}

export function feeApplies(feeType: ReceiptType, feeEnabled: boolean): boolean {
  return feeType === 'fee' && feeEnabled;
}

/** The amount to transfer in won: the top-up, plus 10 % for a tax invoice when the fee is on. */
export function transferAmount(point: number, feeType: ReceiptType, feeEnabled: boolean): number {
  return feeApplies(feeType, feeEnabled) ? Math.round((point * (100 + feeRatePercent)) / 100) : point;
}

export type TopUpField = 'name' | 'point' | 'company' | 'businessNumber' | 'leader' | 'phone' | 'email';
const digits = (value: string | undefined) => (value ?? '').replace(/[\s-]/g, '');

/** Spec §5 top-up checks in order (depositor, amount), then the chosen receipt's details. */
export function validateTopUp(form: TopUpForm): { field: TopUpField; message: string } | null {
  if (form.name.trim() === '') return { field: 'name', message: t.depositorRequired };
  if (!(form.point > 0) || form.point % topUpUnit !== 0) return { field: 'point', message: t.pointInvalid };
  const v = form.feeValue;
  if (form.feeType === 'fee') {
    if (!v.company?.trim()) return { field: 'company', message: t.companyRequired };
    if (!/^\d{10}$/.test(digits(v.businessNumber))) return { field: 'businessNumber', message: t.businessNumberInvalid };
    if (!v.leader?.trim()) return { field: 'leader', message: t.leaderRequired };
    if (!/^\d{9,11}$/.test(digits(v.phone))) return { field: 'phone', message: t.phoneInvalid };
    if (!(v.email?.includes('@') && v.email.includes('.'))) return { field: 'email', message: t.emailInvalid };
  }
  if (form.feeType === 'cash' && !/^\d{9,11}$/.test(digits(v.phone))) return { field: 'phone', message: t.phoneInvalid };
  return null;
}

/** The body of POST /service/point (spec §3 top-up request). */
export function topUpPayload(form: TopUpForm) {
  const v = form.feeValue;
  const feeValue =
    form.feeType === 'fee'
      ? { company: v.company?.trim(), businessNumber: digits(v.businessNumber), leader: v.leader?.trim(), phone: digits(v.phone), email: v.email?.trim() }
      : form.feeType === 'cash'
        ? { phone: digits(v.phone) }
        : {};
  return { name: form.name.trim(), point: form.point, feeType: form.feeType, feeValue };
}

/** Spec §9: mobile is detected by the user agent. */
export function isMobile(userAgent: string): boolean {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(userAgent);
}

/** Toss deep link (spec §2): amount, account number without hyphens, bank code, fixed amount. */
export function tossLink(amount: number, accountNumber: string, bankCode: string): string {
  const params = new URLSearchParams({
    amount: String(amount),
    accountNo: accountNumber.replace(/[^0-9]/g, ''),
    bankCode,
    isAmountFixed: 'true',
  });
  return `supertoss://send?${params.toString()}`;
}
