import { formatWon, parseWon } from './contracts.ts';

/** Won from a deci-won integer: "1,234원", "12.5원" (spec §9). */
export function won(deci: number): string {
  return formatWon(deci);
}

/** Won from a won number the API sent (≤ 1 decimal digit); falls back to plain formatting. */
export function wonFromNumber(value: number): string {
  const deci = parseWon(value);
  return deci === undefined ? `${value.toLocaleString('ko-KR', { maximumFractionDigits: 1 })}원` : formatWon(deci);
}

export function count(value: number): string {
  return value.toLocaleString('ko-KR', { maximumFractionDigits: 1 });
}

const kstOffsetMs = 9 * 60 * 60 * 1000;
const pad = (n: number) => String(n).padStart(2, '0');

/** `yyyy-mm-dd hh:mm:ss` in Korean time (UTC+9, no daylight saving), whatever the browser's zone. */
export function dateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const k = new Date(date.getTime() + kstOffsetMs);
  return `${k.getUTCFullYear()}-${pad(k.getUTCMonth() + 1)}-${pad(k.getUTCDate())} ${pad(k.getUTCHours())}:${pad(k.getUTCMinutes())}:${pad(k.getUTCSeconds())}`;
}

/** Spec §5: a start count that is negative or not numeric is shown blank. */
export function startCount(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? count(value) : '';
}
