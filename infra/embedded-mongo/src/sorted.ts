// An ordered multiset of fixed-width tuples (an index's key values followed by the document id) in
// blocks of a few hundred: O(log n) search, inserts and deletes move at most one block, and a scan
// can resume after any entry even when the set changed meanwhile (long scans yield to other clients
// between chunks).
//
// A block keeps its tuples column by column (one array per position of the tuple), so an entry
// costs one pointer per value and nothing else: as an array of its own, each entry was a 32-byte
// array object plus a 16-byte header and its values (64–72 bytes for one or two key fields), about
// 270 bytes per document with three secondary indexes and the _id index. Tuples are made only
// when a scan hands one out; comparisons during a search read a block position through a scratch
// tuple that is refilled on every use.
const MAX_BLOCK = 512;

/** One tuple: the key values in index order, then the document id. */
export type Tuple = unknown[];

/** A block: `cols[c][i]` is value c of the block's i-th tuple. */
type Block = unknown[][];

export class SortedBlocks {
  private blocks: Block[] = [];
  size = 0;
  /** Bumped by every change, so a scan knows when its position must be found again. */
  private version = 0;
  /** Reused to compare a block position without making a tuple (never handed out). */
  private readonly scratch: Tuple;

  constructor(
    readonly width: number,
    private readonly cmp: (a: Tuple, b: Tuple) => number,
  ) {
    this.scratch = new Array<unknown>(width);
  }

  private static len(b: Block): number {
    return b[0]!.length;
  }

  /** The scratch tuple filled with the tuple at position i of a block. */
  private view(b: Block, i: number): Tuple {
    const s = this.scratch;
    for (let c = 0; c < this.width; c++) s[c] = b[c]![i];
    return s;
  }

  /** A new tuple holding the one at position i of a block. */
  private tuple(b: Block, i: number): Tuple {
    const t = new Array<unknown>(this.width);
    for (let c = 0; c < this.width; c++) t[c] = b[c]![i];
    return t;
  }

  private newBlock(): Block {
    return Array.from({ length: this.width }, () => [] as unknown[]);
  }

