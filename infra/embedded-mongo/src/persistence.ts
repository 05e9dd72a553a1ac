// Translating between the engine's state and journal/snapshot records.
import type { Engine } from './engine.ts';
import type { IndexSpec } from './indexes.ts';
import { fromWire, fromWireDoc, plainDoc, toPlain, valueKey } from './values.ts';
import type { Doc } from './values.ts';

const SESSION_TTL_MS = 30 * 60_000;

export function replay(engine: Engine, records: Doc[]): number {
  let applied = 0;
  for (const raw of records) {
    const rec = fromWireDoc(raw);
    const ts = Number(toPlain(rec['ts']) ?? 0);
    if (ts > engine.clock) engine.clock = ts;
    for (const op of (rec['ops'] as Doc[] | undefined) ?? []) {
      applyOp(engine, op);
      applied++;
    }
  }
  return applied;
}

function applyOp(engine: Engine, op: Doc): void {
  const d = String(op['d'] ?? '');
  const c = String(op['c'] ?? '');
  switch (op['k']) {
    case 'createColl':
      engine.applyCreate(d, c, (op['o'] as Doc | undefined) ?? {});
      return;
    case 'dropColl':
      engine.dbs.get(d)?.delete(c);
      return;
    case 'dropDb':
      engine.dbs.delete(d);
      return;
    case 'createIdx': {
      const coll = engine.applyCreate(d, c, {});
      const spec = toPlain(op['spec']) as IndexSpec;
      if (!coll.index(spec.name)) coll.addIndex(spec);
      return;
    }
    case 'dropIdx': {
      const coll = engine.collection(d, c);
      if (coll) {
        const i = coll.indexes.findIndex((x) => x.name === op['n']);
        if (i >= 0) coll.indexes.splice(i, 1);
      }
      return;
    }
    case 'put': {
      const coll = engine.applyCreate(d, c, {});
      const doc = fromWire(op['doc']) as Doc;
      coll.install(valueKey(doc['_id']), engine.clock, doc, plainDoc(doc), false);
      return;
    }
    case 'del': {
      const coll = engine.collection(d, c);
      if (coll) coll.install(valueKey(fromWire(op['id'])), engine.clock, null, null, false);
      return;
    }
    case 'ses': {
      const s = String(op['s']);
      const n = Number(toPlain(op['n']));
      const prev = engine.sessions.get(s);
      if (prev && prev.txnNumber > n) return;
      engine.sessions.set(s, {
        txnNumber: n,
        response: op['r'] as Doc | undefined,
        committed: op['cm'] === true,
        lastUse: Date.now(),
      });
      return;
    }
  }
}

/** Full committed state as snapshot records. */
export function* dump(engine: Engine): Iterable<Doc> {
  const ts = engine.clock;
  for (const [db, colls] of engine.dbs) {
    for (const coll of colls.values()) {
      const ops: Doc[] = [{ k: 'createColl', d: db, c: coll.name, o: coll.options }];
      for (const ix of coll.indexes) ops.push({ k: 'createIdx', d: db, c: coll.name, spec: ix.spec });
      yield { ts, ops };
      let batch: Doc[] = [];
      for (const v of coll.heads.values()) {
        if (!v.doc) continue;
        batch.push({ k: 'put', d: db, c: coll.name, doc: v.doc });
        if (batch.length >= 1000) {
          yield { ts, ops: batch };
          batch = [];
        }
      }
      if (batch.length) yield { ts, ops: batch };
    }
  }
  const now = Date.now();
  const ops: Doc[] = [];
  for (const [s, r] of engine.sessions) {
    if (now - r.lastUse > SESSION_TTL_MS) continue;
    ops.push(sessionOp(s, r.txnNumber, r.response, r.committed));
  }
  if (ops.length) yield { ts, ops };
}

export function sessionOp(sid: string, txnNumber: number, response: Doc | undefined, committed?: boolean): Doc {
  const op: Doc = { k: 'ses', s: sid, n: txnNumber };
  if (response) op['r'] = response;
  if (committed) op['cm'] = true;
  return op;
}
