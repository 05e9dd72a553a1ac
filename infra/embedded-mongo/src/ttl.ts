// TTL indexes: like the server's TTL monitor, periodically delete documents whose indexed date
// (or earliest date in an array) is older than expireAfterSeconds.
import type { Engine } from './engine.ts';
import { LockWait } from './errors.ts';
import { getPath } from './values.ts';

function expiry(v: unknown): number | undefined {
  if (v instanceof Date) return v.getTime();
  if (Array.isArray(v)) {
    const times = v.filter((x): x is Date => x instanceof Date).map((d) => d.getTime());
    return times.length ? Math.min(...times) : undefined;
  }
  return undefined;
}

/** Deletes expired documents; returns how many. Documents locked by open transactions wait for the next pass. */
export async function expireTtl(engine: Engine, now = Date.now()): Promise<number> {
  let deleted = 0;
  const pending: Promise<void>[] = [];
  for (const colls of engine.dbs.values()) {
    for (const coll of colls.values()) {
      const ttl = coll.indexes.filter((ix) => typeof ix.spec.expireAfterSeconds === 'number' && ix.fields.length === 1);
      if (ttl.length === 0) continue;
      const txn = engine.begin(false);
      for (const [id, v] of coll.heads) {
        if (!v.doc || !v.plain) continue;
        const expired = ttl.some((ix) => {
          const t = expiry(getPath(v.plain, ix.fields[0] ?? ''));
          return t !== undefined && t + Number(ix.spec.expireAfterSeconds) * 1000 <= now;
        });
        if (!expired) continue;
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