  /** Index of the first block whose last entry passes `test`, or blocks.length. */
  private blockFor(test: (last: Tuple) => boolean): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = this.blocks[mid]!;
      if (test(this.view(b, SortedBlocks.len(b) - 1))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** First position of a block that passes `test` (monotone), or its length. */
  private within(b: Block, test: (x: Tuple) => boolean): number {
    let lo = 0;
    let hi = SortedBlocks.len(b);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (test(this.view(b, mid))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Block and position of the first entry >= x (x goes there); no closures on this hot path. */
  private locate(x: Tuple): [number, number] {
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = blocks[mid]!;
      if (this.cmp(this.view(b, SortedBlocks.len(b) - 1), x) >= 0) hi = mid;
      else lo = mid + 1;
    }
    const block = blocks[lo];
    if (!block) return [lo, 0];
    let l = 0;
    let h = SortedBlocks.len(block);
    while (l < h) {
      const mid = (l + h) >> 1;
      if (this.cmp(this.view(block, mid), x) >= 0) h = mid;
      else l = mid + 1;
    }
    return [lo, l];
  }

  insert(x: Tuple): void {
    this.size++;
    this.version++;
    if (this.blocks.length === 0) {
      const b = this.newBlock();
      for (let c = 0; c < this.width; c++) b[c]!.push(x[c]);
      this.blocks.push(b);
      return;
    }
    let [bi, i] = this.locate(x);
    if (bi === this.blocks.length) {
      bi--;
      i = SortedBlocks.len(this.blocks[bi]!);
    }
    const block = this.blocks[bi]!;
    const n = SortedBlocks.len(block);
    for (let c = 0; c < this.width; c++) {
      if (i === n) block[c]!.push(x[c]);
      else block[c]!.splice(i, 0, x[c]);
    }
    if (n + 1 > MAX_BLOCK) {
      const half = MAX_BLOCK >> 1;
      this.blocks.splice(
        bi + 1,
        0,
        block.map((col) => col.splice(half)),
      );
    }
  }

  /** Removes one entry equal to x; false when absent. */
  delete(x: Tuple): boolean {
    const [bi, i] = this.locate(x);
    const block = this.blocks[bi];
    if (!block || i >= SortedBlocks.len(block) || this.cmp(this.view(block, i), x) !== 0) return false;
    for (let c = 0; c < this.width; c++) block[c]!.splice(i, 1);
    if (SortedBlocks.len(block) === 0) this.blocks.splice(bi, 1);
    this.size--;
    this.version++;
    return true;
  }

  /**
   * Replaces the contents with entries already in order (a bulk build at load): blocks are cut
   * three quarters full, so later inserts rarely split, in O(n) instead of n binary-search inserts.
   */
  load(sorted: Tuple[]): void {
    const per = (MAX_BLOCK * 3) >> 2;
    this.blocks = [];
    for (let i = 0; i < sorted.length; i += per) {
      const end = Math.min(sorted.length, i + per);
      const b: Block = [];
      for (let c = 0; c < this.width; c++) {
        const col = new Array<unknown>(end - i);
        for (let j = i; j < end; j++) col[j - i] = sorted[j]![c];
        b.push(col);
      }
      this.blocks.push(b);
    }
    this.size = sorted.length;
    this.version++;
  }

  /** Every entry in ascending order (no re-seeking: the set must not change meanwhile). */
  *all(): Generator<Tuple> {
    for (const b of this.blocks) for (let i = 0; i < SortedBlocks.len(b); i++) yield this.tuple(b, i);
  }

  /**
   * The document ids (the last value of each tuple) in ascending order, as a copy (later changes
   * leave it alone): copies of a few hundred pointers per block, so a million entries take about a
   * millisecond.
   */
  copyIds(): string[][] {
    return this.blocks.map((b) => b[this.width - 1]!.slice() as string[]);
  }

  get cmpFn(): (a: Tuple, b: Tuple) => number {
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
   * (reversed: true then false) and must not keep the tuple it is given. Each step re-seeks after
   * the previous entry, so the set may change between steps. The tuples handed out are new.
   */
  *scan(start: (x: Tuple) => boolean, reverse: boolean): Generator<Tuple> {
    let last: Tuple | undefined;
    let bi = -1;
    let i = -1;
    let seen = -1;
    for (;;) {
      if (last !== undefined && seen === this.version) {
        // Nothing changed since the previous step: the next entry is beside it.
        if (!reverse) {
          i++;
          if (i >= SortedBlocks.len(this.blocks[bi]!)) {
            bi++;
            i = 0;
          }
        } else {
          i--;
          if (i < 0) {
            bi--;
            i = bi >= 0 ? SortedBlocks.len(this.blocks[bi]!) - 1 : -1;
          }
        }
      } else if (!reverse) {
        const prev = last;
        const test = prev === undefined ? start : (y: Tuple): boolean => this.cmp(y, prev) > 0;
        bi = this.blockFor(test);
        i = bi < this.blocks.length ? this.within(this.blocks[bi]!, test) : 0;
      } else {
        // The last entry for which `keep` holds (keep is true then false, ascending).
        const prev = last;
        const keep = prev === undefined ? start : (y: Tuple): boolean => this.cmp(y, prev) < 0;
        const notKeep = (y: Tuple): boolean => !keep(y);
        bi = this.blockFor(notKeep);
        i = bi < this.blocks.length ? this.within(this.blocks[bi]!, notKeep) - 1 : -1;
        if (i < 0) {
          bi--;
          i = bi >= 0 ? SortedBlocks.len(this.blocks[bi]!) - 1 : -1;
        }
      }
      const b = bi >= 0 ? this.blocks[bi] : undefined;
      if (b === undefined || i < 0 || i >= SortedBlocks.len(b)) return;
      const next = this.tuple(b, i);
      last = next;
      seen = this.version;
      yield next;
    }
  }
}
