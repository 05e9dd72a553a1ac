// Read commands: find, getMore, killCursors, aggregate, count, distinct.
import { Aggregator } from 'mingo';
import { Long } from 'bson';
import { Codes, MongoError, badValue } from '../errors.ts';
import { MINGO_OPTS, matching, project, sortVisible } from '../query.ts';
import { isPlainObject, valueKey, widenLargeInts } from '../values.ts';
import type { Doc } from '../values.ts';
import { collName, docArg, num } from './context.ts';
import type { Ctx, Handler } from './context.ts';

function cursorOpts(ctx: Ctx): { batchSize: number | undefined } {
  const c = ctx.cmd['cursor'];
  if (isPlainObject(c) && c['batchSize'] !== undefined) return { batchSize: num(c['batchSize'], 101) };
  return { batchSize: undefined };
}

const find: Handler = (ctx) => {
  const name = collName(ctx);
  const filter = docArg(ctx, 'filter') ?? {};
  const sort = docArg(ctx, 'sort');
  const projection = docArg(ctx, 'projection');
  const skip = num(ctx.cmd['skip'], 0);
  let limit = num(ctx.cmd['limit'], 0);
  let singleBatch = ctx.cmd['singleBatch'] === true;
  if (skip < 0) throw badValue('skip value must be non-negative');
  if (limit < 0) {
    limit = -limit;
    singleBatch = true;
  }
  const coll = ctx.engine.collection(ctx.db, name);
  const hasSort = sort !== undefined && Object.keys(sort).length > 0;
  let rows = sortVisible(matching(ctx.engine, ctx.txn, coll, filter, !hasSort && limit ? skip + limit : Infinity), sort);
  if (skip) rows = rows.slice(skip);
  if (limit) rows = rows.slice(0, limit);
  const docs = project(
    rows.map((r) => r.doc),
    projection,
  );
  const bs = ctx.cmd['batchSize'] === undefined ? undefined : num(ctx.cmd['batchSize'], 101);
  return ctx.server.cursors.open(`${ctx.db}.${name}`, docs, bs, singleBatch);
};

const getMore: Handler = (ctx) => {
  const id = ctx.cmd['getMore'];
  if (!(id instanceof Long)) throw new MongoError(Codes.TypeMismatch, "BSON field 'getMore.getMore' is the wrong type, expected type 'long'");
  const bs = ctx.cmd['batchSize'] === undefined ? undefined : num(ctx.cmd['batchSize'], 0);
  const r = ctx.server.cursors.more(id, bs);
  if (!r) throw new MongoError(Codes.CursorNotFound, `cursor id ${id.toString()} not found`);
  return { cursor: { nextBatch: r.docs, id: r.id, ns: r.ns }, ok: 1 };
};

const killCursors: Handler = (ctx) => {
  const ids = ctx.cmd['cursors'];
  if (!Array.isArray(ids)) throw new MongoError(Codes.FailedToParse, "BSON field 'killCursors.cursors' is missing but a required field");
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const id of ids) {
    if (id instanceof Long && ctx.server.cursors.kill(id)) killed.push(id);
    else notFound.push(id instanceof Long ? id : Long.ZERO);
  }
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

const UNSUPPORTED_STAGES = new Set(['$out', '$merge', '$changeStream']);

