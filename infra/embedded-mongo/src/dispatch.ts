// Routes a command to its handler and applies session semantics: multi-document transactions
// (autocommit:false) and retryable writes (txnNumber outside a transaction, applied once).
import { Binary, Long } from 'bson';
import { adminCommands } from './commands/admin.ts';
import { crudCommands } from './commands/crud.ts';
import { ddlCommands } from './commands/ddl.ts';
import { readCommands } from './commands/read.ts';
import type { Ctx, Handler, ServerInfo } from './commands/context.ts';
import type { Engine } from './engine.ts';
import { checkWriteConcern, readTimestamp, refuseCollation, transactionSnapshot } from './concerns.ts';
import { Codes, MongoError } from './errors.ts';
import { sessionOp } from './persistence.ts';
import type { Txn } from './txn.ts';
import { clone, isPlainObject } from './values.ts';
import type { Doc } from './values.ts';

const RETRYABLE = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);
const TXN_LIFETIME_MS = 60_000;

interface TxnState {
  txnNumber: number;
  txn: Txn | null;
  state: 'none' | 'active' | 'committed' | 'aborted';
}

export class Dispatcher {
  private readonly handlers: Record<string, Handler>;
  private readonly txns = new Map<string, TxnState>();

  constructor(
    private readonly engine: Engine,
    private readonly server: ServerInfo,
  ) {
    this.handlers = {
      ...adminCommands,
      ...ddlCommands,
      ...readCommands,
      ...crudCommands,
      endSessions: (ctx) => this.endSessions(ctx),
      killSessions: (ctx) => this.endSessions(ctx),
      commitTransaction: () => ({ ok: 1 }),
      abortTransaction: () => ({ ok: 1 }),
    };
  }

  async run(cmd: Doc, db: string, connectionId: number): Promise<Doc> {
    const name = Object.keys(cmd)[0] ?? '';
    const handler = Object.hasOwn(this.handlers, name) ? this.handlers[name] : undefined;
    if (!handler) {
      return new MongoError(Codes.CommandNotFound, `no such command: '${name}'`).toResponse();
    }
    // Counted like serverStatus().metrics.commands.<name>.total (benchmarks read commands per order).
    this.engine.stats.commands.set(name, (this.engine.stats.commands.get(name) ?? 0) + 1);
    const ctx: Ctx = { engine: this.engine, server: this.server, db, cmd, name, connectionId, txn: null };
    this.server.opcounters.received(name, cmd);
    let reply: Doc;
    try {
      reply = await this.withSession(ctx, handler);
    } catch (e) {
      if (e instanceof MongoError) reply = e.toResponse();
      else {
        this.server.logger.error({ err: e, command: name }, 'command failed');
        reply = { ok: 0, errmsg: (e as Error).message, code: 1, codeName: 'InternalError' };
      }
    }
    this.server.opcounters.answered(name, cmd, reply);
    return reply;
  }

  private async withSession(ctx: Ctx, handler: Handler): Promise<Doc> {
    checkWriteConcern(ctx.cmd);
    refuseCollation(ctx.cmd);
    const lsid = ctx.cmd['lsid'];
    const sid = isPlainObject(lsid) && lsid['id'] instanceof Binary ? Buffer.from(lsid['id'].buffer).toString('hex') : undefined;
    const rawTxn = ctx.cmd['txnNumber'];
    const txnNumber = rawTxn instanceof Long ? rawTxn.toNumber() : typeof rawTxn === 'number' ? rawTxn : undefined;
    if (ctx.cmd['autocommit'] === false) {
      if (!sid || txnNumber === undefined) throw new MongoError(Codes.InvalidOptions, 'transactions need lsid and txnNumber');
      return this.inTransaction(ctx, handler, sid, txnNumber);
    }
    ctx.readTs = await readTimestamp(this.engine, ctx.name, ctx.cmd);
    if (ctx.name === 'commitTransaction' || ctx.name === 'abortTransaction') {
      throw new MongoError(Codes.InvalidOptions, `${ctx.name} must be run within a transaction`);
    }
    if (sid && txnNumber !== undefined && RETRYABLE.has(ctx.name)) {
      const rec = this.engine.sessions.get(sid);
      if (rec && rec.txnNumber === txnNumber && rec.response) {
        rec.lastUse = Date.now();
        return clone(rec.response);
      }
      if (rec && rec.txnNumber > txnNumber) {
        throw new MongoError(Codes.TransactionTooOld, `txnNumber ${txnNumber} is less than last txnNumber ${rec.txnNumber} seen in this session`);
      }
      ctx.afterWrite = (response) => {
        if (response['ok'] !== 1) return [];
        this.engine.sessions.set(sid, { txnNumber, response, lastUse: Date.now() });
        return [sessionOp(sid, txnNumber, response)];
      };
    }
    return handler(ctx);
  }

