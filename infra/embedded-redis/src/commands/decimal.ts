// INCRBYFLOAT in Redis parses both numbers with strtold into x87 long doubles (64-bit mantissa),
// adds them, and prints "%.17Lf" with trailing zeros trimmed. JS doubles would give different
// digits (0.1 + 0.2 → 0.30000000000000004 instead of "0.3"), so we emulate the long double
// exactly with BigInt: value = m * 2^e with |m| < 2^64, rounded half-to-even like the FPU.

interface LongDouble {
  m: bigint;
  e: number;
}

const BITS = 64n;
const MAX_EXP = 16384; // largest long double is just below 2^16384
const MIN_EXP = -16445; // below the smallest subnormal strtold reports ERANGE

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

function divRoundEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r2 = (n % d) * 2n;
  if (r2 > d || (r2 === d && (q & 1n) === 1n)) return q + 1n;
  return q;
}

/** Rounds num/den (den > 0) to a 64-bit mantissa; undefined on overflow or underflow. */
function fromRational(num: bigint, den: bigint): LongDouble | undefined {
  if (num === 0n) return { m: 0n, e: 0 };
  const neg = num < 0n;
  const a = neg ? -num : num;
  let e = bitLength(a) - bitLength(den) - Number(BITS);
  let q = 0n;
  for (let i = 0; i < 3; i++) {
    const n = e <= 0 ? a << BigInt(-e) : a;
    const d = e <= 0 ? den : den << BigInt(e);
    q = divRoundEven(n, d);
    if (q >= 1n << BITS) e++;
    else if (q < 1n << (BITS - 1n)) e--;
    else break;
  }
  if (q >= 1n << BITS) {
    q >>= 1n;
    e++;
  }
  if (e + 64 > MAX_EXP || e + 64 < MIN_EXP) return undefined;
  return { m: neg ? -q : q, e };
}

function toRational(x: LongDouble): [bigint, bigint] {
  return x.e >= 0 ? [x.m << BigInt(x.e), 1n] : [x.m, 1n << BigInt(-x.e)];
}

const DEC_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** strtold for plain decimal input. Infinity for inf; undefined when Redis would reject it. */
function parseLongDouble(s: string): LongDouble | number | undefined {
  // Redis refuses strings of MAX_LONG_DOUBLE_CHARS (5 KiB) or more; that also bounds our BigInt work.
  if (s.length >= 5 * 1024) return undefined;
  const low = s.toLowerCase();
  if (/^[+-]?inf(inity)?$/.test(low)) return low.startsWith('-') ? -Infinity : Infinity;
  const r = DEC_RE.exec(s);
  if (!r) return undefined;
  const int = r[2] ?? '';
  const frac = r[3] ?? '';
  if (int === '' && frac === '') return undefined;
  let m = BigInt(int + frac || '0');
  if (r[1] === '-') m = -m;
  if (m === 0n) return { m: 0n, e: 0 };
  const exp = Number(r[4] ?? '0') - frac.length;
  // Beyond these the value is certainly out of long double range (strtold's ERANGE).
  if (exp > 5000 || exp < -5100) return undefined;
  return exp >= 0 ? fromRational(m * 10n ** BigInt(exp), 1n) : fromRational(m, 10n ** BigInt(-exp));
}

/** "%.17Lf" with trailing zeros (and a bare dot) removed, as Redis's ld2string(LD_STR_HUMAN). */
function formatHuman(x: LongDouble): string {
  const [num, den] = toRational(x);
  const neg = num < 0n;
  const scaled = divRoundEven((neg ? -num : num) * 10n ** 17n, den);
  const digits = scaled.toString().padStart(18, '0');
  const intPart = digits.slice(0, -17);
  const frac = digits.slice(-17).replace(/0+$/, '');
  const body = frac === '' ? intPart : `${intPart}.${frac}`;
  return neg && body !== '0' ? '-' + body : body;
}

export type FloatIncr = { ok: string } | { error: 'notFloat' | 'nanOrInf' };

/** Computes INCRBYFLOAT's new value from the current string (or "0") and the increment. */
export function incrByFloat(current: string, incr: string): FloatIncr {
  const a = parseLongDouble(current);
  const b = parseLongDouble(incr);
  if (a === undefined || b === undefined) return { error: 'notFloat' };
  if (typeof a === 'number' || typeof b === 'number') return { error: 'nanOrInf' };
  const e = Math.min(a.e, b.e);
  const sum = (a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e));
  const r = e >= 0 ? fromRational(sum << BigInt(e), 1n) : fromRational(sum, 1n << BigInt(-e));
  if (r === undefined) return { error: 'nanOrInf' };
  return { ok: formatHuman(r) };
}
