import { type Decimal, compareDecimal, parseDecimal } from './decimal.ts';

/**
 * What a provider charged for an order (API v2 `status` → `charge`, in its currency), in deci-won
 * at the operators' exchange rate (`wonDeciPerUnit`: deci-won per unit of that currency), rounded
 * half up to a whole deci-won. Undefined for a charge that is not a plain non-negative decimal.
 */
export function chargeCostDeci(charge: unknown, wonDeciPerUnit: number): { text: string; costDeci: number } | undefined {
  const d = parseDecimal(charge);
  if (!d || d.units < 0n) return undefined;
  const denominator = 10n ** BigInt(d.scale);
  const cost = (d.units * BigInt(wonDeciPerUnit) * 2n + denominator) / (2n * denominator);
  if (cost > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return { text: typeof charge === 'string' ? charge.trim() : String(charge), costDeci: Number(cost) };
}

/** Below this many won a provider's balance is low when its own threshold is left at 0 (off). */
export const defaultLowBalanceWon = 10_000;

/**
 * A provider's balance state for the dashboard: negative, low (under its threshold, or under
 * `defaultLowBalanceWon` at its exchange rate when it set none), or fine; null when unknown.
 */
export function balanceState(balance: string | null, threshold: string, wonDeciPerUnit: number): 'negative' | 'low' | 'ok' | null {
  const b = balance === null ? undefined : parseDecimal(balance);
  if (!b) return null;
  if (b.units < 0n) return 'negative';
  const own = parseDecimal(threshold);
  const limit: Decimal = own && own.units > 0n ? own : defaultThreshold(wonDeciPerUnit);
  return compareDecimal(b, limit) < 0 ? 'low' : 'ok';
}

/** `defaultLowBalanceWon` in the provider's currency, to 4 decimal places. */
function defaultThreshold(wonDeciPerUnit: number): Decimal {
  const scale = 4;
  return { units: (BigInt(defaultLowBalanceWon) * 10n * 10n ** BigInt(scale)) / BigInt(Math.max(1, wonDeciPerUnit)), scale };
}
