// Namespace and index commands.
import { Query } from 'mingo/query';
import { Codes, MongoError } from '../errors.ts';
import type { IndexSpec } from '../indexes.ts';
import { MINGO_OPTS } from '../mingo-context.ts';
import { isPlainObject, toPlain, valueKey } from '../values.ts';
import type { Doc } from '../values.ts';
import { collName, docArg } from './context.ts';
import type { Handler } from './context.ts';

const ID_INDEX = { v: 2, key: { _id: 1 }, name: '_id_' };

/** Collection options with no effect on behaviour; anything else would be accepted and ignored. */
const HARMLESS_COLLECTION_OPTIONS = new Set(['comment', 'storageEngine', 'indexOptionDefaults', '$readPreference', 'apiVersion', 'apiStrict', 'apiDeprecationErrors']);

const UNSUPPORTED_COLLECTION_OPTIONS: Record<string, string> = {
  capped: 'capped collections',
  size: 'capped collections',
  max: 'capped collections',
  validator: 'document validation (validator, $jsonSchema)',
  validationLevel: 'document validation (validator, $jsonSchema)',
  validationAction: 'document validation (validator, $jsonSchema)',
  viewOn: 'views',
  pipeline: 'views',
  timeseries: 'time-series collections',
  expireAfterSeconds: 'time-series collections',
  clusteredIndex: 'clustered collections',
  collation: 'collations',
  changeStreamPreAndPostImages: 'change streams',
  encryptedFields: 'queryable encryption',
};

/**
 * Refuses, at creation, options the embedded server would otherwise store and not enforce: a
 * capped collection that grows without bound or a validator that validates nothing is worse than
 * an error that says to use a real MongoDB.
 */
function refuseCollectionOptions(options: Doc): void {
  for (const [k, v] of Object.entries(options)) {
    if (HARMLESS_COLLECTION_OPTIONS.has(k)) continue;
    if ((k === 'capped' && v === false) || (k === 'collation' && isPlainObject(v) && v['locale'] === 'simple')) continue;
    const what = UNSUPPORTED_COLLECTION_OPTIONS[k];
    throw new MongoError(
      Codes.CommandNotSupported,
      what ? `${what} are not supported by the embedded MongoDB server (option '${k}'); use a real MongoDB for this feature` : `unknown or unsupported collection option '${k}' (embedded MongoDB server)`,
    );
  }
}

/** Index options that change nothing the embedded server does differently. */
const INDEX_OPTIONS = new Set(['key', 'name', 'unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds', 'background', 'v', 'ns', 'comment', 'storageEngine']);

function refuseIndexSpec(raw: Doc, key: Doc): void {
  for (const [field, kind] of Object.entries(key)) {
    if (kind === 1 || kind === -1) continue;
    const type = typeof kind === 'string' ? kind : String(kind);
    if (['text', '2dsphere', '2d', 'hashed', 'geoHaystack'].includes(type)) {
      throw new MongoError(Codes.CannotCreateIndex, `${type} indexes are not supported by the embedded MongoDB server (field '${field}'); use a real MongoDB for $text/geo queries`);
    }
    throw new MongoError(Codes.CannotCreateIndex, `Values in the index key pattern can only be 1 or -1 on the embedded MongoDB server; found ${type} for field '${field}'`);
  }
  if (Object.keys(key).some((f) => f === '$**' || f.endsWith('.$**'))) throw new MongoError(Codes.CannotCreateIndex, 'wildcard indexes are not supported by the embedded MongoDB server');
  for (const [opt, v] of Object.entries(raw)) {
    if (INDEX_OPTIONS.has(opt)) continue;
    if (opt === 'collation' && isPlainObject(v) && v['locale'] === 'simple') continue;
    if (opt === 'hidden' && v === false) continue;
    throw new MongoError(Codes.CannotCreateIndex, `index option '${opt}' is not supported by the embedded MongoDB server`);
  }
}

