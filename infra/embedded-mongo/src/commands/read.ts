// Read commands: find, getMore, killCursors, aggregate, count, distinct.
import { runPipeline } from '../aggregation/stages.ts';
import type { Row } from '../aggregation/stages.ts';
import { Long } from 'bson';
import { Codes, MongoError, badValue } from '../errors.ts';
import { projectYielding, sortVisibleYielding } from '../query.ts';
import { matching, readMatching } from '../reads.ts';
import type { ReadOutcome } from '../reads.ts';
import { Txn } from '../txn.ts';
import { isPlainObject, valueKey } from '../values.ts';
import type { Doc } from '../values.ts';
import { collName, docArg, num } from './context.ts';
import type { Ctx, Handler } from './context.ts';

function cursorOpts(ctx: Ctx): { batchSize: number | undefined } {
  const c = ctx.cmd['cursor'];
  if (isPlainObject(c) && c['batchSize'] !== undefined) return { batchSize: num(c['batchSize'], 101) };
  return { batchSize: undefined };
}

/** maxTimeMS of a read as an epoch-ms deadline, checked between the slices of its scan. */
function deadline(cmd: Doc): number {
  const ms = num(cmd['maxTimeMS'], 0);
  return ms > 0 ? Date.now() + ms : Infinity;
}

interface FindRun {
  docs: Doc[];
  outcome: ReadOutcome;
  sortStage: boolean;
  ms: number;
}

async function runFind(ctx: Ctx, cmd: Doc): Promise<FindRun & { singleBatch: boolean }> {
  const started = performance.now();
  const name = collName({ ...ctx, cmd, name: 'find' });
  const filter = (isPlainObject(cmd['filter']) ? cmd['filter'] : undefined) ?? {};
  const sort = isPlainObject(cmd['sort']) && Object.keys(cmd['sort']).length > 0 ? cmd['sort'] : undefined;
  const projection = isPlainObject(cmd['projection']) ? cmd['projection'] : undefined;
  const skip = num(cmd['skip'], 0);
  let limit = num(cmd['limit'], 0);
  let singleBatch = cmd['singleBatch'] === true;
  if (skip < 0) throw badValue('skip value must be non-negative');
  if (limit < 0) {
    limit = -limit;
    singleBatch = true;
  }
  const coll = ctx.engine.collection(ctx.db, name);
  const outcome = await readMatching(ctx.engine, ctx.txn, coll, filter, sort, limit ? skip + limit : Infinity, ctx.readTs, deadline(cmd));
  const sortStage = sort !== undefined && !outcome.sorted;
  let rows = sortStage ? await sortVisibleYielding(outcome.rows, sort) : outcome.rows;
  if (skip) rows = rows.slice(skip);
  if (limit) rows = rows.slice(0, limit);
  const docs = await projectYielding(
    rows.map((r) => r.doc),
    projection,
  );
  return { docs, outcome, sortStage, singleBatch, ms: performance.now() - started };
}

const find: Handler = async (ctx) => {
  const { docs, singleBatch } = await runFind(ctx, ctx.cmd);
  const bs = ctx.cmd['batchSize'] === undefined ? undefined : num(ctx.cmd['batchSize'], 101);
  return ctx.server.cursors.open(`${ctx.db}.${collName(ctx)}`, docs, bs, singleBatch);
};

