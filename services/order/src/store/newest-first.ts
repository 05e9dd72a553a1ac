import type { Model } from 'mongoose';
import { idBucketOf } from './models.ts';

export type Paging = { page: number; pageSize: number };
export type Page<T> = { items: T[]; page: number; pageSize: number; hasNext: boolean };

/** Buckets read per step: the newest 8 (800 ids), then the 64 before, then 512; then the plain query. */
const windows = [8, 64, 512];
/** Pages this deep read the plain way: windows pay off for the first pages members open. */
const maxWindowRows = 2_000;

/**
 * One page of `filter`'s documents, newest (highest id) first, fetching pageSize + 1 to know
 * hasNext without counting.
 *
 * Ids come from one increasing sequence and every document carries its id bucket (a range of 100
 * ids). Instead of sorting all of a member's rows (50,000 for a busy reseller), the page is read
 * from the newest buckets down — 8, then 64, then 512 buckets at a time, each an equality lookup on
 * the index {…filter, idBucket} — until enough rows are in hand: every row not yet read has a
 * smaller id than every row read, so the first `skip + pageSize + 1` rows read are exactly the
 * page. Members with few or old orders fall back to the plain query, which is then cheap. MongoDB
 * itself would answer the plain query from the {…, _id: -1} index end; the embedded server serves
 * only equality from indexes and sorts in memory, which is what this is for.
 */
export async function newestFirst<T extends { _id: number }, V>(
  model: Model<T>,
  filter: Record<string, unknown>,
  paging: Paging,
  lastId: number,
  view: (doc: T) => V,
): Promise<Page<V>> {
  const skip = (paging.page - 1) * paging.pageSize;
  const need = skip + paging.pageSize + 1;
  let docs: T[] | undefined;
  if (need <= maxWindowRows) {
    const found: T[] = [];
    let high = idBucketOf(lastId);
    for (const width of windows) {
      if (high < 0 || found.length >= need) break;
      const low = Math.max(0, high - width + 1);
      const buckets = Array.from({ length: high - low + 1 }, (_, i) => high - i);
      // Rows to skip are only counted: their ids are enough.
      const rows = await model
        .find({ ...filter, idBucket: { $in: buckets } }, skip === 0 ? undefined : { _id: 1 })
        .sort({ _id: -1 })
        .limit(need - found.length)
        .lean<T[]>();
      found.push(...rows);
      high = low - 1;
    }
    // Complete when enough rows were read, or every bucket was.
    if (found.length >= need || high < 0) {
      const page = found.slice(skip, need);
      docs = skip === 0 || page.length === 0 ? page : await model.find({ _id: { $in: page.map((d) => d._id) } }).sort({ _id: -1 }).lean<T[]>();
    }
  }
  docs ??= await model.find(filter).sort({ _id: -1 }).skip(skip).limit(paging.pageSize + 1).lean<T[]>();
  return { items: docs.slice(0, paging.pageSize).map(view), page: paging.page, pageSize: paging.pageSize, hasNext: docs.length > paging.pageSize };
}
