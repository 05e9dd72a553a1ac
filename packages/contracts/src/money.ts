import { z } from 'zod';

/**
 * Money is exact: every amount is an integer count of 0.1 won ("deci-won"), because unit prices
 * may carry one decimal digit (spec §3, §9) and totals (unit price × quantity) must stay exact.
 * Fields holding such integers end in `Deci`. Floats never hold money; won values with a decimal
 * digit cross the public API as numbers only at the edge (BFF), converted here.
 */
export const deciWonSchema = z.number().int().safe();

const wonPattern = /^(\d{1,13})(?:\.(\d))?$/;

/** Parses a won amount with at most one decimal digit ("12", "12.5", 12.5) into deci-won, exactly. */
export function parseWon(value: string | number): number | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = wonPattern.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 10 + Number(match[2] ?? '0');
}

/** Deci-won as a won number for JSON answers (12.5 for 125); exact for the sizes money takes. */
export function deciToWon(deci: number): number {
  return Math.trunc(deci / 10) + (deci % 10) / 10;
}

/**
 * "1,234,567" for a whole number ≥ 0: what `toLocaleString('ko-KR')` prints, without it — that
 * builds an Intl formatter (and loads locale data) on every call, milliseconds each on a phone,
 * and the order screen formats hundreds of prices as the catalogue arrives.
 */
export function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Korean money format of spec §9: thousands separators, 0–1 fraction digits, 원 suffix. */
export function formatWon(deci: number): string {
  const negative = deci < 0;
  const abs = Math.abs(deci);
  const whole = groupThousands(Math.trunc(abs / 10));
  const tenth = abs % 10;
  return `${negative ? '-' : ''}${whole}${tenth === 0 ? '' : `.${tenth}`}원`;
}

/** Price of `quantity` units at `unitPriceDeci` each: an exact integer product. */
export function priceDeci(unitPriceDeci: number, quantity: number): number {
  const total = unitPriceDeci * quantity;
  if (!Number.isSafeInteger(total)) throw new RangeError('price out of range');
  return total;
}
