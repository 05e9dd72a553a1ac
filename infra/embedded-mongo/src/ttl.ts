// TTL indexes: like the server's TTL monitor, periodically delete documents whose indexed date
// (or earliest date in an array) is older than expireAfterSeconds. Each pass reads the TTL index
// from its oldest date up to the first one not yet expired, so it costs what it deletes, not what
// the collection holds (a walk of every document had cost an idle server ~1 s a minute at a
// million outbox records); and like the server it deletes only documents the index holds (a
// partial TTL index leaves the others alone).
import type { Engine } from './engine.ts';
import { LockWait } from './errors.ts';
import type { Index } from './indexes.ts';
import { compareValues, TypeEdge } from './keyorder.ts';

/** Below every date in the server's order of values (dates are type rank 10). */
const FIRST_DATE = new TypeEdge(10, false);
const fromFirstDate = (e: unknown[]): boolean => compareValues(e[0], FIRST_DATE) >= 0;

/** Ids of the documents whose date (any date of an array) in `ix` is at or before `cutoff`. */
function expiredIds(ix: Index, cutoff: number): Set<string> {
  const ids = new Set<string>();
  // Ascending, the dates follow the lower types: forward from the first one. Descending, they come
  // first and newest first: backwards from the oldest.
  for (const e of ix.ordered.scan(fromFirstDate, ix.dirs[0] === -1)) {
    const at = e[0];
    if (!(at instanceof Date) || at.getTime() > cutoff) break;
    ids.add(ix.entryId(e));
  }
  return ids;
}

/** Deletes expired documents; returns how many. Documents locked by open transactions wait for the next pass. */
export async function expireTtl(engine: Engine, now = Date.now()): Promise<number> {
  let deleted = 0;
  const pending: Promise<void>[] = [];
  for (const colls of engine.dbs.values()) {
    for (const coll of colls.values()) {
      const ids = new Set<string>();
      for (const ix of coll.indexes) {
        const seconds = ix.spec.expireAfterSeconds;
        if (typeof seconds !== 'number' || ix.fields.length !== 1) continue;
        for (const id of expiredIds(ix, now - seconds * 1000)) ids.add(id);
      }
      if (ids.size === 0) continue;
      const txn = engine.begin(false);
      for (const id of ids) {
        if (!coll.latest(id)) continue;
        try {
          engine.remove(txn, coll, id);
          deleted++;
        } catch (e) {
          if (!(e instanceof LockWait)) throw e;
        }
      }
      pending.push(engine.commit(txn));
    }
  }
  await Promise.all(pending);
  return deleted;
}
