// An ordered multiset in blocks of a few hundred entries: O(log n) search, inserts and deletes move
// at most one block, and a scan can resume after any entry even when the set changed meanwhile
// (long scans yield to other clients between chunks).
const MAX_BLOCK = 512;

export class SortedBlocks<T> {
  private blocks: T[][] = [];
  size = 0;
  /** Bumped by every change, so a scan knows when its position must be found again. */
  private version = 0;

  constructor(private readonly cmp: (a: T, b: T) => number) {}

  /** Index of the first block whose last entry is >= x (by `test`), or blocks.length. */
  private blockFor(test: (last: T) => boolean): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = this.blocks[mid]!;
      if (test(b[b.length - 1]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private static within<T>(block: T[], test: (x: T) => boolean): number {
    let lo = 0;
    let hi = block.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (test(block[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Block and position of the first entry >= x (x goes there); no closures on this hot path. */
  private locate(x: T): [number, number] {
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = blocks[mid]!;
      if (this.cmp(b[b.length - 1]!, x) >= 0) hi = mid;
      else lo = mid + 1;
    }
    const block = blocks[lo];
    if (!block) return [lo, 0];
    let l = 0;
    let h = block.length;
    while (l < h) {
      const mid = (l + h) >> 1;
      if (this.cmp(block[mid]!, x) >= 0) h = mid;
      else l = mid + 1;
    }
    return [lo, l];
  }

  insert(x: T): void {
    this.size++;
    this.version++;
    if (this.blocks.length === 0) {
      this.blocks.push([x]);
      return;
    }
    let [bi, i] = this.locate(x);
    if (bi === this.blocks.length) {
      bi--;
      i = this.blocks[bi]!.length;
    }
    const block = this.blocks[bi]!;
    if (i === block.length) block.push(x);
    else block.splice(i, 0, x);
    if (block.length > MAX_BLOCK) this.blocks.splice(bi + 1, 0, block.splice(MAX_BLOCK >> 1));
  }

  /** Removes one entry equal to x; false when absent. */
  delete(x: T): boolean {
    const [bi, i] = this.locate(x);
    const block = this.blocks[bi];
    if (!block || i >= block.length || this.cmp(block[i]!, x) !== 0) return false;
    block.splice(i, 1);
    if (block.length === 0) this.blocks.splice(bi, 1);
    this.size--;
    this.version++;
    return true;
  }

  /**
   * Replaces the contents with entries already in order (a bulk build at load): blocks are cut
   * three quarters full, so later inserts rarely split, in O(n) instead of n binary-search inserts.
   */
  load(sorted: T[]): void {
    const per = (MAX_BLOCK * 3) >> 2;
    this.blocks = [];
    for (let i = 0; i < sorted.length; i += per) this.blocks.push(sorted.slice(i, i + per));
    this.size = sorted.length;
    this.version++;
  }

  /** Every entry in ascending order (no re-seeking: the set must not change meanwhile). */
  *all(): Generator<T> {
    for (const block of this.blocks) yield* block;
  }

  /**
   * The entries in ascending order as a copy of the blocks (later changes leave it alone): copies
   * of a few hundred pointers each, so a million entries take about a millisecond.
   */
  copyBlocks(): T[][] {
    return this.blocks.map((b) => b.slice());
  }

  get cmpFn(): (a: T, b: T) => number {
    return this.cmp;
  }

  clear(): void {
    this.blocks = [];
    this.size = 0;
    this.version++;
  }

  /**
   * Entries from the first one for which `start` holds, ascending (or, reversed, from the last one
   * for which `start` holds, descending). `start` must be monotone: false then true ascending
   * (reversed: true then false). Each step re-seeks after the previous entry, so the set may change
   * between steps.
   */
  *scan(start: (x: T) => boolean, reverse: boolean): Generator<T> {
    let last: T | undefined;
    let bi = -1;
    let i = -1;
    let seen = -1;
    for (;;) {
      if (last !== undefined && seen === this.version) {
        // Nothing changed since the previous step: the next entry is beside it.
        if (!reverse) {
          i++;
          if (i >= this.blocks[bi]!.length) {
            bi++;
            i = 0;
          }
        } else {
          i--;
          if (i < 0) {
            bi--;
            i = bi >= 0 ? this.blocks[bi]!.length - 1 : -1;
          }
        }
      } else if (!reverse) {
        const test = last === undefined ? start : (y: T): boolean => this.cmp(y, last!) > 0;
        bi = this.blockFor(test);
        i = bi < this.blocks.length ? SortedBlocks.within(this.blocks[bi]!, test) : 0;
      } else {
        // The last entry for which `keep` holds (keep is true then false, ascending).
        const keep = last === undefined ? start : (y: T): boolean => this.cmp(y, last!) < 0;
        const notKeep = (y: T): boolean => !keep(y);
        bi = this.blockFor(notKeep);
        i = bi < this.blocks.length ? SortedBlocks.within(this.blocks[bi]!, notKeep) - 1 : -1;
        if (i < 0) {
          bi--;
          i = bi >= 0 ? this.blocks[bi]!.length - 1 : -1;
        }
      }
      const next = bi >= 0 ? this.blocks[bi]?.[i] : undefined;
      if (next === undefined) return;
      last = next;
      seen = this.version;
      yield next;
    }
  }
}
