// INCRBYFLOAT in Redis uses long double and prints "%.17Lf" with trailing zeros trimmed, so
// 0.1 + 0.2 gives "0.3", not JS's 0.30000000000000004. We add the decimal strings exactly, then
// round to long double's ~19 significant digits and to 17 fractional digits, which reproduces
// Redis's output for ordinary decimal inputs.

interface Dec {
  m: bigint;
  e: number; // value = m * 10^e
}

function parseDec(s: string): Dec | undefined {
  const r = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!r) return undefined;
  const int = r[2] ?? '';
  const frac = r[3] ?? '';
  if (int === '' && frac === '') return undefined;
  const exp = Number(r[4] ?? '0');
  if (Math.abs(exp) > 4000) return undefined;
  let m = BigInt((int + frac).replace(/^0+(?=\d)/, '') || '0');
  if (r[1] === '-') m = -m;
  return { m, e: exp - frac.length };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.m * 10n ** BigInt(a.e - e), b.m * 10n ** BigInt(b.e - e), e];
}

function roundDiv(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = (a + d / 2n) / d;
  return neg ? -q : q;
}

/** Returns the Redis-formatted sum, or undefined when either side is not a plain decimal. */
export function addDecimalStrings(a: string, b: string): string | undefined {
  const x = parseDec(a);
  const y = parseDec(b);
  if (!x || !y) return undefined;
  const [ma, mb, e0] = align(x, y);
  let m = ma + mb;
  let e = e0;
  const digits = (m < 0n ? -m : m).toString().length;
  if (digits > 19) {
    const cut = digits - 19;
    m = roundDiv(m, 10n ** BigInt(cut));
    e += cut;
  }
  if (e < -17) {
    m = roundDiv(m, 10n ** BigInt(-17 - e));
    e = -17;
  }
  const neg = m < 0n;
  let s = (neg ? -m : m).toString();
  if (e >= 0) s = s + '0'.repeat(e);
  else {
    const f = -e;
    if (s.length <= f) s = '0'.repeat(f - s.length + 1) + s;
    s = s.slice(0, s.length - f) + '.' + s.slice(s.length - f);
    s = s.replace(/0+$/, '').replace(/\.$/, '');
  }
  if (s === '0') return '0';
  return (neg ? '-' : '') + s;
}