const aggregate: Handler = (ctx) => {
  const target = ctx.cmd['aggregate'];
  const pipeline = ctx.cmd['pipeline'];
  if (!Array.isArray(pipeline)) throw new MongoError(Codes.TypeMismatch, "'pipeline' option must be specified as an array");
  if (!isPlainObject(ctx.cmd['cursor']) && ctx.cmd['explain'] !== true) {
    throw new MongoError(Codes.FailedToParse, "The 'cursor' option is required, except for aggregate with the explain argument");
  }
  for (const st of pipeline as Doc[]) {
    const op = Object.keys(st)[0] ?? '';
    if (UNSUPPORTED_STAGES.has(op)) throw new MongoError(Codes.IllegalOperation, `${op} is not supported by the embedded server`);
  }
  if (typeof target !== 'string') {
    // Database-level aggregation ($currentOp, $documents...): nothing to report.
    return ctx.server.cursors.open(`${ctx.db}.$cmd.aggregate`, [], undefined, true);
  }
  const coll = ctx.engine.collection(ctx.db, target);
  let stages = pipeline as Doc[];
  let filter: Doc = {};
  const first = stages[0];
  if (first && isPlainObject(first['$match'])) {
    filter = first['$match'];
    stages = stages.slice(1);
  }
  let rows = matching(ctx.engine, ctx.txn, coll, filter);
  // A pure $sort/$skip/$limit tail keeps the stored documents, and so their numeric types.
  let i = 0;
  for (; i < stages.length; i++) {
    const st = stages[i] ?? {};
    if (isPlainObject(st['$sort'])) rows = sortVisible(rows, st['$sort']);
    else if (st['$skip'] !== undefined) rows = rows.slice(num(st['$skip'], 0));
    else if (st['$limit'] !== undefined) rows = rows.slice(0, num(st['$limit'], 0));
    else break;
  }
  let docs: Doc[];
  if (i === stages.length) docs = rows.map((r) => r.doc);
  else {
    const resolver = (name: string): Doc[] => matching(ctx.engine, ctx.txn, ctx.engine.collection(ctx.db, name), {}).map((r) => r.plain);
    try {
      docs = (new Aggregator(stages.slice(i), { ...MINGO_OPTS, collectionResolver: resolver }).run(rows.map((r) => r.plain)) as Doc[]).map(
        (d) => widenLargeInts(d) as Doc,
      );
    } catch (e) {
      throw new MongoError(Codes.FailedToParse, (e as Error).message);
    }
  }
  return ctx.server.cursors.open(`${ctx.db}.${target}`, docs, cursorOpts(ctx).batchSize, false);
};

const count: Handler = (ctx) => {
  const name = collName(ctx);
  const coll = ctx.engine.collection(ctx.db, name);
  const query = docArg(ctx, 'query') ?? {};
  let n: number;
  if (Object.keys(query).length === 0 && !ctx.txn) n = coll?.live ?? 0;
  else n = matching(ctx.engine, ctx.txn, coll, query).length;
  const skip = num(ctx.cmd['skip'], 0);
  const limit = Math.abs(num(ctx.cmd['limit'], 0));
  n = Math.max(0, n - skip);
  if (limit) n = Math.min(n, limit);
  return { n, ok: 1 };
};

/** Values at a dotted path, descending through arrays the way distinct does. */
function collectPath(v: unknown, parts: string[]): unknown[] {
  if (parts.length === 0) return v === undefined ? [] : Array.isArray(v) ? v : [v];
  if (Array.isArray(v)) return v.flatMap((x) => collectPath(x, parts));
  if (!isPlainObject(v)) return [];
  return collectPath(v[parts[0] ?? ''], parts.slice(1));
}

const distinct: Handler = (ctx) => {
  const name = collName(ctx);
  const key = ctx.cmd['key'];
  if (typeof key !== 'string') throw new MongoError(Codes.TypeMismatch, "BSON field 'distinct.key' is the wrong type, expected type 'string'");
  const rows = matching(ctx.engine, ctx.txn, ctx.engine.collection(ctx.db, name), docArg(ctx, 'query') ?? {});
  const seen = new Map<string, unknown>();
  for (const r of rows) {
    for (const x of collectPath(r.doc, key.split('.'))) {
      const k = valueKey(x);
      if (!seen.has(k)) seen.set(k, x);
    }
  }
  return { values: [...seen.values()], ok: 1 };
};

export const readCommands: Record<string, Handler> = { find, getMore, killCursors, aggregate, count, distinct };
