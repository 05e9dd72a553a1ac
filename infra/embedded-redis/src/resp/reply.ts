// Reply encoder. Replies for one batch of pipelined requests are concatenated into a single
// latin1 string and written with one socket.write: V8 string ropes make the appends cheap and
// the single write avoids a syscall per reply.

export type Proto = 2 | 3;

export class Reply {
  out = '';
  proto: Proto = 2;

  ok(): void {
    this.out += '+OK\r\n';
  }
  simple(s: string): void {
    this.out += '+' + s + '\r\n';
  }
  /** `msg` carries its own error code prefix, e.g. "ERR syntax error" or "WRONGTYPE ...". */
  err(msg: string): void {
    this.out += '-' + msg.replace(/[\r\n]+/g, ' ') + '\r\n';
  }
  int(n: number): void {
    this.out += ':' + n + '\r\n';
  }
  bulk(s: string): void {
    this.out += '$' + s.length + '\r\n' + s + '\r\n';
  }
  /** Null bulk string (GET of a missing key). */
  nil(): void {
    this.out += this.proto === 3 ? '_\r\n' : '$-1\r\n';
  }
  /** Null array (EXEC aborted by WATCH, BLPOP timeout...). */
  nilArray(): void {
    this.out += this.proto === 3 ? '_\r\n' : '*-1\r\n';
  }
  bulkOrNil(s: string | undefined): void {
    if (s === undefined) this.nil();
    else this.out += '$' + s.length + '\r\n' + s + '\r\n';
  }
  arr(n: number): void {
    this.out += '*' + n + '\r\n';
  }
  map(pairs: number): void {
    this.out += this.proto === 3 ? '%' + pairs + '\r\n' : '*' + pairs * 2 + '\r\n';
  }
  set(n: number): void {
    this.out += this.proto === 3 ? '~' + n + '\r\n' : '*' + n + '\r\n';
  }
  push(n: number): void {
    this.out += this.proto === 3 ? '>' + n + '\r\n' : '*' + n + '\r\n';
  }
  dbl(d: number): void {
    const s = formatDouble(d);
    if (this.proto === 3) this.out += ',' + s + '\r\n';
    else this.out += '$' + s.length + '\r\n' + s + '\r\n';
  }
  bulks(items: readonly string[]): void {
    let s = '*' + items.length + '\r\n';
    for (const it of items) s += '$' + it.length + '\r\n' + it + '\r\n';
    this.out += s;
  }
  setOfBulks(items: readonly string[]): void {
    this.set(items.length);
    for (const it of items) this.out += '$' + it.length + '\r\n' + it + '\r\n';
  }
  /** Verbatim string (INFO in RESP3 uses it); RESP2 sees a bulk string. */
  verbatim(s: string): void {
    if (this.proto === 3) this.out += '=' + (s.length + 4) + '\r\ntxt:' + s + '\r\n';
    else this.bulk(s);
  }
  take(): string {
    const s = this.out;
    this.out = '';
    return s;
  }
}

/** Formats a double the way Redis 7.0 does (printf "%.17g"; inf/-inf/nan spelled out). */
export function formatDouble(d: number): string {
  if (d === Infinity) return 'inf';
  if (d === -Infinity) return '-inf';
  if (Number.isNaN(d)) return 'nan';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  if (Number.isInteger(d) && Math.abs(d) < 1e17) return String(d);
  const exp = Math.floor(Math.log10(Math.abs(d)));
  let s = d.toPrecision(17);
  // toPrecision picks exponent form only for exp >= 17 or < -6; %g switches below -4.
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  let e10 = exp;
  if (m) e10 = Number(m[4]);
  else {
    // Re-derive the exponent from the rounded mantissa (rounding can bump 9.99.. to 10).
    const e = d.toExponential(16);
    e10 = Number(e.slice(e.indexOf('e') + 1));
  }
  if (e10 < -4 || e10 >= 17) {
    const e = d.toExponential(16);
    const [mant = '', ex = '0'] = e.split('e');
    const mt = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
    const en = Number(ex);
    return mt + 'e' + (en < 0 ? '-' : '+') + String(Math.abs(en)).padStart(2, '0');
  }
  if (m) s = d.toFixed(Math.max(0, 16 - e10));
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}
