// Translating between the engine's state and journal/snapshot records.
import * as BSON from 'bson';
import { Binary, BSONRegExp, Double, Long, ObjectId } from 'bson';
import type { Collection, Rows, Version } from './collection.ts';
import type { Engine } from './engine.ts';
import type { IndexSpec } from './indexes.ts';
import { fastLayout } from './kept-form.ts';
import { fromWire, fromWireDoc, isPlainObject, objectIdKey, plainDoc, toPlain, valueKey } from './values.ts';
import type { Doc } from './values.ts';

const SESSION_TTL_MS = 30 * 60_000;

export function replay(engine: Engine, records: Doc[], progress?: (ops: number) => void): number {
  let applied = 0;
  for (const rec of records) {
    const ts = Number(toPlain(fromWire(rec['ts'])) ?? 0);
    if (ts > engine.clock) engine.clock = ts;
    for (const op of (rec['ops'] as Doc[] | undefined) ?? []) {
      applyOp(engine, fromWireDoc(op));
      applied++;
    }
    progress?.(applied);
  }
  return applied;
}


/**
 * Loads snapshot records into an empty engine. A snapshot holds each document once, so the
 * documents of a collection are gathered and installed in bulk (indexes built in one pass each);
 * anything else is applied as in a replay, after the documents gathered so far.
 */
export function loadSnapshot(engine: Engine, records: Iterable<Doc>, progress?: (ops: number) => void): number {
  const pending = new Map<Collection, Rows>();
  /** Index orders stored after a collection's documents (positions in its rows). */
  const orders = new Map<Collection, Map<string, Uint32Array>>();
  const flush = (): void => {
    for (const [coll, rows] of pending) {
      coll.bulkLoad(rows, engine.clock, orders.get(coll));
      progress?.(applied);
    }
    pending.clear();
    orders.clear();
  };
  let applied = 0;
  for (const rec of records) {
    progress?.(applied);
    const ts = Number(toPlain(fromWire(rec['ts'])) ?? 0);
    if (ts > engine.clock) engine.clock = ts;
    for (const op of (rec['ops'] as Doc[] | undefined) ?? []) {
      applied++;
      if (op['k'] === 'order') {
        const coll = engine.collection(String(op['d']), String(op['c']));
        if (!coll || !pending.has(coll)) continue;
        let m = orders.get(coll);
        if (!m) orders.set(coll, (m = new Map()));
        const bytes = (op['b'] as Binary).value();
        // Copied: a Uint32Array view needs 4-byte alignment.
        m.set(String(op['n']), new Uint32Array(new Uint8Array(bytes).buffer, 0, bytes.byteLength >> 2));
        continue;
      }
      if (op['k'] !== 'put' && op['k'] !== 'docs') {
        flush();
        applyOp(engine, fromWireDoc(op));
        continue;
      }
      const coll = engine.applyCreate(String(op['d']), String(op['c']), {});
      let rows = pending.get(coll);
      if (!rows) pending.set(coll, (rows = { ids: [], docs: [], plains: [] }));
      if (op['k'] === 'docs') {
        applied += readDocs(op, rows) - 1;
        continue;
      }
      addRow(rows, fromWire(op['doc']) as Doc);
    }
  }
  flush();
  return applied;
}

/**
 * A snapshot batch: documents as concatenated BSON. A batch marked `plain` holds no int64, no
 * integral double and no regex, so bson's own conversion (int32 and double to JS numbers) already
 * gives the internal model and the document is its own plain twin: no second pass over it.
 */
