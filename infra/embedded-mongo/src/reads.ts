// Reads: running a plan over a collection, synchronously for writes, or in ~1 ms slices that let
// other clients in between (long scans), on a snapshot so commits landing meanwhile are not half-seen.
import type { Collection } from './collection.ts';
import type { Engine, Visible } from './engine.ts';
import { Codes, MongoError, badValue } from './errors.ts';
import { choosePlan } from './planner.ts';
import type { Plan } from './planner.ts';
import { compileFilter, sortVisible } from './query.ts';
import type { Matcher } from './query.ts';
import { sliceMs, startSliced, yieldTurn } from './slices.ts';
import { Txn } from './txn.ts';
import { toPlain } from './values.ts';
import type { Doc } from './values.ts';

export interface ReadOutcome {
  rows: Visible[];
  /** True when rows are already in the requested sort order. */
  sorted: boolean;
  plan: Plan;
  docsExamined: number;
}


/**
 * The work of a read, as a generator that pauses every few hundred documents so an async driver
 * can yield to other clients. Candidates come from the plan; documents changed since the reader's
 * snapshot (or written by its own transaction) are examined last, because their indexed keys may
 * not be the ones the reader sees. Returns whether the rows are still in plan order.
 */
function* scan(engine: Engine, txn: Txn | null, coll: Collection, q: Matcher, plan: Plan, limit: number, out: ReadOutcome): Generator<void, boolean> {
  const ws = txn?.writes.get(coll);
  const snap = txn?.explicit ? txn.snapTs : undefined;
  let n = 0;
  const test = (id: string, v: { doc: Doc | null; plain: Doc | null }): void => {
    out.docsExamined++;
    if (v.doc && v.plain && q.test(v.plain)) out.rows.push({ id, doc: v.doc, plain: v.plain });
  };
  if (!plan.ids) {
    for (const id of coll.heads.keys()) {
      if (out.rows.length >= limit) break;
      const v = engine.peek(txn, coll, id);
      if (v) test(id, v);
      if ((++n & 127) === 0) yield;
    }
    if (ws) for (const [id, e] of ws) if (out.rows.length < limit && !coll.heads.has(id) && e.doc && e.plain) test(id, e);
    return false;
  }
  const changed = (id: string): boolean => ws?.has(id) === true || (snap !== undefined && (coll.heads.get(id)?.ts ?? 0) > snap);
  const seen = new Set<string>();
  const done = new Set<string>();
  if (limit > 0) {
    for (const id of plan.ids()) {
      if ((++n & 127) === 0) yield;
      if (seen.has(id)) continue;
      seen.add(id);
      if (changed(id)) continue;
      done.add(id);
      const v = engine.peek(txn, coll, id);
      if (v) test(id, v);
      if (out.rows.length >= limit) break;
    }
  }
  const late = new Set<string>();
  if (plan.stage === 'IDHACK') {
    // An _id lookup's candidates are its ids, whatever the index holds: a document changed under
    // another id cannot match, so only its own changed ids are left (not every write of the
    // transaction — a bulk of N updates by _id examined 1 + 2 + … + N documents).
    for (const id of seen) if (changed(id)) late.add(id);
  } else {
    if (ws) for (const id of ws.keys()) late.add(id);
    if (snap !== undefined) for (const id of coll.history) if ((coll.heads.get(id)?.ts ?? 0) > snap) late.add(id);
  }
  let inOrder = true;
  for (const id of late) {
    if (done.has(id)) continue;
    const v = engine.peek(txn, coll, id);
    if (!v) continue;
    const before = out.rows.length;
    test(id, v);
    if (out.rows.length > before) inOrder = false;
  }
  return inOrder;
}

function startRead(coll: Collection | undefined, filter: Doc, sort: Doc | undefined): { q: Matcher; plan: Plan | undefined } {
  const q = compileFilter(filter);
  const sortPlain = sort && Object.keys(sort).length > 0 ? (toPlain(sort) as Doc) : undefined;
  return { q, plan: coll ? choosePlan(coll, toPlain(filter) as Doc, sortPlain) : undefined };
}

