// Sorted set: a member→score map plus an array kept ordered by (score, member). Inserts are
// O(n) array splices, which is fine for the product's sizes (rate-limit windows, leaderboards of
// hundreds) and keeps rank/range queries trivially correct.

export interface ZItem {
  m: string;
  s: number;
}

function cmp(as: number, am: string, bs: number, bm: string): number {
  if (as < bs) return -1;
  if (as > bs) return 1;
  return am < bm ? -1 : am > bm ? 1 : 0;
}

export class SortedSet {
  readonly dict = new Map<string, number>();
  readonly items: ZItem[] = [];

  get size(): number {
    return this.items.length;
  }

  /** Index of the first item not less than (s, m). */
  private lower(s: number, m: string): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const it = this.items[mid]!;
      if (cmp(it.s, it.m, s, m) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  set(m: string, s: number): void {
    const old = this.dict.get(m);
    if (old !== undefined) {
      if (old === s) return;
      this.items.splice(this.lower(old, m), 1);
    }
    this.dict.set(m, s);
    this.items.splice(this.lower(s, m), 0, { m, s });
  }

  delete(m: string): boolean {
    const old = this.dict.get(m);
    if (old === undefined) return false;
    this.items.splice(this.lower(old, m), 1);
    this.dict.delete(m);
    return true;
  }

  rank(m: string): number | undefined {
    const s = this.dict.get(m);
    return s === undefined ? undefined : this.lower(s, m);
  }

  /** First index whose score is > min (exclusive) or >= min. */
  firstInScore(min: number, exclusive: boolean): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.items[mid]!.s;
      if (exclusive ? s <= min : s < min) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** One past the last index whose score is < max (exclusive) or <= max. */
  endInScore(max: number, exclusive: boolean): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.items[mid]!.s;
      if (exclusive ? s < max : s <= max) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  removeRange(from: number, to: number): ZItem[] {
    const removed = this.items.splice(from, Math.max(0, to - from));
    for (const it of removed) this.dict.delete(it.m);
    return removed;
  }
}