const create: Handler = async (ctx) => {
  const name = collName(ctx);
  if (ctx.engine.collection(ctx.db, name)) {
    throw new MongoError(Codes.NamespaceExists, `Collection ${ctx.db}.${name} already exists.`);
  }
  const { create: _c, lsid: _l, $db: _d, $clusterTime: _t, txnNumber: _n, autocommit: _a, startTransaction: _s, writeConcern: _w, ...options } = ctx.cmd;
  refuseCollectionOptions(options);
  await ctx.engine.ensureCollection(ctx.db, name, options).durable;
  return { ok: 1 };
};

const drop: Handler = async (ctx) => {
  const name = collName(ctx);
  const coll = ctx.engine.collection(ctx.db, name);
  if (!coll) return { ok: 1 };
  const nIndexesWas = coll.indexes.length + 1;
  await ctx.engine.dropCollection(ctx.db, name);
  return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
};

const listCollections: Handler = (ctx) => {
  const filter = docArg(ctx, 'filter') ?? {};
  const q = new Query(toPlain(filter) as Doc, MINGO_OPTS);
  const docs = ctx.engine
    .collections(ctx.db)
    .map((c) => ({ name: c.name, type: 'collection', options: c.options, info: { readOnly: false }, idIndex: ID_INDEX }))
    .filter((d) => q.test(d))
    .map((d) => (ctx.cmd['nameOnly'] === true ? { name: d.name, type: d.type } : d));
  const c = ctx.cmd['cursor'];
  const bs = isPlainObject(c) && typeof c['batchSize'] === 'number' ? c['batchSize'] : undefined;
  return ctx.server.cursors.open(`${ctx.db}.$cmd.listCollections`, docs, bs, false);
};

function defaultIndexName(key: Doc): string {
  return Object.entries(key)
    .map(([k, v]) => `${k}_${String(toPlain(v))}`)
    .join('_');
}

const createIndexes: Handler = async (ctx) => {
  const name = collName(ctx);
  const specs = ctx.cmd['indexes'];
  if (!Array.isArray(specs) || specs.length === 0) throw new MongoError(Codes.BadValue, 'Must specify at least one index to create');
  // All specs are checked before any index is built, so a refused one leaves nothing behind.
  for (const raw of specs as Doc[]) {
    if (isPlainObject(raw) && isPlainObject(raw['key'])) refuseIndexSpec(raw, toPlain(raw['key']) as Doc);
  }
  const { coll, created, durable } = ctx.engine.ensureCollection(ctx.db, name);
  await durable;
  const before = coll.indexes.length + 1;
  const pending: Promise<void>[] = [];
  for (const raw of specs as Doc[]) {
    const key = raw['key'];
    if (!isPlainObject(key) || Object.keys(key).length === 0) throw new MongoError(Codes.FailedToParse, "The 'key' field is a required property of an index specification");
    const plainKey = toPlain(key) as Doc;
    const ixName = typeof raw['name'] === 'string' ? raw['name'] : defaultIndexName(plainKey);
    if (ixName === '_id_' || (Object.keys(plainKey).length === 1 && '_id' in plainKey)) continue;
    const sameName = coll.index(ixName);
    const sameKey = coll.indexes.find((i) => valueKey(i.spec.key) === valueKey(plainKey));
    if (sameName) {
      if (valueKey(sameName.spec.key) !== valueKey(plainKey)) {
        throw new MongoError(Codes.IndexKeySpecsConflict, `An existing index has the same name as the requested index. Requested index: ${ixName}`);
      }
      if (Boolean(sameName.spec.unique) !== Boolean(raw['unique'])) {
        throw new MongoError(Codes.IndexOptionsConflict, `An equivalent index already exists with the same name but different options. Requested index: ${ixName}`);
      }
      continue;
    }
    if (sameKey) {
      throw new MongoError(Codes.IndexOptionsConflict, `Index already exists with a different name: ${sameKey.name}`);
    }
    const spec: IndexSpec = { ...(toPlain(raw) as Doc), v: 2, key: plainKey, name: ixName };
    if (spec.unique !== true) delete spec.unique;
    pending.push(ctx.engine.createIndex(coll, spec));
  }
  await Promise.all(pending);
  const after = coll.indexes.length + 1;
  const r: Doc = { numIndexesBefore: before, numIndexesAfter: after, createdCollectionAutomatically: created, ok: 1 };
  if (before === after) r['note'] = 'all indexes already exist';
  return r;
};