/** `explain` of a find, count or distinct: the plan chosen and, past queryPlanner verbosity, its figures. */
const explain: Handler = async (ctx) => {
  const inner = ctx.cmd['explain'];
  if (!isPlainObject(inner)) throw new MongoError(Codes.FailedToParse, "BSON field 'explain.explain' is missing or not an object");
  const verb = Object.keys(inner)[0] ?? '';
  let cmd: Doc;
  if (verb === 'find') cmd = inner;
  else if (verb === 'count') cmd = { find: inner['count'], filter: inner['query'] ?? {} };
  else if (verb === 'distinct') cmd = { find: inner['distinct'], filter: inner['query'] ?? {} };
  else throw new MongoError(Codes.IllegalOperation, `explain of ${verb || 'this command'} is not supported by the embedded server (find, count and distinct are)`);
  const run = await runFind(ctx, cmd);
  let winningPlan = run.outcome.plan.describe();
  if (run.sortStage) winningPlan = { stage: 'SORT', sortPattern: cmd['sort'], inputStage: winningPlan };
  const ns = `${ctx.db}.${String(cmd['find'])}`;
  const out: Doc = {
    explainVersion: '1',
    queryPlanner: { namespace: ns, indexFilterSet: false, parsedQuery: cmd['filter'] ?? {}, winningPlan, rejectedPlans: [] },
    serverInfo: { host: ctx.server.me, version: '6.0.0' },
    ok: 1,
  };
  if (ctx.cmd['verbosity'] !== 'queryPlanner') {
    out['executionStats'] = {
      executionSuccess: true,
      nReturned: run.docs.length,
      executionTimeMillis: Math.round(run.ms),
      totalKeysExamined: run.outcome.plan.keysExamined,
      totalDocsExamined: run.outcome.docsExamined,
      executionStages: winningPlan,
    };
  }
  return out;
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

function withIdFirstIfPresent(d: Doc): Doc {
  if (!('_id' in d) || Object.keys(d)[0] === '_id') return d;
  const { _id, ...rest } = d;
  return { _id, ...rest };
}

const UNSUPPORTED_STAGES = new Set(['$out', '$merge', '$changeStream']);

const aggregate: Handler = async (ctx) => {
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
  const first0 = stages[0];
  const sortFirst = first0 && isPlainObject(first0['$sort']) ? first0['$sort'] : undefined;
  const planned = await readMatching(ctx.engine, ctx.txn, coll, filter, sortFirst, Infinity, ctx.readTs, deadline(ctx.cmd));
  let rows = planned.rows;
  if (sortFirst && planned.sorted) stages = stages.slice(1);
  // A pure $sort/$skip/$limit tail keeps the stored documents, and so their numeric types.
  let i = 0;
  for (; i < stages.length; i++) {
    const st = stages[i] ?? {};
    if (isPlainObject(st['$sort'])) rows = await sortVisibleYielding(rows, st['$sort']);
    else if (st['$skip'] !== undefined) rows = rows.slice(num(st['$skip'], 0));
    else if (st['$limit'] !== undefined) rows = rows.slice(0, num(st['$limit'], 0));
    else break;
  }
  let docs: Doc[];
  if (i === stages.length) docs = rows.map((r) => r.doc);
  else {
    const view = ctx.txn ?? (ctx.readTs === undefined ? null : new Txn(ctx.readTs, true));
    const resolver = (name: string): Row[] => matching(ctx.engine, view, ctx.engine.collection(ctx.db, name), {});
    // The server writes _id first in every stage's output ($group, $bucket, $project, $unwind...).
    try {
      docs = runPipeline(rows, stages.slice(i), resolver).map((r) => withIdFirstIfPresent(r.doc));
    } catch (e) {
      // mingo reports a bad stage or operator as a plain Error: the client's mistake, not ours.
      if (e instanceof MongoError) throw e;
      throw new MongoError(Codes.FailedToParse, (e as Error).message);
    }
  }
  return ctx.server.cursors.open(`${ctx.db}.${target}`, docs, cursorOpts(ctx).batchSize, false);
};

const count: Handler = async (ctx) => {
  const name = collName(ctx);
  const coll = ctx.engine.collection(ctx.db, name);
  const query = docArg(ctx, 'query') ?? {};
  let n: number;
  if (Object.keys(query).length === 0 && !ctx.txn && ctx.readTs === undefined) n = coll?.live ?? 0;
  else n = (await readMatching(ctx.engine, ctx.txn, coll, query, undefined, Infinity, ctx.readTs, deadline(ctx.cmd))).rows.length;
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

const distinct: Handler = async (ctx) => {
  const name = collName(ctx);
  const key = ctx.cmd['key'];
  if (typeof key !== 'string') throw new MongoError(Codes.TypeMismatch, "BSON field 'distinct.key' is the wrong type, expected type 'string'");
  const { rows } = await readMatching(ctx.engine, ctx.txn, ctx.engine.collection(ctx.db, name), docArg(ctx, 'query') ?? {}, undefined, Infinity, ctx.readTs, deadline(ctx.cmd));
  const seen = new Map<string, unknown>();
  for (const r of rows) {
    for (const x of collectPath(r.doc, key.split('.'))) {
      const k = valueKey(x);
      if (!seen.has(k)) seen.set(k, x);
    }
  }
  return { values: [...seen.values()], ok: 1 };
};

export const readCommands: Record<string, Handler> = { find, getMore, killCursors, aggregate, count, distinct, explain };
