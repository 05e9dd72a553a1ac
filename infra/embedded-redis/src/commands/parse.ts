// Argument parsing with Redis's strictness (string2ll / strtold rules).

const INT_RE = /^(0|-?[1-9][0-9]*)$/;
const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

/** Parses a signed 64-bit integer as Redis does; undefined when invalid. */
export function parseBig(s: string): bigint | undefined {
  if (s.length === 0 || s.length > 20 || !INT_RE.test(s)) return undefined;
  const b = BigInt(s);
  return b > MAX || b < MIN ? undefined : b;
}

/** Same, as a JS number (exact up to 2^53, which covers every count, index and TTL we see). */
export function parseInt64(s: string): number | undefined {
  if (s.length < 16) return INT_RE.test(s) ? Number(s) : undefined;
  const b = parseBig(s);
  return b === undefined ? undefined : Number(b);
}

const MS_LIMIT_SECS = MAX / 1000n;

/**
 * Converts an expiry argument to absolute ms exactly as Redis 7.0 does, including its int64
 * overflow checks. `relative` adds `now`. Returns undefined when Redis would say "invalid expire
 * time"; the result may exceed 2^53 (far-future deadlines), which only loses sub-ms precision.
 */
export function expireToAbsMs(n: bigint, seconds: boolean, relative: boolean, now: number): number | undefined {
  if (seconds && (n > MS_LIMIT_SECS || n < -MS_LIMIT_SECS)) return undefined;
  let ms = seconds ? n * 1000n : n;
  if (relative) {
    const base = BigInt(now);
    if (ms > MAX - base) return undefined;
    ms += base;
  }
  return Number(ms);
}

export function inInt64(b: bigint): boolean {
  return b <= MAX && b >= MIN;
}

const FLOAT_RE = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)$/i;

/** strtod-style float (no leading spaces, no NaN). */
export function parseFloatArg(s: string): number | undefined {
  if (!FLOAT_RE.test(s)) return undefined;
  const l = s.toLowerCase();
  if (l.endsWith('inf') || l.endsWith('infinity')) return l.startsWith('-') ? -Infinity : Infinity;
  const n = Number(s);
  return Number.isNaN(n) ? undefined : n;
}

/** Glob matching with Redis's stringmatchlen semantics (*, ?, [...], [^...], ranges, escapes). */
export function globMatch(pattern: string, str: string): boolean {
  return matchAt(pattern, 0, str, 0);
}

function matchAt(p: string, pi: number, s: string, si: number): boolean {
  while (pi < p.length) {
    const c = p[pi]!;
    if (c === '*') {
      while (p[pi + 1] === '*') pi++;
      if (pi + 1 === p.length) return true;
      for (let k = si; k <= s.length; k++) if (matchAt(p, pi + 1, s, k)) return true;
      return false;
    }
    if (si >= s.length) return false;
    if (c === '?') {
      si++;
      pi++;
      continue;
    }
    if (c === '[') {
      pi++;
      const not = p[pi] === '^';
      if (not) pi++;
      let match = false;
      for (;;) {
        if (pi >= p.length) {
          pi--;
          break;
        }
        const pc = p[pi]!;
        if (pc === '\\' && pi + 2 <= p.length) {
          pi++;
          if (p[pi] === s[si]) match = true;
        } else if (pc === ']') {
          break;
        } else if (p[pi + 1] === '-' && pi + 2 < p.length) {
          let start = p.charCodeAt(pi);
          let end = p.charCodeAt(pi + 2);
          if (start > end) [start, end] = [end, start];
          const sc = s.charCodeAt(si);
          if (sc >= start && sc <= end) match = true;
          pi += 2;
        } else if (pc === s[si]) match = true;
        pi++;
      }
      if (not) match = !match;
      if (!match) return false;
      si++;
      pi++;
      continue;
    }
    if (c === '\\' && pi + 1 < p.length) pi++;
    if (p[pi] !== s[si]) return false;
    pi++;
    si++;
  }
  return si === s.length;
}