  private async inTransaction(ctx: Ctx, handler: Handler, sid: string, n: number): Promise<Doc> {
    let st = this.txns.get(sid);
    if (!st) this.txns.set(sid, (st = { txnNumber: -1, txn: null, state: 'none' }));
    if (ctx.cmd['startTransaction'] === true) {
      if (n < st.txnNumber || (n === st.txnNumber && st.state !== 'none')) {
        throw new MongoError(Codes.TransactionTooOld, `txnNumber ${n} for session is not newer than ${st.txnNumber}`);
      }
      const snapTs = transactionSnapshot(this.engine, ctx.cmd, true);
      if (st.txn) this.engine.abort(st.txn);
      st.txnNumber = n;
      st.txn = this.engine.begin(true, snapTs);
      st.state = 'active';
    } else if (n !== st.txnNumber) {
      const rec = this.engine.sessions.get(sid);
      if (ctx.name === 'commitTransaction' && rec?.committed && rec.txnNumber === n) return { ok: 1 };
      throw noSuchTransaction(n);
    }
    if (ctx.name === 'commitTransaction') {
      if (st.state === 'committed') return { ok: 1 };
      if (st.state !== 'active' || !st.txn) throw noSuchTransaction(n);
      const txn = st.txn;
      st.txn = null;
      st.state = 'committed';
      this.engine.sessions.set(sid, { txnNumber: n, committed: true, lastUse: Date.now() });
      const extra = txn.writeCount > 0 ? [sessionOp(sid, n, undefined, true)] : [];
      await this.engine.commit(txn, extra);
      return { ok: 1 };
    }
    if (ctx.name === 'abortTransaction') {
      if (st.state !== 'active' || !st.txn) throw noSuchTransaction(n);
      this.engine.abort(st.txn);
      st.txn = null;
      st.state = 'aborted';
      return { ok: 1 };
    }
    if (st.state !== 'active' || !st.txn) throw noSuchTransaction(n);
    if (ctx.cmd['startTransaction'] !== true) transactionSnapshot(this.engine, ctx.cmd, false);
    const txn = st.txn;
    txn.lastUsed = Date.now();
    ctx.txn = txn;
    try {
      const reply = await handler(ctx);
      // Like the server: a write error inside a transaction aborts it (the reply still reports it).
      if (Array.isArray(reply['writeErrors']) && reply['writeErrors'].length > 0) {
        this.engine.abort(txn);
        st.txn = null;
        st.state = 'aborted';
      }
      return reply;
    } catch (e) {
      // Like the server: a failed statement aborts the transaction, releasing its locks at once.
      this.engine.abort(txn);
      st.txn = null;
      st.state = 'aborted';
      throw e;
    }
  }

  private endSessions(ctx: Ctx): Doc {
    const ids = ctx.cmd[ctx.name];
    if (Array.isArray(ids)) {
      for (const l of ids) {
        if (!isPlainObject(l) || !(l['id'] instanceof Binary)) continue;
        const sid = Buffer.from(l['id'].buffer).toString('hex');
        const st = this.txns.get(sid);
        if (st?.txn) this.engine.abort(st.txn);
        this.txns.delete(sid);
      }
    }
    return { ok: 1 };
  }

  /** Aborts transactions idle past the lifetime limit so their locks cannot block others forever. */
  sweep(): void {
    const now = Date.now();
    for (const [sid, st] of this.txns) {
      if (st.txn && now - st.txn.lastUsed > TXN_LIFETIME_MS) {
        this.engine.abort(st.txn);
        st.txn = null;
        st.state = 'aborted';
      }
      if (!st.txn && st.state !== 'active') this.txns.delete(sid);
    }
    for (const [sid, r] of this.engine.sessions) if (now - r.lastUse > 30 * 60_000) this.engine.sessions.delete(sid);
  }
}

function noSuchTransaction(n: number): MongoError {
  return new MongoError(Codes.NoSuchTransaction, `Transaction with { txnNumber: ${n} } has been aborted.`, {
    labels: ['TransientTransactionError'],
  });
}