/** An empty outcome to fill in; a collection that does not exist gets the EOF plan, as in the server's explain. */
function emptyOutcome(plan: Plan | undefined): ReadOutcome {
  return { rows: [], sorted: true, plan: plan ?? { stage: 'EOF', sorted: true, keysExamined: 0, describe: () => ({ stage: 'EOF' }) }, docsExamined: 0 };
}

function finish(engine: Engine, out: ReadOutcome, inOrder: boolean): ReadOutcome {
  out.sorted = out.plan.sorted && inOrder;
  engine.stats.scannedObjects += out.docsExamined;
  engine.stats.scannedKeys += out.plan.keysExamined;
  return out;
}

/**
 * Visible documents matching the filter, synchronously (writes: they must not interleave).
 * `limit` stops early; with `sort`, rows come sorted when the plan delivers that order.
 */
export function matchingPlanned(engine: Engine, txn: Txn | null, coll: Collection | undefined, filter: Doc, sort?: Doc, limit = Infinity): ReadOutcome {
  const { q, plan } = startRead(coll, filter, sort);
  const out = emptyOutcome(plan);
  if (!coll || !plan) return out;
  const wanted = sort && !plan.sorted ? Infinity : limit;
  try {
    const gen = scan(engine, txn, coll, q, plan, wanted, out);
    let r = gen.next();
    while (!r.done) r = gen.next();
    return finish(engine, out, r.value);
  } catch (e) {
    throw badValue((e as Error).message);
  }
}

/** Matching documents in `sort` order (index order when the plan gives it), at most `limit`. */
export function firstMatching(engine: Engine, txn: Txn | null, coll: Collection | undefined, filter: Doc, sort: Doc | undefined, limit: number): Visible[] {
  const r = matchingPlanned(engine, txn, coll, filter, sort, limit);
  return (r.sorted ? r.rows : sortVisible(r.rows, sort)).slice(0, limit);
}

/** Visible documents matching the filter, in natural order; stops after `limit` matches when given. */
export function matching(engine: Engine, txn: Txn | null, coll: Collection | undefined, filter: Doc, limit = Infinity): Visible[] {
  return matchingPlanned(engine, txn, coll, filter, undefined, limit).rows;
}

/**
 * A read that yields to other clients every few milliseconds. Outside a transaction it reads a
 * snapshot taken at its start (registered as an open snapshot only once it first yields, so short
 * reads cost nothing extra), so writes committed meanwhile are not half-seen.
 */
export async function readMatching(
  engine: Engine,
  txn: Txn | null,
  coll: Collection | undefined,
  filter: Doc,
  sort?: Doc,
  limit = Infinity,
  atTs?: number,
  deadline = Infinity,
): Promise<ReadOutcome> {
  if (txn && !txn.explicit) return matchingPlanned(engine, txn, coll, filter, sort, limit);
  const { q, plan } = startRead(coll, filter, sort);
  const out = emptyOutcome(plan);
  if (!coll || !plan) return out;
  const reader = txn ?? new Txn(atTs ?? engine.clock, true);
  let registered = false;
  // Counted among the long operations sharing each turn of the event loop once it first yields.
  let sliced: (() => void) | undefined;
  const wanted = sort && !plan.sorted ? Infinity : limit;
  try {
    const gen = scan(engine, reader, coll, q, plan, wanted, out);
    let sliceStart = performance.now();
    let budget = sliceMs();
    for (;;) {
      let r;
      try {
        r = gen.next();
      } catch (e) {
        throw badValue((e as Error).message);
      }
      if (r.done) return finish(engine, out, r.value);
      if (performance.now() - sliceStart > budget) {
        if (Date.now() > deadline) throw new MongoError(Codes.MaxTimeMSExpired, 'operation exceeded time limit');
        if (!txn && !registered) {
          engine.active.add(reader);
          registered = true;
        }
        sliced ??= startSliced();
        await yieldTurn();
        sliceStart = performance.now();
        budget = sliceMs();
      }
    }
  } finally {
    sliced?.();
    if (registered) engine.abort(reader);
  }
}

