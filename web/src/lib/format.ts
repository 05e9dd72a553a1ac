import { formatWon, groupThousands } from './contracts.ts';

// `toLocaleString` builds an Intl formatter on every call (milliseconds each on a phone, and the
// order screen and the histories format hundreds of figures as the data arrives): whole numbers
// are grouped by hand, the rare fraction goes through one formatter built when first needed.
let koOneDecimal: Intl.NumberFormat | undefined;
const oneDecimal = (value: number) => (koOneDecimal ??= new Intl.NumberFormat('ko-KR', { maximumFractionDigits: 1 })).format(value);

/** "12,345" (as `toLocaleString('ko-KR', { maximumFractionDigits: 1 })` prints it). */
export function grouped(value: number): string {
  if (Number.isSafeInteger(value)) return value < 0 ? `-${groupThousands(-value)}` : groupThousands(value);
  return oneDecimal(value);
}

/** Won from a deci-won integer: "1,234원", "12.5원" (spec §9). */
export function won(deci: number): string {
  return formatWon(deci);
}

export function count(value: number): string {
  return grouped(value);
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

/** A `datetime-local` value (`yyyy-mm-ddThh:mm`) of `date` in Korean time: the input has no zone of its own. */
export function kstDateTimeInput(date: Date): string {
  return new Date(date.getTime() + kstOffsetMs).toISOString().slice(0, 16);
}

/** The instant a `datetime-local` value (`yyyy-mm-ddThh:mm`) names in Korean time, as ISO 8601 with its offset. */
export function fromKstDateTimeInput(value: string): string {
  return `${value}:00+09:00`;
}

/** Spec §5: a start count that is negative or not numeric is shown blank. */
export function startCount(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? count(value) : '';
}
