/**
 * Numbers arrive as JSON numbers or decimal strings (forms); anything else is NaN. Decimal only:
 * `Number()` alone would read "0x10" as 16, "1e3" as 1000 and " " as 0.
 */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*-?\d{1,15}(\.\d{1,15})?\s*$/.test(value)) return Number(value);
  return Number.NaN;
}
