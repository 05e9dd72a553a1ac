// Redis runs Lua 5.1, where every number is a double. fengari is Lua 5.3 with *32-bit* integers,
// so `t[1] * 1000` on a TIME reply would wrap around. These two adjustments give back 5.1's number
// model: numerals and string→number conversions produce floats (so arithmetic is double
// arithmetic, exact to 2^53 like Redis's Lua), and floats print as 5.1 prints them ("%.14g":
// `tostring(10/2)` is "5", not 5.3's "5.0"). Integers still come from a few library functions
// (#t, string.len...), which are small.
// The ambient fengari types must also load when another workspace type-checks this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./fengari.d.ts" />
import lobject from 'fengari/src/lobject.js';
import type { TValue } from 'fengari/src/lobject.js';
import lstring from 'fengari/src/lstring.js';

let patched = false;

export function useLua51Numbers(): void {
  if (patched) return;
  patched = true;
  const str2num = lobject.luaO_str2num;
  lobject.luaO_str2num = (s: Uint8Array, o: TValue): number => {
    const n = str2num(s, o);
    if (n !== 0 && o.ttisinteger()) o.setfltvalue(o.value);
    return n;
  };
  const tostring = lobject.luaO_tostring;
  lobject.luaO_tostring = (L: unknown, o: TValue): void => {
    if (o.ttisinteger()) return tostring(L, o);
    o.setsvalue(lstring.luaS_bless(L, latin1Bytes(formatG(o.value, 14))));
  };
}

/** C's printf("%.<p>g"). */
export function formatG(d: number, p: number): string {
  if (d === Infinity) return 'inf';
  if (d === -Infinity) return '-inf';
  if (Number.isNaN(d)) return d < 0 ? '-nan' : 'nan';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  const [mant = '', ex = '0'] = d.toExponential(p - 1).split('e');
  const e10 = Number(ex);
  const trim = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (e10 < -4 || e10 >= p) return trim(mant) + 'e' + (e10 < 0 ? '-' : '+') + String(Math.abs(e10)).padStart(2, '0');
  return trim(d.toFixed(Math.max(0, p - 1 - e10)));
}

/** Redis values are latin1 strings (one char per byte); Lua strings are byte arrays. */
export function latin1Bytes(s: string): Uint8Array {
  const b = Buffer.from(s, 'latin1');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export function bytesLatin1(u: Uint8Array): string {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('latin1');
}
