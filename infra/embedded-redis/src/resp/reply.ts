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
  // toExponential(16) rounds to 17 significant digits exactly like %.17g; its exponent decides
  // between %g's fixed and exponent forms.
  const [mant = '', ex = '0'] = d.toExponential(16).split('e');
  const e10 = Number(ex);
  if (e10 < -4 || e10 >= 17) {
    const m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
    return m + 'e' + (e10 < 0 ? '-' : '+') + String(Math.abs(e10)).padStart(2, '0');
  }
  // In this exponent range toPrecision(17) is fixed notation with the same 17 digits.
  const s = d.toPrecision(17);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}
