/**
 * Provider amounts (rates per 1000, balances) arrive as decimal text or JSON numbers in the
 * provider's currency. They are kept exact as a scaled integer: `units / 10^scale`.
 */
export type Decimal = { units: bigint; scale: number };

const pattern = /^(-)?(\d{1,18})(?:\.(\d{1,12}))?$/;

/** Parses "0.90", "12", 3.5 exactly; undefined for anything else (exponents, NaN, empty). */
export function parseDecimal(value: unknown): Decimal | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  const match = pattern.exec(text);
  if (!match) return undefined;
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2]}${fraction}`) * (match[1] ? -1n : 1n);
  return { units, scale: fraction.length };
}

export function decimalText(d: Decimal): string {
  const negative = d.units < 0n;
  const digits = (negative ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale);
  return `${negative ? '-' : ''}${whole}${d.scale > 0 ? `.${fraction}` : ''}`;
}

/** -1, 0 or 1. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * 10n ** BigInt(scale - a.scale);
  const y = b.units * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}