function readDocs(op: Doc, rows: Rows): number {
  const bytes = (op['b'] as Binary).value();
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  for (let off = 0; off < buf.length; n++) off += buf.readInt32LE(off);
  if (op['plain'] === true) {
    // One bson call for the whole batch (no per-document options, views or buffer conversion).
    const at = rows.docs.length;
    BSON.deserializeStream(buf, 0, n, rows.docs, at, {});
    for (let i = at; i < at + n; i++) {
      const doc = fastLayout(rows.docs[i]!);
      rows.docs[i] = doc;
      const id = doc['_id'];
      rows.ids.push(id instanceof ObjectId ? objectIdKey(id) : valueKey(id));
      rows.plains.push(doc);
    }
    return n;
  }
  for (let off = 0; off < buf.length; ) {
    const len = buf.readInt32LE(off);
    addRow(rows, fromWireDoc(BSON.deserialize(buf.subarray(off, off + len), { promoteValues: false })));
    off += len;
  }
  return n;
}

/** A loaded document and its plain twin, each in the fast layout (kept-form.ts). */
function addRow(rows: Rows, decoded: Doc): void {
  const doc = fastLayout(decoded);
  const plain = plainDoc(doc);
  rows.ids.push(valueKey(doc['_id']));
  rows.docs.push(doc);
  rows.plains.push(plain === doc ? doc : fastLayout(plain));
}

/** True when bson's default decoding of the document gives back exactly this document. */
function decodesAsIs(v: unknown): boolean {
  if (v instanceof Long || v instanceof Double || v instanceof RegExp || v instanceof BSONRegExp) return false;
  if (Array.isArray(v)) return v.every(decodesAsIs);
  if (isPlainObject(v)) {
    for (const k in v) if (!decodesAsIs(v[k])) return false;
  }
  return true;
}

