// What every command handler receives, and the shared write runner.
import type { Logger } from 'pino';
import { Long } from 'bson';
import type { Engine } from '../engine.ts';
import { Codes, LockWait, MongoError } from '../errors.ts';
import type { Txn } from '../txn.ts';
import type { Doc } from '../values.ts';
import type { CursorStore } from '../cursors.ts';
import type { OpCounters } from '../opcounters.ts';

export interface ServerInfo {
  me: string;
  setName: string;
  startedAt: Date;
  electionId: unknown;
  cursors: CursorStore;
  logger: Logger;
  opcounters: OpCounters;
}

export interface Ctx {
  engine: Engine;
  server: ServerInfo;
  db: string;
  cmd: Doc;
  name: string;
  connectionId: number;
  /** The open multi-document transaction this command runs in, if any. */
  txn: Txn | null;
  /** Snapshot of a read outside a transaction (readConcern majority/snapshot/linearizable). */
  readTs?: number;
  /** Journal ops to commit atomically with an implicit write (the retryable-write record). */
  afterWrite?: (response: Doc) => Doc[];
}

export type Handler = (ctx: Ctx) => Promise<Doc> | Doc;

const LOCK_WAIT_LIMIT_MS = 30_000;

/**
 * Runs a write body. Inside a transaction it just runs; otherwise it runs as an implicit transaction
 * committed (and journaled) before the reply, retrying after any transaction holding a needed lock ends.
 */
export async function runWrite(ctx: Ctx, body: (txn: Txn) => Doc): Promise<Doc> {
  if (ctx.txn) return body(ctx.txn);
  const deadline = Date.now() + LOCK_WAIT_LIMIT_MS;
  for (;;) {
    const txn = ctx.engine.begin(false);
    let resp: Doc;
    try {
      resp = body(txn);
    } catch (e) {
      ctx.engine.abort(txn);
      if (e instanceof LockWait) {
        if (Date.now() > deadline) throw new MongoError(Codes.MaxTimeMSExpired, 'operation exceeded time limit waiting for a transaction lock');
        await Promise.race([e.until, new Promise((r) => setTimeout(r, 1000))]);
        continue;
      }
      throw e;
    }
    await ctx.engine.commit(txn, ctx.afterWrite?.(resp) ?? []);
    return resp;
  }
}

/** Records a per-statement failure the way write commands report it, or rethrows fatal ones. */
export function statementError(e: unknown, index: number): Doc {
  if (e instanceof MongoError && e.code !== Codes.WriteConflict) {
    return { index, code: e.code, errmsg: e.message, ...e.extra };
  }
  throw e;
}

export function collName(ctx: Ctx): string {
  const v = ctx.cmd[ctx.name];
  if (typeof v !== 'string' || v.length === 0) {
    throw new MongoError(Codes.InvalidNamespace, `collection name has invalid type ${typeof v}`);
  }
  return v;
}

export function num(v: unknown, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'number') return v;
  if (v instanceof Long) return v.toNumber();
  if (typeof v === 'object' && 'valueOf' in v) {
    const n = Number((v as { valueOf(): unknown }).valueOf());
    if (!Number.isNaN(n)) return n;
  }
  throw new MongoError(Codes.TypeMismatch, `expected a number, got ${typeof v}`);
}

export function docArg(ctx: Ctx, field: string, required = false): Doc | undefined {
  const v = ctx.cmd[field];
  if (v === undefined || v === null) {
    if (required) throw new MongoError(Codes.FailedToParse, `BSON field '${ctx.name}.${field}' is missing but a required field`);
    return undefined;
  }
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new MongoError(Codes.TypeMismatch, `BSON field '${ctx.name}.${field}' is the wrong type, expected type 'object'`);
  }
  return v as Doc;
}
