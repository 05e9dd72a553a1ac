// Write commands: insert, update, delete, findAndModify.
import { Codes, MongoError } from '../errors.ts';
import type { Visible } from '../engine.ts';
import { project } from '../query.ts';
import { applySimpleUpdate, applyUpdate, isOperatorUpdate, upsertSeed, validateDoc, withIdFirst } from '../update.ts';
import { firstMatching, matching } from '../reads.ts';
import { isPlainObject, plainDoc, valueKey } from '../values.ts';
import type { Doc } from '../values.ts';
import { collName, docArg, runWrite, statementError } from './context.ts';
import type { Ctx, Handler } from './context.ts';

function writeReply(n: number, writeErrors: Doc[], extra: Doc = {}): Doc {
  const r: Doc = { n, ...extra };
  if (writeErrors.length) r['writeErrors'] = writeErrors;
  r['ok'] = 1;
  return r;
}

function arrayArg(ctx: Ctx, field: string): Doc[] {
  const v = ctx.cmd[field];
  if (!Array.isArray(v)) throw new MongoError(Codes.FailedToParse, `BSON field '${ctx.name}.${field}' is missing but a required field`);
  return v as Doc[];
}

const insert: Handler = async (ctx) => {
  const name = collName(ctx);
  const docs = arrayArg(ctx, 'documents');
  const ordered = ctx.cmd['ordered'] !== false;
  const { coll, durable } = ctx.engine.ensureCollection(ctx.db, name);
  await durable;
  return runWrite(ctx, (txn) => {
    let n = 0;
    const errors: Doc[] = [];
    for (let i = 0; i < docs.length; i++) {
      try {
        const raw = docs[i];
        if (!isPlainObject(raw)) throw new MongoError(Codes.TypeMismatch, 'document must be an object');
        validateDoc(raw);
        const d = withIdFirst(raw);
        ctx.engine.insert(txn, coll, d, plainDoc(d));
        n++;
      } catch (e) {
        errors.push(statementError(e, i));
        if (ordered) break;
      }
    }
    return writeReply(n, errors);
  });
};

interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  before?: Visible;
  after?: Doc;
}

/** One update statement against the transaction's view. */
function updateOne(
  ctx: Ctx,
  txn: Parameters<Parameters<typeof runWrite>[1]>[0],
  collection: string,
  st: { q: Doc; u: Doc | Doc[]; upsert: boolean; multi: boolean; arrayFilters?: Doc[]; sort?: Doc },
): UpdateOutcome {
  if (!Array.isArray(st.u) && isOperatorUpdate(st.u) === false && st.multi) {
    throw new MongoError(Codes.FailedToParse, 'multi update is not supported for replacement-style update');
  }
  const coll = ctx.engine.collection(ctx.db, collection);
  const rows = firstMatching(ctx.engine, txn, coll, st.q, st.sort, st.multi ? Infinity : 1);
  const out: UpdateOutcome = { matched: 0, modified: 0 };
  for (const row of rows) {
    const simple = st.arrayFilters === undefined ? applySimpleUpdate(row, st.u) : undefined;
    if (simple) {
      out.matched++;
      out.before ??= row;
      if (simple.modified) {
        ctx.engine.replace(txn, coll!, row.id, simple.doc, simple.plain);
        out.modified++;
      }
      out.after ??= simple.doc;
      continue;
    }
    const next = applyUpdate(row, st.u, st.q, st.arrayFilters, false);
    out.matched++;
    out.before ??= row;
    if (valueKey(next) !== valueKey(row.doc)) {
      ctx.engine.replace(txn, coll!, row.id, next, plainDoc(next));
      out.modified++;
    }
    out.after ??= next;
  }
  if (rows.length === 0 && st.upsert) {
    const { coll: target } = ctx.engine.ensureCollection(ctx.db, collection);
    const seed = upsertSeed(st.q);
    let doc: Doc;
    if (Array.isArray(st.u) || isOperatorUpdate(st.u)) {
      doc = applyUpdate({ doc: seed, plain: plainDoc(seed) }, st.u, st.q, st.arrayFilters, true);
    } else {
      validateDoc(st.u);
      doc = withIdFirst({ ...st.u, _id: st.u['_id'] ?? seed['_id'] });
    }
    ctx.engine.insert(txn, target, doc, plainDoc(doc));
    out.upsertedId = doc['_id'];
    out.after = doc;
  }
  return out;
}

