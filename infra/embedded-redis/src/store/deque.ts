// A list value: a growable ring buffer, so LPUSH/RPUSH/LPOP/RPOP are O(1) at both ends (a JS
// array's unshift/shift moves every element, which made long lists O(n) per push at the head).
// Index access is O(1) as well, so LINDEX/LRANGE cost only what they return.

export class Deque {
  private buf: (string | undefined)[];
  private head = 0;
  private len = 0;

  constructor(items: Iterable<string> = []) {
    this.buf = new Array<string | undefined>(8);
    for (const v of items) this.push(v);
  }

  get length(): number {
    return this.len;
  }

  private grow(): void {
    const old = this.buf;
    const next = new Array<string | undefined>(old.length * 2);
    for (let i = 0; i < this.len; i++) next[i] = old[(this.head + i) & (old.length - 1)];
    this.buf = next;
    this.head = 0;
  }

  /** Appends at the tail (RPUSH). */
  push(v: string): void {
    if (this.len === this.buf.length) this.grow();
    this.buf[(this.head + this.len) & (this.buf.length - 1)] = v;
    this.len++;
  }

  /** Prepends at the head (LPUSH). */
  unshift(v: string): void {
    if (this.len === this.buf.length) this.grow();
    this.head = (this.head - 1) & (this.buf.length - 1);
    this.buf[this.head] = v;
    this.len++;
  }

  shift(): string | undefined {
    if (this.len === 0) return undefined;
    const v = this.buf[this.head];
    this.buf[this.head] = undefined; // let the string be collected
    this.head = (this.head + 1) & (this.buf.length - 1);
    this.len--;
    this.maybeShrink();
    return v;
  }

  pop(): string | undefined {
    if (this.len === 0) return undefined;
    const i = (this.head + this.len - 1) & (this.buf.length - 1);
    const v = this.buf[i];
    this.buf[i] = undefined;
    this.len--;
    this.maybeShrink();
    return v;
  }

  /** Halves the buffer when it is mostly empty, so a drained queue gives its memory back. */
  private maybeShrink(): void {
    const cap = this.buf.length;
    if (cap <= 64 || this.len > cap >> 2) return;
    const next = new Array<string | undefined>(cap >> 1);
    for (let i = 0; i < this.len; i++) next[i] = this.buf[(this.head + i) & (cap - 1)];
    this.buf = next;
    this.head = 0;
  }

  /** Element at index 0..length-1, or undefined. */
  at(i: number): string | undefined {
    if (i < 0 || i >= this.len) return undefined;
    return this.buf[(this.head + i) & (this.buf.length - 1)];
  }

  set(i: number, v: string): void {
    this.buf[(this.head + i) & (this.buf.length - 1)] = v;
  }

  /** Elements [from, to) as an array. */
  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.len); i++) out.push(this.at(i)!);
    return out;
  }

  toArray(): string[] {
    return this.slice(0, this.len);
  }

  /** Replaces the whole content (LTRIM, LREM rebuild the list in one pass). */
  replace(items: string[]): void {
    let cap = 8;
    while (cap < items.length) cap *= 2;
    this.buf = new Array<string | undefined>(cap);
    for (let i = 0; i < items.length; i++) this.buf[i] = items[i];
    this.head = 0;
    this.len = items.length;
  }
}
