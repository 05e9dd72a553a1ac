import { deciToWon, parseWon } from '@smm/contracts';
import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';

/** Highest unit price, in deci-won: 1,000,000 won. With maxQuantity it keeps totals exact integers. */
export const maxUnitPriceDeci = 10_000_000;

/**
 * Reads a unit price typed by an operator ("2.5", 2.5, "3") into deci-won. Prices are positive and
 * carry at most one decimal digit (spec §3, §9), so "2.55", "0", "-1" and "1e3" are refused.
 */
export function parseUnitPrice(value: unknown): { ok: true; deci: number } | { ok: false; problem: Problem } {
  if (typeof value !== 'number' && typeof value !== 'string') return { ok: false, problem: problem('INVALID_PRICE', messages.priceInvalid) };
  const deci = parseWon(value);
  if (deci === undefined || deci <= 0) return { ok: false, problem: problem('INVALID_PRICE', messages.priceInvalid) };
  if (deci > maxUnitPriceDeci) return { ok: false, problem: problem('PRICE_TOO_HIGH', messages.priceTooHigh) };
  return { ok: true, deci };
}

/** The unit price as members see it: won with at most one decimal digit (12.5). */
export function unitPriceWon(deci: number): number {
  return deciToWon(deci);
}