const update: Handler = async (ctx) => {
  const name = collName(ctx);
  const updates = arrayArg(ctx, 'updates');
  const ordered = ctx.cmd['ordered'] !== false;
  if (updates.some((u) => u['upsert'] === true)) await ctx.engine.ensureCollection(ctx.db, name).durable;
  return runWrite(ctx, (txn) => {
    let n = 0;
    let nModified = 0;
    const upserted: Doc[] = [];
    const errors: Doc[] = [];
    for (let i = 0; i < updates.length; i++) {
      const st = updates[i] ?? {};
      try {
        const u = st['u'];
        if (!isPlainObject(u) && !Array.isArray(u)) throw new MongoError(Codes.FailedToParse, "BSON field 'update.updates.u' is missing");
        const r = updateOne(ctx, txn, name, {
          q: (st['q'] as Doc | undefined) ?? {},
          u: u as Doc | Doc[],
          upsert: st['upsert'] === true,
          multi: st['multi'] === true,
          arrayFilters: st['arrayFilters'] as Doc[] | undefined,
          sort: st['sort'] as Doc | undefined,
        });
        if (r.upsertedId !== undefined) {
          upserted.push({ index: i, _id: r.upsertedId });
          n++;
        } else {
          n += r.matched;
          nModified += r.modified;
        }
      } catch (e) {
        errors.push(statementError(e, i));
        if (ordered) break;
      }
    }
    const extra: Doc = { nModified };
    if (upserted.length) extra['upserted'] = upserted;
    return writeReply(n, errors, extra);
  });
};

const del: Handler = (ctx) => {
  const name = collName(ctx);
  const deletes = arrayArg(ctx, 'deletes');
  const ordered = ctx.cmd['ordered'] !== false;
  return runWrite(ctx, (txn) => {
    let n = 0;
    const errors: Doc[] = [];
    const coll = ctx.engine.collection(ctx.db, name);
    for (let i = 0; i < deletes.length; i++) {
      const st = deletes[i] ?? {};
      try {
        const rows = matching(ctx.engine, txn, coll, (st['q'] as Doc | undefined) ?? {}, st['limit'] === 1 ? 1 : Infinity);
        for (const row of rows) ctx.engine.remove(txn, coll!, row.id);
        n += rows.length;
      } catch (e) {
        errors.push(statementError(e, i));
        if (ordered) break;
      }
    }
    return writeReply(n, errors);
  });
};

const findAndModify: Handler = async (ctx) => {
  const name = collName(ctx);
  const query = docArg(ctx, 'query') ?? {};
  const sort = docArg(ctx, 'sort');
  const fields = docArg(ctx, 'fields');
  const remove = ctx.cmd['remove'] === true;
  const u = ctx.cmd['update'];
  const returnNew = ctx.cmd['new'] === true;
  const upsert = ctx.cmd['upsert'] === true;
  if (!remove && !isPlainObject(u) && !Array.isArray(u)) {
    throw new MongoError(Codes.FailedToParse, 'Either an update or remove=true must be specified');
  }
  if (upsert) await ctx.engine.ensureCollection(ctx.db, name).durable;
  return runWrite(ctx, (txn) => {
    const coll = ctx.engine.collection(ctx.db, name);
    let value: Doc | null = null;
    const lastErrorObject: Doc = { n: 0 };
    if (remove) {
      const row = firstMatching(ctx.engine, txn, coll, query, sort, 1)[0];
      if (row) {
        ctx.engine.remove(txn, coll!, row.id);
        value = row.doc;
        lastErrorObject['n'] = 1;
      }
    } else {
      const r = updateOne(ctx, txn, name, {
        q: query,
        u: u as Doc | Doc[],
        upsert,
        multi: false,
        arrayFilters: ctx.cmd['arrayFilters'] as Doc[] | undefined,
        sort,
      });
      lastErrorObject['n'] = r.matched || (r.upsertedId !== undefined ? 1 : 0);
      lastErrorObject['updatedExisting'] = r.matched > 0;
      if (r.upsertedId !== undefined) lastErrorObject['upserted'] = r.upsertedId;
      value = returnNew ? (r.after ?? null) : (r.before?.doc ?? null);
    }
    if (value && fields) value = project([value], fields)[0] ?? null;
    return { lastErrorObject, value, ok: 1 };
  });
};

export const crudCommands: Record<string, Handler> = {
  insert,
  update,
  delete: del,
  findAndModify,
  findandmodify: findAndModify,
};