/** Applies one journal/snapshot operation, already converted by fromWireDoc. */
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
      const doc = op['doc'] as Doc;
      const kept = coll.form.keepPair(doc, plainDoc(doc));
      coll.install(valueKey(doc['_id']), engine.clock, kept.doc, kept.plain, false);
      return;
    }
    case 'del': {
      const coll = engine.collection(d, c);
      if (coll) coll.install(valueKey(op['id']), engine.clock, null, null, false);
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

/** A consistent view of the committed state being written out as a snapshot. */
export interface DumpSource {
  /** Snapshot records; `undefined` marks a point where the writer may yield to other clients. */
  records: Iterable<Doc | undefined>;
  /** Releases the view (the versions it kept alive); call once, when done or failed. */
  end(): void;
}

/**
 * The committed state as of now, as snapshot records produced later, a few documents at a time,
 * while clients keep committing. Synchronously it only registers an open snapshot at the current
 * timestamp (so every commit meanwhile keeps the versions it replaces) and copies each
 * collection's ids in `_id` order, its options and index specs; documents are read through the
 * version chains as of that timestamp.
 */
export function beginDump(engine: Engine): DumpSource {
  const ts = engine.clock;
  const reader = engine.begin(true, ts);
  const colls: DumpColl[] = [];
  for (const [db, m] of engine.dbs) {
    for (const coll of m.values()) {
      const ops: Doc[] = [{ k: 'createColl', d: db, c: coll.name, o: coll.options }];
      const orders: Array<{ name: string; ids: string[][] }> = [];
      for (const ix of coll.indexes) {
        ops.push({ k: 'createIdx', d: db, c: coll.name, spec: ix.spec });
        // One key per document: its order can be stored, so a load lays it out without sorting.
        if (ix.multikeyDocs === 0 && ix.ordered.size === coll.idIndex.ordered.size) orders.push({ name: ix.name, ids: ix.ordered.copyIds() });
      }
      colls.push({ db, coll, ops, ids: coll.idIndex.ordered.copyIds(), orders });
    }
  }
  const now = Date.now();
  const sessions: Doc[] = [];
  for (const [s, r] of engine.sessions) {
    if (now - r.lastUse > SESSION_TTL_MS) continue;
    sessions.push(sessionOp(s, r.txnNumber, r.response, r.committed));
  }
  let ended = false;
  return {
    records: dumpRecords(ts, colls, sessions),
    end: () => {
      if (ended) return;
      ended = true;
      engine.abort(reader);
    },
  };
}

/** The ids of an index's entries copied block by block at the dump's instant, in order. */
function* idsOf(blocks: string[][]): Generator<string> {
  for (const b of blocks) yield* b;
}

interface DumpColl {
  db: string;
  coll: Collection;
  ops: Doc[];
  /** Ids in _id order at the dump's timestamp. */
  ids: string[][];
  /** Secondary indexes with one key per document: their ids in index order. */
  orders: Array<{ name: string; ids: string[][] }>;
}

function* dumpRecords(ts: number, colls: DumpColl[], sessions: Doc[]): Generator<Doc | undefined> {
  for (const { db, coll, ops, ids, orders } of colls) {
    yield { ts, ops };
    // Documents in batches of concatenated BSON, those bson decodes as they are apart from the rest.
    const batches = { plain: [] as Uint8Array[], typed: [] as Uint8Array[] };
    // Each document's position among the rows a load will gather, for the stored index orders:
    // kept on the version written (one snapshot is written at a time) instead of in a map from
    // id to position, whose million inserts were a fifth of a 1M-document snapshot's time.
    const track = orders.length > 0;
    const batchVersions = { plain: [] as Version[], typed: [] as Version[] };
    const batchIds = { plain: [] as string[], typed: [] as string[] };
    let written = 0;
    const emit = (kind: 'plain' | 'typed'): Doc => {
      const b = new Binary(Buffer.concat(batches[kind]));
      batches[kind] = [];
      const vs = batchVersions[kind];
      const vids = batchIds[kind];
      for (let k = 0; k < vs.length; k++) coll.heads.setPos(vids[k]!, vs[k]!, written++);
      batchVersions[kind] = [];
      batchIds[kind] = [];
      return { ts, ops: [{ k: 'docs', d: db, c: coll.name, plain: kind === 'plain', b }] };
    };
    // In _id order, so loading lays out the _id index without sorting.
    let i = 0;
    for (const id of idsOf(ids)) {
      if ((++i & 63) === 0) yield undefined;
      const v = coll.at(id, ts);
      if (!v?.doc) continue;
      const kind = v.plain === v.doc && decodesAsIs(v.doc) ? 'plain' : 'typed';
      batches[kind].push(BSON.serialize(v.doc, { ignoreUndefined: true }));
      if (track) {
        batchVersions[kind].push(v);
        batchIds[kind].push(id);
      }
      if (batches[kind].length >= 1000) yield emit(kind);
    }
    if (batches.plain.length) yield emit('plain');
    if (batches.typed.length) yield emit('typed');
    if (!track) continue;
    for (const o of orders) {
      // Past 3,000,000 documents the record would near the 16 MB BSON limit: such an index is sorted at load.
      if (written > 3_000_000) continue;
      const perm = new Uint32Array(written);
      const seen = new Uint8Array(written);
      let j = 0;
      let ok = true;
      for (const id of idsOf(o.ids)) {
        if ((j & 4095) === 4095) yield undefined;
        const pos = coll.at(id, ts)?.pos;
        // Every id of the index at the dump's instant was written above; anything else (which a
        // load would also refuse) leaves this index to be sorted at load.
        if (pos === undefined || pos >= written || seen[pos] || j >= written) {
          ok = false;
          break;
        }
        seen[pos] = 1;
        perm[j++] = pos;
      }
      ok &&= j === written;
      if (ok) yield { ts, ops: [{ k: 'order', d: db, c: coll.name, n: o.name, b: new Binary(new Uint8Array(perm.buffer)) }] };
    }
  }
  if (sessions.length) yield { ts, ops: sessions };
}

export function sessionOp(sid: string, txnNumber: number, response: Doc | undefined, committed?: boolean): Doc {
  const op: Doc = { k: 'ses', s: sid, n: txnNumber };
  if (response) op['r'] = response;
  if (committed) op['cm'] = true;
  return op;
}