const listIndexes: Handler = (ctx) => {
  const name = collName(ctx);
  const coll = ctx.engine.collection(ctx.db, name);
  if (!coll) throw new MongoError(Codes.NamespaceNotFound, `ns does not exist: ${ctx.db}.${name}`);
  const docs = [ID_INDEX, ...coll.indexes.map((i) => i.spec)];
  return ctx.server.cursors.open(`${ctx.db}.${name}`, docs as Doc[], undefined, false);
};

const dropIndexes: Handler = async (ctx) => {
  const name = collName(ctx);
  const coll = ctx.engine.collection(ctx.db, name);
  if (!coll) throw new MongoError(Codes.NamespaceNotFound, `ns not found ${ctx.db}.${name}`);
  const nIndexesWas = coll.indexes.length + 1;
  const which = ctx.cmd['index'];
  let names: string[];
  if (which === '*') names = coll.indexes.map((i) => i.name);
  else if (typeof which === 'string') names = [which];
  else if (Array.isArray(which)) names = which.map(String);
  else if (isPlainObject(which)) {
    const found = coll.indexes.find((i) => valueKey(i.spec.key) === valueKey(toPlain(which)));
    if (!found) throw new MongoError(Codes.IndexNotFound, `can't find index with key: ${JSON.stringify(toPlain(which))}`);
    names = [found.name];
  } else throw new MongoError(Codes.TypeMismatch, "BSON field 'dropIndexes.index' is the wrong type");
  for (const n of names) {
    if (n === '_id_') throw new MongoError(Codes.InvalidOptions, 'cannot drop _id index');
    if (!coll.index(n)) throw new MongoError(Codes.IndexNotFound, `index not found with name [${n}]`);
  }
  await Promise.all(names.map((n) => ctx.engine.dropIndex(coll, n)));
  return { nIndexesWas, ok: 1 };
};

const listDatabases: Handler = (ctx) => {
  const databases = [...ctx.engine.dbs.entries()].map(([name, colls]) => {
    let docs = 0;
    for (const c of colls.values()) docs += c.live;
    return { name, sizeOnDisk: docs * 256, empty: docs === 0 };
  });
  const nameOnly = ctx.cmd['nameOnly'] === true;
  return {
    databases: nameOnly ? databases.map((d) => ({ name: d.name })) : databases,
    totalSize: databases.reduce((a, d) => a + d.sizeOnDisk, 0),
    totalSizeMb: 0,
    ok: 1,
  };
};

const dropDatabase: Handler = async (ctx) => {
  await ctx.engine.dropDatabase(ctx.db);
  return { dropped: ctx.db, ok: 1 };
};

const collStats: Handler = (ctx) => {
  const name = collName(ctx);
  const coll = ctx.engine.collection(ctx.db, name);
  if (!coll) throw new MongoError(Codes.NamespaceNotFound, `Collection [${ctx.db}.${name}] not found.`);
  return { ns: coll.ns, count: coll.live, size: coll.live * 256, nindexes: coll.indexes.length + 1, ok: 1 };
};

const dbStats: Handler = (ctx) => {
  const colls = ctx.engine.collections(ctx.db);
  const objects = colls.reduce((a, c) => a + c.live, 0);
  return { db: ctx.db, collections: colls.length, views: 0, objects, dataSize: objects * 256, indexes: colls.reduce((a, c) => a + c.indexes.length + 1, 0), ok: 1 };
};

export const ddlCommands: Record<string, Handler> = {
  create,
  drop,
  listCollections,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  listDatabases,
  dropDatabase,
  collStats,
  dbStats,
};
